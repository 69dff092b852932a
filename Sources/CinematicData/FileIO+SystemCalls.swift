import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension FileIO {
    /// The system calls ``FileIO`` makes, one entry each, with the path each concerns (the
    /// destination, for `rename`). ``real`` is the libc calls; a program may replace the
    /// whole table once, before its first file operation matters (``use(_:)``): the
    /// library's tests make calls fail that way. Nothing in the library replaces it.
    package struct SystemCalls: Sendable {
        /// `open(path, flags, mode)`.
        package var open: @Sendable (_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32
        /// `read(fd, buffer, count)` on `path`.
        package var read: @Sendable (_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int, _ path: String) -> Int
        /// `pread(fd, buffer, count, offset)` on `path`.
        package var pread: @Sendable (_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int, _ offset: Int, _ path: String) -> Int
        /// `write(fd, buffer, count)` on `path`.
        package var write: @Sendable (_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int, _ path: String) -> Int
        /// `fsync(fd)` on `path`.
        package var fsync: @Sendable (_ fd: Int32, _ path: String) -> Int32
        /// `rename(source, destination)`.
        package var rename: @Sendable (_ source: String, _ destination: String) -> Int32

        /// The libc calls.
        package static let real = SystemCalls(
            open: { path, flags, mode in Glibc.open(path, flags, mode) },
            read: { fd, buffer, count, _ in Glibc.read(fd, buffer, count) },
            pread: { fd, buffer, count, offset, _ in Glibc.pread(fd, buffer, count, off_t(offset)) },
            write: { fd, buffer, count, _ in Glibc.write(fd, buffer, count) },
            fsync: { fd, _ in Glibc.fsync(fd) },
            rename: { source, destination in Glibc.rename(source, destination) })
    }

    /// Makes every later ``FileIO`` call go through `calls` instead of ``SystemCalls/real``.
    /// Once per process: false (and nothing changed) when the table was already replaced.
    @discardableResult
    package static func use(_ calls: SystemCalls) -> Bool {
        guard state.compareExchange(expected: Self.unreplaced, desired: Self.replacing, ordering: .acquiring).exchanged else {
            return false
        }
        table = calls
        state.store(Self.inUse, ordering: .releasing)
        return true
    }

    /// The replacing table, nil while the real calls are made directly (one acquiring load:
    /// the table is written once, before `state` says so).
    static var replaced: SystemCalls? {
        state.load(ordering: .acquiring) == inUse ? table : nil
    }

    private static let unreplaced = 0, replacing = 1, inUse = 2
    private static let state = Atomic<Int>(0)
    /// Written once by ``use(_:)`` before `state` becomes `inUse`, never after: read only then.
    nonisolated(unsafe) private static var table = SystemCalls.real
}
