/// What happens inside a store, step by step, for debugging tools (a logger, a recorder).
///
/// A store with a tracer (``Store/trace(_:)``) hands it every event in the order the events
/// happened, with no lock held, one at a time. A store without one records nothing.
///
/// ```swift
/// store.trace { event in
///     if case let .reduced(sequence, intent, _, after) = event { print(sequence, intent, after) }
/// }
/// ```
public enum StoreTrace<State: Sendable, Intent: Sendable>: Sendable {
    /// An intent was reduced: its number (see ``HistoryEntry/sequence``), the states around it.
    case reduced(sequence: UInt64, intent: Intent, before: State, after: State)
    /// The state was set by time travel (``Store/revert(toSequence:)``) from `before` to the
    /// state after entry `sequence`.
    case reverted(sequence: UInt64, before: State, after: State)
    /// An effect started. `effect` numbers it within the store; `id` is its cancellation id.
    case effectStarted(effect: UInt64, id: EffectID?)
    /// An effect was cancelled (replaced by a `.run` with its id, or by `.cancel`).
    case effectCancelled(effect: UInt64, id: EffectID?)
    /// An effect's operation returned.
    case effectFinished(effect: UInt64, id: EffectID?)
}
