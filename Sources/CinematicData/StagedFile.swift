import CSystem
import CinematicDomain
#if canImport(Glibc)
import Glibc
#endif

/// A whole new file (a catalog index) written under a temporary name beside its destination,
/// then put in place atomically. The files rule holds at the moment of writing, not only when
/// the build starts: a file is ours or untouched.
///
/// - Staging checks the destination: nothing, an empty regular file, or one `isOurs` proves
///   ours from its first 100 bytes (never a symbolic link, a directory, a device, a foreign
///   file: `.storage`, left unchanged), and keeps that file open. It removes the temporary
///   files killed writers left beside it (``removeStale(besides:isOurs:)``) and creates a new
///   one, locked (`flock`) for as long as this value lives, so no other build removes it.
/// - ``publish()`` when nothing was there: `link(2)` (or `renameat2(RENAME_NOREPLACE)` on a
///   file system without hard links) never replaces, so a file that appeared meanwhile is
///   refused, unchanged.
/// - ``publish()`` when our file was there: `renameat2(RENAME_EXCHANGE)` swaps the two names in
///   one step; the file swapped out must be the very file checked (same device and inode) and
///   still ours, else it is swapped straight back and the build is refused. A file system
///   without RENAME_EXCHANGE refuses to replace (remove the old index first).
/// - Whatever happens, the temporary name is removed when this value ends.
///
/// ```swift
/// var staged = try StagedFile("/data/movies.idx", what: "catalog index") { SQLiteHeader($0) != nil }
/// try fill(staged.temporary)
/// try staged.publish()
/// ```
struct StagedFile: ~Copyable {
    /// Where the file goes.
    let destination: String
    /// Where it is written meanwhile: `.<name>.tmp-<pid>-<random>` beside ``destination``.
    let temporary: String
    /// The kind of file, for messages ("catalog index").
    let what: String
    /// The temporary file's descriptor, holding its lock.
    private let lock: Int32
    /// The file checked at the destination, or -1 when nothing was there.
    private let existing: Int32
    private let isOurs: ([UInt8]) -> Bool
    /// Set when the temporary name ends up holding a file that is not ours to remove.
    private var keepTemporary = false

    /// Checks `destination`, removes stale temporary files beside it and creates a new,
    /// locked one. `.storage` (nothing created) when the destination is not ours to replace.
    init(_ destination: String, what: String, isOurs: @escaping (_ prefix: [UInt8]) -> Bool) throws(MovieError) {
        let existing = try Self.checkDestination(destination, what: what, isOurs: isOurs)
        Self.removeStale(besides: destination, isOurs: isOurs)
        let temporary: (String, Int32)
        do throws(MovieError) { temporary = try OwnedFile.createTemporary(besides: destination, what: what) } catch {
            if existing >= 0 { Glibc.close(existing) }
            throw error
        }
        self.destination = destination
        self.what = what
        self.isOurs = isOurs
        self.existing = existing
        self.temporary = temporary.0
        lock = temporary.1
    }

    deinit {
        if !keepTemporary { unlink(temporary) }
        Glibc.close(lock)
        if existing >= 0 { Glibc.close(existing) }
    }

    /// Flushes the temporary file and puts it at the destination (see the type's rules), then
    /// flushes the directory. `.storage` when the destination changed meanwhile (left as it is).
    mutating func publish() throws(MovieError) {
        guard FileIO.fsync(lock, path: temporary) == 0 else {
            throw .storage("cannot write the \(what) \(destination): \(FileIO.message(errno))")
        }
        if existing < 0 { try linkNew() } else { try exchange() }
        _ = FileSystem.sync(FileSystem.directory(of: destination))
    }

