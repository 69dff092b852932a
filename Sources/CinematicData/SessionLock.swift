import CinematicDomain
#if canImport(Glibc)
import Glibc
#endif

/// One session per file: an exclusive `flock` on a lock file beside it
/// (`<directory>/.<name>.lock`), held until ``release()`` or the process ends (a crash
/// releases it too). A file replaced by renames (an app state file) cannot carry the lock
/// itself: each save is a new inode.
///
/// The lock file is ours by its name: created new (mode 0600, never through a symbolic link)
/// or opened as it is, never written or truncated, and removed by its holder at release (while
/// still locked; a session that took the lock of a file removed meanwhile sees that its path no
/// longer names it, and tries again). A crashed session's file stays, unlocked, for the next.
///
/// ```swift
/// switch try SessionLock.acquire(besides: "/home/me/.local/state/movies/app.json") {
/// case let .acquired(lock): defer { lock.release() } …   // this session saves
/// case .busy: …                                           // another one does: do not save over it
/// }
/// ```
package final class SessionLock: Sendable {
    /// What acquiring found.
    package enum Outcome: Sendable {
        /// This session holds the lock.
        case acquired(SessionLock)
        /// Another session (this process or another) holds it.
        case busy
        /// The file's directory does not exist (yet): nothing can be saved there either.
        case noDirectory
    }

    private let descriptor: Int32
    private let path: String

    private init(descriptor: Int32, path: String) {
        self.descriptor = descriptor
        self.path = path
    }

    deinit { Glibc.close(descriptor) }

    /// The lock beside `path`, taken without waiting; throws `.storage` when the lock file
    /// cannot be opened (a symbolic link, not a regular file, no permission).
    package static func acquire(besides path: String, attempts: Int = 8) throws(MovieError) -> Outcome {
        let lockPath = FileSystem.directory(of: path) + "/." + FileSystem.baseName(of: path) + ".lock"
        let fd = FileIO.open(lockPath, O_RDONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            if errno == ENOENT { return .noDirectory }
            throw .storage("cannot open the lock file \(lockPath): \(FileIO.message(errno))")
        }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            Glibc.close(fd)
            throw .storage("the lock file \(lockPath) is not a regular file")
        }
        // A flock is per open file description: a second open in this process is refused too.
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let code = errno
            Glibc.close(fd)
            if code == EWOULDBLOCK { return .busy }
            throw .storage("cannot lock \(lockPath): \(FileIO.message(code))")
        }
        // The holder before may have removed the file between our open and our lock: then
        // this lock guards nothing, and the path is tried again.
        guard FileSystem.names(lockPath, fd) else {
            Glibc.close(fd)
            guard attempts > 1 else { throw .storage("cannot lock \(lockPath): other processes keep removing it") }
            return try acquire(besides: path, attempts: attempts - 1)
        }
        return .acquired(SessionLock(descriptor: fd, path: lockPath))
    }

    /// Releases the lock now: the lock file is removed (only when its path still names the
    /// file locked), then unlocked. The descriptor closes when the lock is freed.
    package func release() {
        if FileSystem.names(path, descriptor) { unlink(path) }
        flock(descriptor, LOCK_UN)
    }
}
