import CinematicDomain
#if canImport(Glibc)
import Glibc
#endif

extension OwnedFile {
    /// Writes `bytes` as the whole file at `path` under the files rule, through a
    /// ``StagedFile``: only nothing, an empty file or a file `isOurs` proves ours (from its
    /// first 100 bytes) is replaced, never through a symbolic link, and the rule holds at the
    /// moment of writing (a file that appeared meanwhile is never replaced); the bytes go to a
    /// new temporary file beside it, flushed (fsync), then put in place atomically, so `path`
    /// holds the old file or the new one, whole, with permissions `mode` (0600: only its owner
    /// reads it). Throws `.storage` naming the reason, the file left unchanged.
    package static func replaceWhole(_ path: String, with bytes: [UInt8], what: String, mode: mode_t = 0o600,
                                     isOurs: @escaping (_ prefix: [UInt8]) -> Bool) throws(MovieError) {
        var staged = try StagedFile(path, what: what, isOurs: isOurs)
        let fd = FileIO.open(staged.temporary, O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw .storage("cannot write the \(what) \(path): \(FileIO.message(errno))") }
        let failure: Int32? = fchmod(fd, mode) == 0 ? bytes.withUnsafeBytes { FileIO.writeAll(fd, $0, path: staged.temporary) } : errno
        Glibc.close(fd)
        if let failure { throw .storage("cannot write the \(what) \(path): \(FileIO.message(failure))") }
        try staged.publish()
    }
}
