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

    /// Atomically replaces `destination` with `source`.
    static func move(_ source: String, to destination: String) -> Bool { rename(source, destination) == 0 }

    /// Deletes the file at `path`, ignoring a missing file.
    static func remove(_ path: String) { unlink(path) }

    /// The real user id, for per-user directories.
    static var userID: Int { Int(getuid()) }

    /// This process's id, for unique temporary names.
    static var processID: Int { Int(getpid()) }

    /// The text of the current `errno`.
    static var lastErrorMessage: String { String(cString: strerror(errno)) }

    /// The last component of `path`.
    static func baseName(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }

    /// Flushes the file or directory at `path` to disk (fsync); false on failure (errno set).
    static func sync(_ path: String) -> Bool {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        return fsync(descriptor) == 0
    }
}
