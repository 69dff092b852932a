import MVIKit

extension TracedEvent {
    /// The debug sinks' view of a typed store event: `codec` encodes lazily (a codec of its
    /// own, so the store's delivery caches are not disturbed).
    static func from<Codec: FeatureCodec>(_ event: StoreTrace<Codec.Reducer.State, Codec.Reducer.Intent>, codec: Codec,
                                         store: UInt64, time: Duration) -> TracedEvent {
        let kind: Kind
        switch event {
        case let .reduced(sequence, intent, before, after):
            kind = .reduced(sequence: sequence, intent: { Codec.encodeIntent(intent) },
                            before: { codec.encodeState(before) }, after: { codec.encodeState(after) }, changed: before != after)
        case let .reverted(sequence, before, after):
            kind = .reverted(sequence: sequence, before: { codec.encodeState(before) }, state: { codec.encodeState(after) })
        case let .effectStarted(effect, id):
            kind = .effect(.started, effect: effect, id: id?.name)
        case let .effectCancelled(effect, id):
            kind = .effect(.cancelled, effect: effect, id: id?.name)
        case let .effectFinished(effect, id):
            kind = .effect(.finished, effect: effect, id: id?.name)
        }
        return TracedEvent(store: store, feature: Codec.name, time: time, kind: kind)
    }
}
