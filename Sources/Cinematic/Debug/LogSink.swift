import MVIKit
#if canImport(Glibc)
import Glibc
#endif

/// A host's log callback and its userdata.
struct LogCallback: @unchecked Sendable {
    typealias Function = @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?) -> Void
    let function: Function
    let userdata: UnsafeMutableRawPointer?
}

/// The readable log: one line per intent (with the state fields it changed), per time-travel
/// step and per effect started, cancelled and finished, each naming its store
/// (`search#2`). Lines are made and handed to the host through the runtime's delivery queue,
/// like states: never on an effect's thread, never under a lock, one at a time.
///
/// ```text
/// [250 ms] search#2 intent searchNow {"type":"searchNow"} changed: results
/// [250 ms] search#2 effect started "search" (#7)
/// ```
final class LogSink: DebugSink {
    /// Where lines go.
    enum Destination: Sendable {
        case host(LogCallback)
        /// Standard error, one line each (`CINEMATIC_LOG=stderr`).
        case standardError
    }

    /// The delivery-queue key of log lines.
    static let queueKey: UInt64 = .max
    /// Intents longer than this are cut in the log (the history and recordings keep them whole).
    static let maximumIntentCharacters = 200

    let destination: Destination
    private let queue: DeliveryQueue
    private let isCurrent: @Sendable (LogSink) -> Bool

    /// `isCurrent` tells whether this sink is still the runtime's logger when a line is due
    /// (a replaced logger is never called again).
    init(destination: Destination, queue: DeliveryQueue, isCurrent: @escaping @Sendable (LogSink) -> Bool) {
        self.destination = destination
        self.queue = queue
        self.isCurrent = isCurrent
    }

    func receive(_ event: TracedEvent) {
        queue.enqueue(DeliveryQueue.Event(store: Self.queueKey) { [self] in
            guard isCurrent(self) else { return false }
            emit(Self.line(for: event))
            return true
        })
        queue.deliverSoon()
    }

    /// Logs a line about the runtime itself (`[t ms] runtime recording stopped: …`), in
    /// order with the stores' lines.
    func note(_ text: String, at time: Duration) {
        let line = "[\(RuntimeClock.milliseconds(time).text) ms] runtime \(text)"
        queue.enqueue(DeliveryQueue.Event(store: Self.queueKey) { [self] in
            guard isCurrent(self) else { return false }
            emit(line)
            return true
        })
        queue.deliverSoon()
    }

    private func emit(_ line: String) {
        switch destination {
        case let .host(callback):
            line.withCString { callback.function(callback.userdata, $0) }
        case .standardError:
            // Never a blocking write here (a host's thread in immediate delivery): the
            // library's stderr thread writes it, or drops it when stderr does not drain.
            StandardErrorWriter.shared.write(line)
        }
    }

    /// `CINEMATIC_LOG=stderr` in the environment: every runtime logs to standard error.
    /// Unset or empty: no log. Any other value is reported once per process, on the first
    /// runtime opened, with one line on standard error (``unknownValueWarning``), and ignored.
    static func destinationFromEnvironment() -> Destination? {
        guard let raw = getenv("CINEMATIC_LOG") else { return nil }
        let value = String(cString: raw)
        if value == "stderr" { return .standardError }
        if !value.isEmpty { _ = reportedUnknownValue }
        return nil
    }

    /// The line an unknown `CINEMATIC_LOG` value gets (no newline).
    static func unknownValueWarning(_ value: String) -> String {
        // Shown without control characters (a terminal reads stderr), and at most 40 of them.
        let printable = String(String.UnicodeScalarView(value.unicodeScalars.map {
            $0.value < 0x20 || (0x7F...0x9F).contains($0.value) ? "?" : $0
        }))
        let shown = printable.count > 40 ? String(printable.prefix(40)) + "…" : printable
        return "cinematic: CINEMATIC_LOG=\"\(shown)\" is not understood (the only value is \"stderr\"); not logging"
    }

    /// Writes ``unknownValueWarning(_:)`` once per process (a static's initializer runs once).
    private static let reportedUnknownValue: Void = {
        if let raw = getenv("CINEMATIC_LOG") {
            StandardErrorWriter.shared.write(unknownValueWarning(String(cString: raw)))
        }
    }()

    /// The text of one event (no newline).
    static func line(for event: TracedEvent) -> String {
        let prefix = "[\(RuntimeClock.milliseconds(event.time).text) ms] \(event.feature)#\(event.store)"
        switch event.kind {
        case let .reduced(sequence, values):
            let encoded = values.intent()
            let fields = values.changed ? values.changedMembers() : []
            return "\(prefix) intent #\(sequence) \(encoded.type) \(abbreviated(encoded.json.text)) \(describe(fields))"
        case let .reverted(sequence, values):
            return "\(prefix) revert to #\(sequence) \(describe(values.changedMembers()))"
        case let .effect(what, effect, id):
            let name = id.map { "\"\($0)\"" } ?? "(anonymous)"
            return "\(prefix) effect \(what.rawValue) \(name) (#\(effect))"
        }
    }

    private static func describe(_ fields: [String]) -> String {
        fields.isEmpty ? "no change" : "changed: " + fields.joined(separator: ", ")
    }

    private static func abbreviated(_ text: String) -> String {
        guard text.count > maximumIntentCharacters else { return text }
        return String(text.prefix(maximumIntentCharacters)) + "…"
    }
}
