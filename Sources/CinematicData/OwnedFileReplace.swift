import CinematicDomain
#if canImport(Glibc)
import Glibc
#endif

extension OwnedFile {
    /// Writes `bytes` as the whole file at `path` under the files rule: only nothing, an
    /// empty file or a file `isOurs` proves ours (from its first 100 bytes) is replaced, never
    /// through a symbolic link; the bytes go to a new temporary file beside it, are flushed
    /// (fsync) and renamed into place, so `path` holds the old file or the new one, whole.
    /// Throws `.storage` naming the reason, the file left unchanged.
    package static func replaceWhole(_ path: String, with bytes: [UInt8], what: String,
                                     isOurs: (_ prefix: [UInt8]) -> Bool) throws(MovieError) {
        try checkReplaceable(path, what: what, isOurs: isOurs)
        let temporary = try temporaryPath(besides: path, what: what)
        let fd = FileIO.open(temporary, O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            let message = FileIO.message(errno)
            unlink(temporary)
            throw .storage("cannot write the \(what) \(path): \(message)")
        }
        let failure = bytes.withUnsafeBytes { FileIO.writeAll(fd, $0, path: temporary) } ?? (FileIO.fsync(fd, path: temporary) == 0 ? nil : errno)
        Glibc.close(fd)
        if let failure {
            unlink(temporary)
            throw .storage("cannot write the \(what) \(path): \(FileIO.message(failure))")
        }
        // Checked again just before the rename: a file that appeared meanwhile is not replaced
        // unless it is ours.
        do throws(MovieError) { try checkReplaceable(path, what: what, isOurs: isOurs) } catch {
            unlink(temporary)
            throw error
        }
        guard FileIO.rename(temporary, path) == 0 else {
            let message = FileIO.message(errno)
            unlink(temporary)
            throw .storage("cannot write the \(what) \(path): \(message)")
        }
        _ = FileSystem.sync(FileSystem.directory(of: path))
    }
}
