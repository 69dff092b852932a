import CinematicDomain
#if canImport(Glibc)
import Glibc
#endif

/// The one way the library opens a file it reads (a catalog index, a movie file, the
/// favorites, the offline cache, a recording): every file we read is hostile until proven
/// ours, so opening it never blocks and never takes more than its bound.
///
/// - Opened with `O_NONBLOCK`, so a FIFO without a writer or a device is a status, never a
///   hang; then `fstat`: anything but a regular file is refused with `.storage` naming it.
/// - Its size is known before a byte is read and checked against `maximumBytes`.
/// - Reads are `pread`s of that descriptor (retrying short reads, and EINTR up to 64 times), through
///   ``FileIO`` so fault-injection tests can fail them. A file that shrinks while it is read
///   is an error, never a signal: nothing here maps a file.
///
/// ```swift
/// guard let file = try ReadableFile.open("/data/movies.idx", what: "catalog index",
///                                        maximumBytes: 1 << 30) else { return }  // missing
/// let header = try file.read(count: 100)
/// ```
package struct ReadableFile: ~Copyable {
    /// The open descriptor (close-on-exec, non-blocking); closed when this value ends.
    package let descriptor: Int32
    /// The path as given, for messages.
    package let path: String
    /// The kind of file, for messages ("catalog index").
    package let what: String
    /// The file's size when it was opened.
    package let size: Int

    /// How many interrupted reads (EINTR) in a row are retried before the read fails.
    static let interruptedRetries = 64

    /// Opens `path` for reading: nil when nothing is there, `.storage` when it is not a
    /// regular file, cannot be opened, or is larger than `maximumBytes`; with
    /// `followingLinks: false`, also when it is a symbolic link.
    package static func open(_ path: String, what: String, maximumBytes: Int, followingLinks: Bool = true) throws(MovieError) -> ReadableFile? {
        let descriptor = FileIO.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY | (followingLinks ? 0 : O_NOFOLLOW))
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            if errno == ELOOP && !followingLinks { throw .storage("the \(what) \(path) is a symbolic link") }
            throw .storage("cannot open the \(what) \(path): \(FileIO.message(errno))")
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let message = FileIO.message(errno)
            Glibc.close(descriptor)
            throw .storage("cannot read the \(what) \(path): \(message)")
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            Glibc.close(descriptor)
            throw .storage("the \(what) \(path) is not a regular file (\(Self.kind(info.st_mode)))")
        }
        guard Int(info.st_size) <= maximumBytes else {
            Glibc.close(descriptor)
            throw .storage("the \(what) \(path) is larger than \(ByteCount(maximumBytes)) (\(info.st_size) bytes)")
        }
        return ReadableFile(descriptor: descriptor, path: path, what: what, size: Int(info.st_size))
    }

    private init(descriptor: Int32, path: String, what: String, size: Int) {
        self.descriptor = descriptor
        self.path = path
        self.what = what
        self.size = size
    }

    deinit { Glibc.close(descriptor) }

    /// A second reader of the very same open file (`dup`), even if its path is replaced
    /// meanwhile.
    package func duplicate() throws(MovieError) -> ReadableFile {
        let copy = dup(descriptor)
        guard copy >= 0 else { throw .storage("cannot read the \(what) \(path): \(FileIO.message(errno))") }
        return ReadableFile(descriptor: copy, path: path, what: what, size: size)
    }

    /// Up to `count` bytes from `offset` (fewer only at the end of the file).
    package func read(count: Int, at offset: Int = 0) throws(MovieError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let read = bytes.withUnsafeMutableBytes { buffer in Result { () throws(MovieError) in try self.read(into: buffer, at: offset) } }
        bytes.removeLast(count - (try read.get()))
        return bytes
    }

    /// Fills `buffer` from `offset`; returns the bytes read (fewer than the buffer only at
    /// the end of the file).
    package func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int = 0) throws(MovieError) -> Int {
        var done = 0, interrupted = 0
        while done < buffer.count {
            let count = FileIO.pread(descriptor, buffer.baseAddress! + done, buffer.count - done, at: offset + done, path: path)
            if count < 0 {
                // Interrupted reads are retried, a bounded number of times (never a loop).
                if errno == EINTR && interrupted < Self.interruptedRetries { interrupted += 1; continue }
                throw .storage("cannot read the \(what) \(path): \(FileIO.message(errno))")
            }
            if count == 0 { break }
            done += count
        }
        return done
    }

    /// The whole file as it was when opened (``size`` bytes); `.storage` when it shrank or
    /// grew meanwhile (someone is rewriting it).
    package func readAll() throws(MovieError) -> [UInt8] {
        let bytes = try read(count: size + 1)
        guard bytes.count == size else {
            throw .storage("the \(what) \(path) changed while it was read (\(size) bytes, then \(bytes.count))")
        }
        return bytes
    }

    private static func kind(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFIFO: "a FIFO"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFDIR: "a directory"
        case S_IFSOCK: "a socket"
        default: "not a regular file"
        }
    }
}

/// A number of bytes for messages: "1 MiB", "4 GiB", "512 bytes".
package struct ByteCount: CustomStringConvertible {
    let bytes: Int
    package init(_ bytes: Int) { self.bytes = bytes }
    package var description: String {
        for (shift, unit) in [(30, "GiB"), (20, "MiB"), (10, "KiB")] where bytes >= 1 << shift && bytes % (1 << shift) == 0 {
            return "\(bytes >> shift) \(unit)"
        }
        return "\(bytes) bytes"
    }
}
