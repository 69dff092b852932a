import CinematicDomain
#if canImport(Glibc)
import Glibc
#endif

/// The files rule for a file the library writes itself, byte by byte (a recording): a file is
/// ours or left untouched.
///
/// - A missing file is created new, already locked, under a temporary name in the same
///   directory, then linked into place (`link(2)` never replaces): nothing half-made appears
///   and a racing writer cannot slip in between.
/// - An existing file is replaced only when it is a regular file (a symbolic link is never
///   followed), nobody writes it (one writer per file: an exclusive `flock`, held until the
///   descriptor closes), and `isOurs` proves it ours from its first bytes; the new file is
///   renamed over it, so a reader of the old one keeps it whole.
/// - A FIFO is written as it is (a pipe to another program), never replaced.
/// - Anything else (a directory, a device, a socket, a foreign file, one of `refusing`: the
///   same runtime's databases) is refused with `.storage`, and left unchanged.
package enum OwnedFile {
    /// Opens `path` for writing (non-blocking, close-on-exec), empty and locked by the
    /// returned descriptor. `what` names the kind of file in errors ("recording").
    package static func create(_ path: String, what: String, isOurs: (_ prefix: [UInt8]) -> Bool,
                               refusing protected: [String]) throws(MovieError) -> Int32 {
        for other in protected where sameFile(path, other) {
            throw .storage("the \(what) \(path) is \(other), a database of the same runtime; it was left unchanged")
        }
        for _ in 0..<8 {
            let existing = FileIO.open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
            if existing < 0 {
                switch errno {
                case ENOENT:
                    if let fd = try createNew(path, what: what) { return fd }
                    continue        // created by someone else meanwhile: look again
                case ELOOP:
                    throw .storage("the \(what) \(path) is a symbolic link; it was left unchanged")
                default:
                    throw .storage("cannot open the \(what) \(path): \(FileIO.message(errno))")
                }
            }
            defer { Glibc.close(existing) }
            var info = stat()
            guard fstat(existing, &info) == 0 else { throw .storage("cannot read the \(what) \(path): \(FileIO.message(errno))") }
            switch info.st_mode & S_IFMT {
            case S_IFIFO:
                let fd = FileIO.open(path, O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
                guard fd >= 0 else { throw .storage("cannot write the \(what) \(path) (a FIFO): \(FileIO.message(errno))") }
                return fd
            case S_IFREG:
                break
            default:
                throw .storage("the \(what) \(path) is not a regular file; it was left unchanged")
            }
            guard flock(existing, LOCK_EX | LOCK_NB) == 0 else {
                throw .storage("the \(what) \(path) is being written by another runtime; it was left unchanged")
            }
            var prefix = [UInt8](repeating: 0, count: 64)
            let count = prefix.withUnsafeMutableBytes { pread(existing, $0.baseAddress, $0.count, 0) }
            guard count >= 0 else { throw .storage("cannot read the \(what) \(path): \(FileIO.message(errno))") }
            guard count == 0 || isOurs(Array(prefix[..<count])) else {
                throw .storage("\(path) is not a \(what) of ours; it was left unchanged")
            }
            let (temporary, fd) = try createTemporary(besides: path, what: what)
            guard FileIO.rename(temporary, path) == 0 else {
                let message = FileIO.message(errno)
                unlink(temporary)
                Glibc.close(fd)
                throw .storage("cannot replace the \(what) \(path): \(message)")
            }
            return fd
        }
        throw .storage("cannot create the \(what) \(path): other processes keep creating and removing it")
    }

    /// True when `a` and `b` name the same file: the same inode when both exist, else the
    /// same path once their directories are resolved.
    package static func sameFile(_ a: String, _ b: String) -> Bool {
        var first = stat(), second = stat()
        if stat(a, &first) == 0 && stat(b, &second) == 0 { return first.st_dev == second.st_dev && first.st_ino == second.st_ino }
        return canonical(a) == canonical(b)
    }

    /// A new, locked file linked at `path`; nil when `path` appeared meanwhile.
    private static func createNew(_ path: String, what: String) throws(MovieError) -> Int32? {
        let (temporary, fd) = try createTemporary(besides: path, what: what)
        defer { unlink(temporary) }
        if link(temporary, path) == 0 { return fd }
        let code = errno
        if code == EEXIST {
            Glibc.close(fd)
            return nil
        }
        guard code == EPERM || code == ENOTSUP || code == EXDEV else {
            Glibc.close(fd)
            throw .storage("cannot create the \(what) \(path): \(FileIO.message(code))")
        }
        // A file system without hard links: create in place, never over anything.
        Glibc.close(fd)
        let direct = FileIO.open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o644)
        if direct < 0 && errno == EEXIST { return nil }
        guard direct >= 0 else { throw .storage("cannot create the \(what) \(path): \(FileIO.message(errno))") }
        _ = flock(direct, LOCK_EX | LOCK_NB)
        return direct
    }

    /// An empty file, locked (`flock`, held by the returned descriptor), under a fresh
    /// temporary name next to `path`: `.<name>.tmp-<pid>-<random>`, the names
    /// ``StagedFile/removeStale(besides:isOurs:)`` recognises once their writer is dead. The
    /// lock is taken before the name is trusted: a name whose lock another process took first
    /// (a cleaner that saw it empty and unlocked) is given up for a new one.
    static func createTemporary(besides path: String, what: String) throws(MovieError) -> (String, Int32) {
        let base = FileSystem.directory(of: path) + "/." + FileSystem.baseName(of: path) + ".tmp-\(FileSystem.processID)-"
        for attempt in 0..<100 {
            let temporary = base + String(UInt32.random(in: 0 ... .max), radix: 36) + "\(attempt)"
            let fd = FileIO.open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o644)
            if fd < 0 && errno == EEXIST { continue }
            guard fd >= 0 else { throw .storage("cannot create the \(what) \(path): \(FileIO.message(errno))") }
            // EWOULDBLOCK: a cleaner holds it and removes it. Any other failure: this file
            // system has no flock, and a cleaner cannot take the lock it needs either.
            let locked = flock(fd, LOCK_EX | LOCK_NB) == 0 || errno != EWOULDBLOCK
            guard locked, FileSystem.names(temporary, fd) else {
                Glibc.close(fd)
                continue
            }
            return (temporary, fd)
        }
        throw .storage("cannot create the \(what) \(path): no free temporary name")
    }

    private static func canonical(_ path: String) -> String {
        let directory = FileSystem.directory(of: path)
        guard let resolved = realpath(directory, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved) + "/" + FileSystem.baseName(of: path)
    }
}
