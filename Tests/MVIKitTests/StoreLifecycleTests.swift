import MVIKit
import Testing
import CinematicTestSupport

/// `close()` and deinit stop every effect, long-lived streams included.
@Suite("Store: close and deinit")
struct StoreLifecycleTests {
    /// A stream whose termination (and why) the test can see, like a favorites observation.
    struct ObservedStream: Sendable {
        let stream: AsyncStream<Int>
        let continuation: AsyncStream<Int>.Continuation
        let termination = Slot<AsyncStream<Int>.Continuation.Termination>()

        init() {
            (stream, continuation) = AsyncStream.makeStream(of: Int.self)
            continuation.onTermination = { [termination] reason in termination.store(reason) }
        }

        /// An effect that forwards every element to the store and records, when the loop ends,
        /// whether its task was cancelled.
        func effect(endedCancelled: Slot<Bool>) -> Effect<ScriptIntent> {
            .run(id: "observe") { [stream] send in
                for await value in stream { await send(.set(value)) }
                endedCancelled.store(Task.isCancelled)
            }
        }

        var wasCancelled: Bool {
            if case .cancelled = termination.value { return true }
            return false
        }
    }

    @Test func closeCancelsALongLivedStreamAndIgnoresLaterSends() async {
        let store = makeScriptStore()
        let observed = ObservedStream()
        let endedCancelled = Slot<Bool>()
        store.send(.perform(observed.effect(endedCancelled: endedCancelled)))
        observed.continuation.yield(1)
        await waitUntil("the stream fed the store") { store.state.value == 1 }

        store.close()
        #expect(store.isClosed)
        #expect(!store.hasPendingEffects)
        await waitUntil("the stream saw cancellation") { observed.wasCancelled }
        await waitUntil("the effect's loop ended") { endedCancelled.value != nil }
        #expect(endedCancelled.value == true)

        observed.continuation.yield(2)
        store.send(.set(3))
        store.send(.record("after close"))
        #expect(store.state == ScriptState(value: 1))
    }

    @Test func closeCancelsEveryEffect() async {
        let clock = ManualClock()
        let store = makeScriptStore()
        let outcomes = Recorder<String>()
        for id in ["a", "b"] as [EffectID] {
            store.send(.perform(.run(id: id) { _ in
                do { try await clock.sleep(for: .seconds(1)); outcomes.append("\(id) woke") }
                catch { outcomes.append("\(id) \(error is CancellationError ? "cancelled" : "failed")") }
            }))
        }
        store.send(.perform(.run { _ in
            do { try await clock.sleep(for: .seconds(1)); outcomes.append("anonymous woke") }
            catch { outcomes.append("anonymous \(error is CancellationError ? "cancelled" : "failed")") }
        }))
        #expect(clock.sleeperCount == 3)

        store.close()
        // Cancelling a sleeper removes it from the manual clock synchronously.
        #expect(clock.sleeperCount == 0)
        await waitUntil("every effect ended") { outcomes.count == 3 }
        #expect(outcomes.values.sorted() == ["a cancelled", "anonymous cancelled", "b cancelled"])
    }

    @Test func aLateSendFromAnEffectAfterCloseIsIgnored() async {
        let store = makeScriptStore()
        let gate = Gate()
        let done = Flag()
        store.send(.perform(.run { send in
            await gate.wait()
            await send(.record("late"))
            done.set()
        }))
        store.close()
        gate.open()
        await waitUntil { done.isSet }
        #expect(store.state == ScriptState())
    }

    @Test func closeIsIdempotentAndSettleReturnsAfterIt() async {
        let store = makeScriptStore()
        let gate = Gate()
        store.send(.perform(.run { _ in await gate.wait() }))   // ignores cancellation
        store.close()
        store.close()
        await store.settle(within: .seconds(5))   // closing forgot every effect: nothing to wait for
        #expect(!store.hasPendingEffects)
        #expect(store.isClosed)
        gate.open()
    }

    @Test func deinitCancelsEffectsIncludingStreams() async {
        let clock = ManualClock()
        let observed = ObservedStream()
        let endedCancelled = Slot<Bool>()
        weak var released: ScriptStore?
        do {
            let store = makeScriptStore()
            released = store
            store.send(.perform(observed.effect(endedCancelled: endedCancelled)))
            store.send(.perform(.run { _ in try? await clock.sleep(for: .seconds(1)) }))
            #expect(clock.sleeperCount == 1)
        }
        // Effects do not keep their store alive.
        #expect(released == nil)
        #expect(clock.sleeperCount == 0)
        await waitUntil("the stream saw cancellation") { observed.wasCancelled }
        await waitUntil("the effect's loop ended") { endedCancelled.value != nil }
        #expect(endedCancelled.value == true)
    }
}
