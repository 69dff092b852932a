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
        case let .reduced(_, changed, values):
            guard changed else { return }
            entry = Produced(intent: values.intent().json, state: values.after())
        case let .reverted(_, values):
            entry = Produced(intent: nil, state: values.after())
        case .effect:
            return
        }
        produced.withLock { $0[event.store, default: []].append(entry) }
    }

    /// What the store with serial `store` produced, in order.
    func states(of store: UInt64) -> [Produced] { produced.withLock { $0[store] ?? [] } }
}