    /// Removes what killed writers left beside `destination`: files named as our temporary
    /// files are (`.<name>.tmp-`), regular, whose lock nobody holds (their writer is dead) and
    /// that are empty or that `isOurs` proves ours. Anything else is left alone.
    static func removeStale(besides destination: String, isOurs: (_ prefix: [UInt8]) -> Bool) {
        let directory = FileSystem.directory(of: destination)
        let prefix = "." + FileSystem.baseName(of: destination) + ".tmp-"
        guard let listing = opendir(directory) else { return }
        defer { closedir(listing) }
        while let entry = readdir(listing) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(validatingCString: raw.baseAddress!.assumingMemoryBound(to: CChar.self))
            }
            guard let name, name.utf8.starts(with: prefix.utf8) else { continue }
            let path = directory + "/" + name
            let fd = FileIO.open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
            guard fd >= 0 else { continue }
            defer { Glibc.close(fd) }
            guard flock(fd, LOCK_EX | LOCK_NB) == 0, let head = Self.prefix(fd), head.isEmpty || isOurs(head),
                  FileSystem.names(path, fd) else { continue }
            unlink(path)
        }
    }

    /// Opens what is at `destination` when it may be replaced: -1 when nothing is there.
    private static func checkDestination(_ destination: String, what: String, isOurs: (_ prefix: [UInt8]) -> Bool) throws(MovieError) -> Int32 {
        let fd = FileIO.open(destination, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            switch errno {
            case ENOENT: return -1
            case ELOOP: throw .storage("the \(what) \(destination) is a symbolic link; it was left unchanged")
            default: throw .storage("cannot open the \(what) \(destination): \(FileIO.message(errno))")
            }
        }
        guard let prefix = prefix(fd) else {
            Glibc.close(fd)
            throw .storage("the \(what) \(destination) is not a regular file; it was left unchanged")
        }
        guard prefix.isEmpty || isOurs(prefix) else {
            Glibc.close(fd)
            throw .storage("\(destination) is not a \(what) of ours; it was left unchanged")
        }
        return fd
    }

    /// Nothing was there: link, which never replaces.
    private func linkNew() throws(MovieError) {
        if link(temporary, destination) == 0 { return }
        var code = errno
        if code == EPERM || code == ENOTSUP || code == EMLINK {
            // A file system without hard links: a rename that never replaces either.
            if cinematic_renameat2(AT_FDCWD, temporary, AT_FDCWD, destination, UInt32(CINEMATIC_RENAME_NOREPLACE)) == 0 { return }
            code = errno
        }
        if code == EEXIST {
            throw .storage("something appeared at \(destination) while the \(what) was built; it was left unchanged")
        }
        throw .storage("cannot write the \(what) \(destination): \(FileIO.message(code))")
    }

    /// Our file was there: swap, then keep the swap only if the file swapped out is it.
    private mutating func exchange() throws(MovieError) {
        let swap = UInt32(CINEMATIC_RENAME_EXCHANGE)
        guard cinematic_renameat2(AT_FDCWD, temporary, AT_FDCWD, destination, swap) == 0 else {
            let code = errno
            switch code {
            case ENOENT where FileSystem.exists(temporary):
                return try linkNew()     // the file checked was removed meanwhile: nothing to replace
            case EINVAL, ENOSYS, ENOTSUP:
                throw .storage("cannot replace the \(what) \(destination) atomically on this file system (renameat2 RENAME_EXCHANGE: \(FileIO.message(code))); remove it first; it was left unchanged")
            default:
                throw .storage("cannot replace the \(what) \(destination): \(FileIO.message(code))")
            }
        }
        if FileSystem.names(temporary, existing), let prefix = Self.prefix(existing), prefix.isEmpty || isOurs(prefix) { return }
        // Not the file checked, or no longer ours: put it back where it was.
        guard cinematic_renameat2(AT_FDCWD, temporary, AT_FDCWD, destination, swap) == 0, FileSystem.names(temporary, lock) else {
            keepTemporary = true
            throw .storage("\(destination) changed while the \(what) was built and could not be put back: the file found there is now \(temporary)")
        }
        throw .storage("\(destination) changed while the \(what) was built; it was left unchanged")
    }

    /// The first 100 bytes of the regular file open as `fd`; nil when it is no regular file
    /// or cannot be read.
    private static func prefix(_ fd: Int32) -> [UInt8]? {
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        var prefix = [UInt8](repeating: 0, count: 100)
        let count = prefix.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        guard count >= 0 else { return nil }
        return Array(prefix[..<count])
    }
}
