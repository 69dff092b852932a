import Synchronization

/// Collects the states a replay's stores produce, with the intent that produced each.
final class ReplayCollector: DebugSink {
    /// One distinct state a store produced.
    struct Produced {
        let intent: JSONFragment?
        let state: JSONFragment
    }

    private let produced = Mutex<[UInt64: [Produced]]>([:])

    func receive(_ event: TracedEvent) {
        let entry: Produced
        switch event.kind {
        case let .reduced(_, intent, _, after, changed):
            guard changed else { return }
            entry = Produced(intent: intent().json, state: after())
        case let .reverted(_, _, state):
            entry = Produced(intent: nil, state: state())
        case .effect:
            return
        }
        produced.withLock { $0[event.store, default: []].append(entry) }
    }

    /// What the store with serial `store` produced, in order.
    func states(of store: UInt64) -> [Produced] { produced.withLock { $0[store] ?? [] } }
}
