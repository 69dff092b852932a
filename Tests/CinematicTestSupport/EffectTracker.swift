import MVIKit
import Synchronization

/// Counts the effects a store is still running, including effects the store has already
/// replaced or cancelled but whose tasks, ignoring cancellation, carry on.
///
/// `Store.settle()` waits only for effects that can still send; a test of a stale answer
/// must also know that the replaced effect has finished offering its answer to the store.
/// ``TrackedReducer`` attaches a ``Lifetime`` to every effect its base reducer returns (via
/// `Effect.map` with the identity, which keeps ids and semantics). The lifetime ends when the
/// effect's task has run to completion, after its last `send`.
public final class EffectTracker: Sendable {
    /// Creates a tracker with no live effects.
    public init() {}

    private let live = Mutex(0)

    /// Effects whose tasks have not finished (or effect values not yet discarded).
    public var liveEffects: Int { live.withLock { $0 } }

    final class Lifetime: Sendable {
        private let tracker: EffectTracker

        init(_ tracker: EffectTracker) {
            self.tracker = tracker
            tracker.live.withLock { $0 += 1 }
        }

        deinit { tracker.live.withLock { $0 -= 1 } }
    }
}

/// Runs `base` unchanged, tracking the lifetime of each effect it returns.
public struct TrackedReducer<Base: Reducer>: Reducer {
    let base: Base
    let tracker: EffectTracker

    /// Wraps `base`, reporting its effects' lifetimes to `tracker`.
    public init(base: Base, tracker: EffectTracker) {
        self.base = base
        self.tracker = tracker
    }

    public func reduce(_ state: inout Base.State, _ intent: Base.Intent) -> Effect<Base.Intent> {
        let lifetime = EffectTracker.Lifetime(tracker)
        return base.reduce(&state, intent).map { intent in
            withExtendedLifetime(lifetime) { intent }
        }
    }
}
