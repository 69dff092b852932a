#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The system calls behind every file the library writes itself (recordings, log output,
/// temporary files), each through ``FaultInjection`` so tests can make it fail. They behave
/// exactly like the libc calls: -1 and `errno` on failure (EINTR included: callers retry).
package enum FileIO {
    /// `open(2)`.
    package static func open(_ path: String, _ flags: Int32, _ mode: mode_t = 0o600) -> Int32 {
        if let fault = FaultInjection.fault(.open, path: path) { return fail(fault) }
        return Glibc.open(path, flags, mode)
    }

    /// `read(2)` of a descriptor opened on `path`.
    package static func read(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int, path: String) -> Int {
        if let fault = FaultInjection.fault(.read, path: path) { return Int(fail(fault)) }
        return Glibc.read(fd, buffer, count)
    }

    /// `pread(2)` of a descriptor opened on `path`.
    package static func pread(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int, at offset: Int, path: String) -> Int {
        if let fault = FaultInjection.fault(.read, path: path) { return Int(fail(fault)) }
        return Glibc.pread(fd, buffer, count, off_t(offset))
    }

    /// `write(2)` to a descriptor opened on `path`.
    package static func write(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int, path: String) -> Int {
        if let fault = FaultInjection.fault(.write, path: path) { return Int(fail(fault)) }
        return Glibc.write(fd, buffer, count)
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
        if let fault = FaultInjection.fault(.fsync, path: path) { return fail(fault) }
        return Glibc.fsync(fd)
    }

    /// `rename(2)`.
    package static func rename(_ source: String, _ destination: String) -> Int32 {
        if let fault = FaultInjection.fault(.rename, path: destination) { return fail(fault) }
        return Glibc.rename(source, destination)
    }

    /// The text of `code` (an `errno`).
    package static func message(_ code: Int32) -> String { String(cString: strerror(code)) }

    private static func fail(_ code: Int32) -> Int32 {
        errno = code
        return -1
    }
}
