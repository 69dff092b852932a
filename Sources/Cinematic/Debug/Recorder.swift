import MVIKit
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Records a session to a file, one JSON object per line (config `record`; the format is
/// docs/wire.md, "Recordings"): the session's config, every store opened and closed, every
/// intent each store reduced (host intents are the replay's inputs) and each state it
/// produced, every time-travel step, every clock advance, and every request the stores made
/// of the catalog and the favorites with its answer. Each line carries `t`, the virtual time
/// in milliseconds since the runtime opened (``SessionClock``).
///
/// Recording never blocks the recorded threads: they only queue a closure; the recorder's
/// own thread encodes the line and writes it.
final class Recorder: DebugSink {
    let clock: SessionClock
    private let fd: Int32
    private let thread = WorkerThread(name: "cinematic-recorder")
    private let lastID = Atomic<UInt64>(0)
    private let lastStream = Atomic<UInt64>(0)
    private let failure = Mutex<String?>(nil)

    /// Creates (or truncates) the file at `path`.
    init(path: String, clock: SessionClock) throws(APIError) {
        // Non-blocking: a pipe or FIFO nobody reads fails the recording (EAGAIN) instead of
        // hanging the recorder thread, and with it cinematic_runtime_close.
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NONBLOCK, 0o644)
        guard fd >= 0 else {
            throw APIError(.io, "cannot create the recording \(path): \(String(cString: strerror(errno)))")
        }
        self.fd = fd
        self.clock = clock
    }

    /// A new request id (catalog and favorites requests share one sequence).
    func nextRequestID() -> UInt64 { lastID.add(1, ordering: .relaxed).newValue }

    /// A new favorites observation number.
    func nextStreamID() -> UInt64 { lastStream.add(1, ordering: .relaxed).newValue }

    /// Queues one line: `{"event": name, "t": now, members…}`, members made on the recorder's
    /// thread.
    func write(_ name: StaticString, at time: Duration? = nil,
               _ members: @escaping @Sendable () -> [(key: String, value: JSONFragment)] = { [] }) {
        let time = time ?? clock.now
        let event = String(describing: name)
        thread.submit { [self] in
            var line = #"{"event":"# + JSONFragment.string(event).text + #","t":"# + SessionClock.milliseconds(time).text
            for (key, value) in members() {
                line += "," + JSONFragment.string(key).text + ":" + value.text
            }
            line += "}\n"
            append(line)
        }
    }

    func receive(_ event: TracedEvent) {
        let store = JSONFragment.int(Int(clamping: event.store))
        switch event.kind {
        case let .reduced(sequence, intent, _, after, changed):
            write("intent", at: event.time) {
                let encoded = intent()
                return [("store", store), ("sequence", .int(Int(clamping: sequence))), ("host", .bool(encoded.isHost)),
                        ("intent", encoded.json)]
            }
            if changed {
                write("state", at: event.time) { [("store", store), ("sequence", .int(Int(clamping: sequence))), ("state", after())] }
            }
        case let .reverted(sequence, _, state):
            write("revert", at: event.time) { [("store", store), ("sequence", .int(Int(clamping: sequence)))] }
            write("state", at: event.time) { [("store", store), ("sequence", .int(Int(clamping: sequence))), ("state", state())] }
        case .effect:
            break
        }
    }

    /// Writes the last line, waits until everything queued is written and closes the file.
    func close() {
        write("end")
        thread.shutDown()
        Glibc.close(fd)
    }

    /// The first write error, if any: the recording stops at it (its file then lacks the
    /// `end` line, which a replay reports as incomplete); the session goes on.
    var writeError: String? { failure.withLock { $0 } }

    private func append(_ line: String) {
        guard failure.withLock({ $0 == nil }) else { return }
        var line = line
        line.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else {
                    let message = String(cString: strerror(errno))
                    failure.withLock { $0 = message }
                    return
                }
                offset += written
            }
        }
    }
}
