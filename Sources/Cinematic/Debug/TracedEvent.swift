import MVIKit

/// One event of one store, as the runtime's debug sinks (the logger, the recorder, a replay)
/// see it. JSON is produced lazily, on the sink's own thread, so a sink that is off costs
/// nothing and one that is on costs the reducing thread only this value.
struct TracedEvent: Sendable {
    /// What happened.
    enum Kind: Sendable {
        /// An intent was reduced (``TraceValues/changed`` says whether the state changed).
        case reduced(sequence: UInt64, TraceValues)
        /// The state was set by time travel to the one after entry `sequence`.
        case reverted(sequence: UInt64, TraceValues)
        /// An effect started, was cancelled or finished.
        case effect(EffectEvent, effect: UInt64, id: String?)
    }

    /// The life of an effect.
    enum EffectEvent: String, Sendable {
        case started, cancelled, finished
    }

    /// The store's handle serial.
    let store: UInt64
    /// The store's feature name ("search").
    let feature: String
    /// Virtual time since the runtime opened (``RuntimeClock/elapsed``).
    let time: Duration
    let kind: Kind
}

/// The values of a traced event, encoded on demand: the intent (none for time travel) and
/// the states before and after.
protocol TraceValues: Sendable {
    /// False when the state after equals the state before (compared on the sink's thread).
    var changed: Bool { get }
    /// The intent as JSON (time travel: `{"type":"revert"}`).
    func intent() -> EncodedIntent
    func before() -> JSONFragment
    func after() -> JSONFragment
    /// The state members the change touched (compared member by member, nothing parsed).
    func changedMembers() -> [String]
}

/// Receives the events of every store of a runtime while it is attached to the runtime's
/// ``DebugHub``. Called on the thread that hands the store's states out, with no lock held:
/// it must only queue work (a sink never calls a host or does I/O there).
protocol DebugSink: Sendable {
    func receive(_ event: TracedEvent)
}
