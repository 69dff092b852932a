import Synchronization

/// Collects the states a replay's stores produce, with the intent that produced each.
final class ReplayCollector: DebugSink {
    /// One distinct state a store produced.
    struct Produced {
        let intent: JSONFragment?
        /// True for a host intent or time travel (an input), false for an effect's result.
        let isInput: Bool
        let state: JSONFragment
    }

    private let produced = Mutex<[UInt64: [Produced]]>([:])

    func receive(_ event: TracedEvent) {
        let entry: Produced
        switch event.kind {
        case let .reduced(_, values):
            guard values.changed else { return }
            let intent = values.intent()
            entry = Produced(intent: intent.json, isInput: intent.isHost, state: values.after())
        case let .reverted(_, values):
            entry = Produced(intent: nil, isInput: true, state: values.after())
        case .effect:
            return
        }
        produced.withLock { $0[event.store, default: []].append(entry) }
    }

    /// What the store with serial `store` produced, in order.
    func states(of store: UInt64) -> [Produced] { produced.withLock { $0[store] ?? [] } }
}
