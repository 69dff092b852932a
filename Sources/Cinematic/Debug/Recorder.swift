import CinematicData
import CinematicDomain
import CinematicThreads
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Records a session to a file, one JSON object per line (config `record`; the format is
/// docs/wire.md, "Recordings"): the session's config, every store opened and closed, every
/// intent each store reduced (host intents are the replay's inputs) and each state it
/// produced, every time-travel step, every clock advance, and every request the stores made
/// of the catalog and the favorites with its answer. Each line carries `t`, the virtual time
/// in milliseconds since the runtime opened (``RuntimeClock/elapsed``).
///
/// Recording never blocks the recorded threads: they only append a closure to a list (one
/// short lock, no wake-up); the recorder's own thread takes the list every
/// ``flushMilliseconds``, encodes the lines and writes them.
final class Recorder: DebugSink {
    /// How often the recorder's thread writes what was recorded.
    static let flushMilliseconds = 10

    let clock: RuntimeClock
    private let file: RecordingFile
    private let thread: WorkerThread
    private let lastID = Atomic<UInt64>(0)
    private let lastStream = Atomic<UInt64>(0)

    /// The first bytes of every recording: how an existing file is proven ours.
    static let signature = Array(#"{"event":"session","#.utf8)

    /// Creates the recording at `path` under the files rule (``OwnedFile``): a new file, or
    /// a recording of ours that no other runtime writes, replaced; never a symbolic link, a
    /// foreign file or one of `refusing` (the same runtime's databases).
    init(path: String, clock: RuntimeClock, refusing: [String]) throws(APIError) {
        // Non-blocking: a pipe or FIFO nobody reads fails the recording (EAGAIN) instead of
        // hanging the recorder thread, and with it cinematic_runtime_close.
        let fd: Int32
        do {
            fd = try OwnedFile.create(path, what: "recording", isOurs: { prefix in
                prefix.starts(with: Self.signature) || Self.signature.starts(with: prefix)
            }, refusing: refusing)
        } catch {
            throw APIError(.io, error.message)
        }
        let file = RecordingFile(fd: fd, path: path)
        self.file = file
        self.clock = clock
        thread = WorkerThread(name: "cinematic-recorder", tickMilliseconds: Self.flushMilliseconds) { file.flush() }
    }

    /// A new request id (catalog and favorites requests share one sequence).
    func nextRequestID() -> UInt64 { lastID.add(1, ordering: .relaxed).newValue }

    /// A new favorites observation number.
    func nextStreamID() -> UInt64 { lastStream.add(1, ordering: .relaxed).newValue }

    /// Records one line: `{"event": name, "t": now, members…}`, members made on the
    /// recorder's thread.
    func write(_ name: StaticString, at time: Duration? = nil,
               _ members: @escaping @Sendable () -> [(key: String, value: JSONFragment)] = { [] }) {
        file.append(RecordingFile.Line(event: name, time: time ?? clock.elapsed, members: members))
    }

    /// Records a request the stores made of the catalog or the favorites (`"request"`, a new
    /// id), runs it, and records its `"answer"` line: `answer`'s members for the result, and
    /// `"cancelled"` when the asking effect was cancelled meanwhile (its store never sees the
    /// answer; a replay cancels the same effect at the same intent, so it is not an input).
    func recordRequest<Answer: Sendable>(
        _ request: @escaping @Sendable () -> JSONFragment,
        answer: @escaping @Sendable (Result<Answer, MovieError>) -> [(key: String, value: JSONFragment)],
        _ body: () async throws(MovieError) -> Answer
    ) async throws(MovieError) -> Answer {
        let id = JSONFragment.int(Int(clamping: nextRequestID()))
        write("request") { [("id", id), ("request", request())] }
        let result: Result<Answer, MovieError>
        do throws(MovieError) { result = .success(try await body()) } catch { result = .failure(error) }
        let cancelled = Task.isCancelled
        write("answer") { [("id", id)] + answer(result) + [("cancelled", .bool(cancelled))] }
        return try result.get()
    }

    func receive(_ event: TracedEvent) {
        switch event.kind {
        case .reduced, .reverted: file.append(RecordingFile.Line(traced: event))
        case .effect: break
        }
    }

    /// Writes the last line, waits until everything recorded is written, flushed to disk
    /// and closed. Anything recorded afterwards (an effect finishing after its runtime
    /// closed) is dropped: `end` is always the last line. Returns the first write error, if
    /// any (the recording then stops at its last complete line, without `end`).
    func close() -> String? {
        file.finish(RecordingFile.Line(event: "end", time: clock.elapsed, members: { [] }))
        let file = file
        thread.shutDown { file.close() }
        return file.writeError
    }

    /// Writes what was recorded so far now, on the recorder's thread, and waits for it
    /// (tests: a deterministic point between two writes).
    func flush() {
        let file = file
        _ = thread.submit { file.flush() }
        _ = thread.waitUntilIdle()
    }

    /// Called once, on the recorder's thread, with the first write error (the session goes
    /// on; the recording stops at its last complete line).
    func onFailure(_ handler: @escaping @Sendable (String) -> Void) { file.onFailure(handler) }

    /// The first write error, if any: the recording stops at it (its file then lacks the
    /// `end` line, which a replay reports as incomplete); the session goes on.
    var writeError: String? { file.writeError }
}

/// A recording's file and the lines waiting to be written to it.
final class RecordingFile: Sendable {
    /// What waits to be written: one line, or a store event (an intent and the state it
    /// produced; a time-travel step and its state).
    struct Line: Sendable {
        let event: StaticString
        let time: Duration
        let members: (@Sendable () -> [(key: String, value: JSONFragment)])?
        let traced: TracedEvent?

        init(event: StaticString, time: Duration, members: @escaping @Sendable () -> [(key: String, value: JSONFragment)]) {
            self.event = event
            self.time = time
            self.members = members
            self.traced = nil
        }

        init(traced: TracedEvent) {
            self.event = "intent"
            self.time = traced.time
            self.members = nil
            self.traced = traced
        }

        /// The line(s) as text, each ending with a newline.
        func render(into text: inout String) {
            guard let traced else {
                Self.render(event, time, members?() ?? [], into: &text)
                return
            }
            let store = JSONFragment.int(Int(clamping: traced.store))
            switch traced.kind {
            case let .reduced(sequence, values):
                let encoded = values.intent()
                let number = JSONFragment.int(Int(clamping: sequence))
                Self.render("intent", time, [("store", store), ("sequence", number), ("host", .bool(encoded.isHost)),
                                             ("intent", encoded.json)], into: &text)
                if values.changed { Self.render("state", time, [("store", store), ("sequence", number), ("state", values.after())], into: &text) }
            case let .reverted(sequence, values):
                let number = JSONFragment.int(Int(clamping: sequence))
                Self.render("revert", time, [("store", store), ("sequence", number)], into: &text)
                Self.render("state", time, [("store", store), ("sequence", number), ("state", values.after())], into: &text)
            case .effect:
                break
            }
        }

        private static func render(_ event: StaticString, _ time: Duration, _ members: [(key: String, value: JSONFragment)],
                                   into text: inout String) {
            text += #"{"event":"# + JSONFragment.string(String(describing: event)).text
            text += #","t":"# + RuntimeClock.milliseconds(time).text
            for (key, value) in members { text += "," + JSONFragment.string(key).text + ":" + value.text }
            text += "}\n"
        }
    }

    private let fd: Int32
    private let path: String
    /// Lines waiting, and whether the last one (`end`) was queued.
    private let pending = Mutex<(lines: [Line], finished: Bool)>(([], false))
    private let failure = Mutex<(message: String?, handler: (@Sendable (String) -> Void)?)>((nil, nil))
    /// Bytes written up to the end of the last complete line (the recorder's thread only).
    private let committed = Atomic<Int>(0)

    init(fd: Int32, path: String) {
        self.fd = fd
        self.path = path
    }

    func onFailure(_ handler: @escaping @Sendable (String) -> Void) { failure.withLock { $0.handler = handler } }

    /// Queues a line (any thread; never blocks beyond one short lock). Ignored once
    /// ``finish(_:)`` queued the last line.
    func append(_ line: Line) {
        pending.withLock { pending in
            guard !pending.finished else { return }
            pending.lines.append(line)
        }
    }

    /// Queues the last line; later lines are dropped.
    func finish(_ line: Line) {
        pending.withLock { pending in
            guard !pending.finished else { return }
            pending.lines.append(line)
            pending.finished = true
        }
    }

    var writeError: String? { failure.withLock { $0.message } }

    /// Encodes and writes every waiting line (the recorder's thread).
    func flush() {
        let lines = pending.withLock { pending -> [Line] in
            defer { pending.lines.removeAll(keepingCapacity: true) }
            return pending.lines
        }
        guard !lines.isEmpty, writeError == nil else { return }
        var text = ""
        for line in lines { line.render(into: &text) }
        var written = 0
        let code = text.withUTF8 { bytes in FileIO.writeAll(fd, UnsafeRawBufferPointer(bytes), path: path, written: &written) }
        guard let code else {
            committed.add(text.utf8.count, ordering: .relaxed)
            return
        }
        // Keep the complete lines that reached the file; drop the one cut short.
        let complete = text.utf8.prefix(written).lastIndex(of: UInt8(ascii: "\n"))
            .map { text.utf8.distance(from: text.utf8.startIndex, to: $0) + 1 } ?? 0
        committed.add(complete, ordering: .relaxed)
        fail("cannot write the recording \(path): \(FileIO.message(code))")
    }

    /// Stops the recording at its last complete line (a line cut by a failed write is
    /// removed, so the file stays replayable) and reports `message` once.
    private func fail(_ message: String) {
        var info = stat()
        if fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG {
            _ = ftruncate(fd, off_t(committed.load(ordering: .relaxed)))
        }
        let handler = failure.withLock { failure -> (@Sendable (String) -> Void)? in
            guard failure.message == nil else { return nil }
            failure.message = message
            return failure.handler
        }
        handler?(message)
    }

    /// Writes what waits, flushes it to disk (a regular file) and closes the file.
    func close() {
        flush()
        var info = stat()
        if writeError == nil, fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG,
           FileIO.fsync(fd, path: path) != 0 {
            fail("cannot flush the recording \(path) to disk: \(FileIO.message(errno))")
        }
        Glibc.close(fd)
    }
}
