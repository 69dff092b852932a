import MVIKit
import Synchronization

/// A runtime's debugging sinks: the recorder (config `record`, fixed at open), the logger
/// (`cinematic_runtime_set_logger` or `CINEMATIC_LOG`, replaceable) and, in a replay, the
/// collector. Stores are traced only while ``sinks`` is not empty, so with none a store
/// records nothing.
final class DebugHub: Sendable {
    let clock: SessionClock
    /// The session recorder, when the runtime records.
    let recorder: Recorder?
    /// A fixed sink of the runtime's own (a replay's collector).
    private let fixed: (any DebugSink)?
    private let logger = Mutex<LogSink?>(nil)

    init(clock: SessionClock, recorder: Recorder?, fixed: (any DebugSink)? = nil) {
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

    /// The current logger: the only sink that wants effects started, cancelled and finished.
    var currentLogger: LogSink? { logger.withLock { $0 } }

    /// The sinks attached now (a store's tracer holds this list until tracing is updated:
    /// no lock per event; a replaced logger drops what still reaches it).
    var sinks: [any DebugSink] {
        [recorder, fixed, currentLogger].compactMap { $0 }
    }
}
