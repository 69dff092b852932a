import MVIKit
import Synchronization

/// A runtime's debugging sinks: the recorder (config `record`, fixed at open), the logger
/// (`cinematic_runtime_set_logger` or `CINEMATIC_LOG`, replaceable) and, in a replay, the
/// collector. Stores are traced only while ``sinks`` is not empty, so with none a store
/// records nothing.
final class DebugHub: Sendable {
    let clock: RuntimeClock
    /// The session recorder, when the runtime records.
    let recorder: Recorder?
    /// A fixed sink of the runtime's own (a replay's collector).
    private let fixed: (any DebugSink)?
    private let logger = Mutex<LogSink?>(nil)
    /// Notes made before the runtime finished opening (its logger is set last), and whether
    /// it did.
    private let early = Mutex<(notes: [(String, Duration)], opened: Bool)>(([], false))

    init(clock: RuntimeClock, recorder: Recorder?, fixed: (any DebugSink)? = nil) {
        self.clock = clock
        self.recorder = recorder
        self.fixed = fixed
    }

    /// Replaces the logger; returns the previous one.
    func setLogger(_ sink: LogSink?) -> LogSink? {
        logger.withLock { current in
            defer { current = sink }
            return current
        }
    }

    /// Logs a line about the runtime itself (a recording that stopped, an offline cache that
    /// cannot be used) to the current logger, if any; notes made while the runtime opens wait
    /// for ``flushNotes()``. Bounded: at most 16 wait.
    func note(_ text: String) {
        let time = clock.elapsed
        let deferred = early.withLock { early -> Bool in
            guard !early.opened else { return false }
            if early.notes.count < 16 { early.notes.append((text, time)) }
            return true
        }
        if !deferred { currentLogger?.note(text, at: time) }
    }

    /// The runtime is open: notes go straight to the logger from now on.
    func flushNotes() {
        let notes = early.withLock { early in
            early.opened = true
            defer { early.notes = [] }
            return early.notes
        }
        for (text, time) in notes { currentLogger?.note(text, at: time) }
    }

    /// The current logger: the only sink that wants effects started, cancelled and finished.
    var currentLogger: LogSink? { logger.withLock { $0 } }

    /// The sinks attached now (a store's tracer holds this list until tracing is updated:
    /// no lock per event; a replaced logger drops what still reaches it).
    var sinks: [any DebugSink] {
        [recorder, fixed, currentLogger].compactMap { $0 }
    }
}
