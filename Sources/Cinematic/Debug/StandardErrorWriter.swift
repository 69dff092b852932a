import CinematicData
import CinematicThreads
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Log output to standard error (`CINEMATIC_LOG=stderr`), written by a thread of the
/// library's own, never by the thread that logs: a stderr nobody drains (a full pipe, a
/// terminal paused with Ctrl-S) stalls only this thread. What waits is bounded by
/// ``maximumBytes``; lines past it are dropped and counted, and the count is written as soon
/// as stderr takes data again (`cinematic: 120 log lines dropped: standard error was not
/// taking them`).
///
/// One per process (standard error is), started on first use.
final class StandardErrorWriter: Sendable {
    /// The shared writer.
    static let shared = StandardErrorWriter(fd: 2, path: "<stderr>")

    /// The most bytes that wait to be written: 1 MiB.
    static let maximumBytes = 1 << 20

    private let fd: Int32
    private let path: String
    private let worker = WorkerThread(name: "cinematic-stderr")
    /// Bytes waiting, and lines dropped since the last report.
    private let backlog = Mutex<(bytes: Int, dropped: Int)>((0, 0))

    init(fd: Int32, path: String) {
        self.fd = fd
        self.path = path
    }

    /// Queues `line` (a newline is added) and returns at once; drops it when the backlog is
    /// full. Returns false when dropped.
    @discardableResult
    func write(_ line: String) -> Bool {
        let text = line + "\n"
        let size = text.utf8.count
        let accepted = backlog.withLock { backlog -> Bool in
            guard backlog.bytes + size <= Self.maximumBytes else {
                backlog.dropped += 1
                return false
            }
            backlog.bytes += size
            return true
        }
        guard accepted else { return false }
        _ = worker.submit { [self] in
            let dropped = backlog.withLock { backlog -> Int in
                defer { backlog.dropped = 0 }
                return backlog.dropped
            }
            if dropped > 0 { emit("cinematic: \(dropped) log lines dropped: standard error was not taking them\n") }
            emit(text)
            backlog.withLock { $0.bytes -= size }
        }
        return true
    }

    /// Blocks until everything queued so far is written (tests; never on a host's path).
    func drain() { _ = worker.waitUntilIdle() }

    private func emit(_ text: String) {
        var text = text
        _ = text.withUTF8 { FileIO.writeAll(fd, UnsafeRawBufferPointer($0), path: path) }
    }
}
