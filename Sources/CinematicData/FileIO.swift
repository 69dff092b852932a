#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The system calls behind every file the library writes itself (recordings, log output,
/// temporary files), made through one table, ``SystemCalls``: the real calls unless a test
/// target has replaced them (``use(_:)``). They behave exactly like the libc calls: -1 and
/// `errno` on failure (EINTR included: callers retry).
package enum FileIO {
    /// `open(2)`.
    package static func open(_ path: String, _ flags: Int32, _ mode: mode_t = 0o600) -> Int32 {
        guard let calls = replaced else { return Glibc.open(path, flags, mode) }
        return calls.open(path, flags, mode)
    }

    /// `read(2)` of a descriptor opened on `path`.
    package static func read(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int, path: String) -> Int {
        guard let calls = replaced else { return Glibc.read(fd, buffer, count) }
        return calls.read(fd, buffer, count, path)
    }

    /// `pread(2)` of a descriptor opened on `path`.
    package static func pread(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int, at offset: Int, path: String) -> Int {
        guard let calls = replaced else { return Glibc.pread(fd, buffer, count, off_t(offset)) }
        return calls.pread(fd, buffer, count, offset, path)
    }

    /// `write(2)` to a descriptor opened on `path`.
    package static func write(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int, path: String) -> Int {
        guard let calls = replaced else { return Glibc.write(fd, buffer, count) }
        return calls.write(fd, buffer, count, path)
    }

    /// Writes all of `bytes` (retrying short writes and EINTR); nil on success, else the
    /// `errno` of the failed write (EAGAIN included: a non-blocking descriptor that is full),
    /// with `written` the bytes that did reach the file.
    package static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, path: String) -> Int32? {
        var written = 0
        return writeAll(fd, bytes, path: path, written: &written)
    }

    /// ``writeAll(_:_:path:)``, counting the bytes written in `offset`.
    package static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, path: String, written offset: inout Int) -> Int32? {
        offset = 0
        while offset < bytes.count {
            let written = write(fd, bytes.baseAddress! + offset, bytes.count - offset, path: path)
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return written == 0 ? EIO : errno }
            offset += written
        }
        return nil
    }

    /// `fsync(2)` of a descriptor opened on `path`.
    package static func fsync(_ fd: Int32, path: String) -> Int32 {
        guard let calls = replaced else { return Glibc.fsync(fd) }
        return calls.fsync(fd, path)
    }

    /// `rename(2)`.
    package static func rename(_ source: String, _ destination: String) -> Int32 {
        guard let calls = replaced else { return Glibc.rename(source, destination) }
        return calls.rename(source, destination)
    }

    /// The text of `code` (an `errno`).
    package static func message(_ code: Int32) -> String { String(cString: strerror(code)) }
}
