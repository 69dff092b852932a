#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The few file operations the data layer needs, on libc (no Foundation in the library).
enum FileSystem {
    /// The value of environment variable `name`, nil when unset or empty.
    static func environment(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        let text = String(cString: value)
        return text.isEmpty ? nil : text
    }

    /// True when something exists at `path`.
    static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    /// Creates `path` and its missing parents (mode 0700); true when the directory exists after.
    @discardableResult
    static func makeDirectories(_ path: String) -> Bool {
        var prefix = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/") {
            prefix += component
            _ = mkdir(prefix, 0o700)
            prefix += "/"
        }
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// The directory part of `path` ("." when it has none).
    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// The real user id, for per-user directories.
    static var userID: Int { Int(getuid()) }

    /// This process's id, for unique temporary names.
    static var processID: Int { Int(getpid()) }

    /// The last component of `path`.
    static func baseName(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }

    /// True when `path` names the file open as `fd`: the same device and inode (a symbolic
    /// link at `path` is not followed).
    static func names(_ path: String, _ fd: Int32) -> Bool {
        var named = stat(), open = stat()
        return lstat(path, &named) == 0 && fstat(fd, &open) == 0 && named.st_dev == open.st_dev && named.st_ino == open.st_ino
    }

    /// Flushes the file or directory at `path` to disk (fsync); false on failure (errno set).
    static func sync(_ path: String) -> Bool {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        return fsync(descriptor) == 0
    }
}
