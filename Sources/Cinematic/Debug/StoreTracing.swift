import MVIKit

extension TracedEvent {
    /// The debug sinks' view of a typed store event: `codec` encodes on demand (a codec of its
    /// own, so the store's delivery caches are not disturbed).
    static func from<Codec: FeatureCodec>(_ event: StoreTrace<Codec.Reducer.State, Codec.Reducer.Intent>, codec: Codec,
                                         store: UInt64, time: Duration) -> TracedEvent {
        let kind: Kind
        switch event {
        case let .reduced(sequence, intent, before, after):
            kind = .reduced(sequence: sequence, TypedTraceValues(codec: codec, intent: intent, before: before, after: after))
        case let .reverted(sequence, before, after):
            kind = .reverted(sequence: sequence, TypedTraceValues(codec: codec, intent: nil, before: before, after: after))
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

/// A store event's typed values and the codec that encodes them: one allocation per event.
final class TypedTraceValues<Codec: FeatureCodec>: TraceValues {
    private let codec: Codec
    private let intentValue: Codec.Reducer.Intent?
    private let beforeValue: Codec.Reducer.State
    private let afterValue: Codec.Reducer.State

    init(codec: Codec, intent: Codec.Reducer.Intent?, before: Codec.Reducer.State, after: Codec.Reducer.State) {
        self.codec = codec
        self.intentValue = intent
        self.beforeValue = before
        self.afterValue = after
    }

    var changed: Bool { beforeValue != afterValue }

    func intent() -> EncodedIntent { intentValue.map(Codec.encodeIntent) ?? .revert }
    func before() -> JSONFragment { codec.encodeState(beforeValue) }
    func after() -> JSONFragment { codec.encodeState(afterValue) }
    func changedMembers() -> [String] { JSONDiff.changedKeys(codec.stateMembers(beforeValue), codec.stateMembers(afterValue)) }
}
