import MVIKit
import Testing
import CinematicTestSupport

/// The test hooks: `settle()`, `hasPendingEffects` and `whenSettled`.
@Suite("Store: settle, hasPendingEffects, whenSettled")
struct StoreSettleTests {
    /// An effect that, after a real suspension, sends `then`.
    static func after(_ then: ScriptIntent) -> Effect<ScriptIntent> {
        .run { send in
            try? await Task.sleep(for: .milliseconds(2))
            await send(then)
        }
    }

    @Test func settleWaitsForChainedEffects() async {
        let store = makeScriptStore()
        // Each effect sends an intent that starts the next effect.
        store.send(.perform(Self.after(.perform(Self.after(.perform(Self.after(.record("done"))))))))
        #expect(store.hasPendingEffects)
        await store.settle()
        #expect(store.state == ScriptState(log: ["done"]))
        #expect(!store.hasPendingEffects)
    }

    @Test func settleReturnsAtOnceWhenIdle() async {
        let store = makeScriptStore()
        await store.settle()
        #expect(!store.hasPendingEffects)
    }

    @Test func hasPendingEffectsFollowsTheEffects() async {
        let store = makeScriptStore()
        #expect(!store.hasPendingEffects)
        store.send(.set(1))
        #expect(!store.hasPendingEffects)

        let gate = Gate()
        store.send(.perform(.run { send in
            await gate.wait()
            await send(.record("done"))
        }))
        #expect(store.hasPendingEffects)
        gate.open()
        await store.settle()
        #expect(!store.hasPendingEffects)
        #expect(store.state == ScriptState(value: 1, log: ["done"]))
    }

    @Test func anEffectThatFinishesSynchronouslyLeavesNothingPending() {
        let store = makeScriptStore()
        store.send(.perform(.run { send in await send(.record("sync")) }))
        #expect(store.state == ScriptState(log: ["sync"]))
        #expect(!store.hasPendingEffects)
    }

    @Test func whenSettledRunsAtOnceWhenIdle() {
        let store = makeScriptStore()
        let ran = Flag()
        store.whenSettled { ran.set() }
        #expect(ran.isSet)
    }

    @Test func whenSettledRunsOnceTheLastEffectFinishes() async {
        let store = makeScriptStore()
        let gate = Gate()
        store.send(.perform(.run { send in
            await gate.wait()
            await send(.record("done"))
        }))
        let ran = Flag()
        let stateWhenRun = Slot<ScriptState>()
        store.whenSettled { [store] in
            stateWhenRun.store(store.state)
            ran.set()
        }
        #expect(!ran.isSet)
        gate.open()
        await waitUntil { ran.isSet }
        #expect(stateWhenRun.value == ScriptState(log: ["done"]))
    }

    @Test func cancelledWhenSettledWaiterNeverRuns() async {
        let store = makeScriptStore()
        let gate = Gate()
        store.send(.perform(.run { _ in await gate.wait() }))
        let ran = Flag()
        let waiter = store.whenSettled { ran.set() }
        waiter.cancel()
        gate.open()
        await store.settle()
        #expect(!ran.isSet)
    }

    @Test func whenSettledRunsWhenTheLastEffectIsCancelled() {
        let store = makeScriptStore()
        let gate = Gate()
        store.send(.perform(.run(id: "a") { _ in await gate.wait() }))
        let ran = Flag()
        store.whenSettled { ran.set() }
        #expect(!ran.isSet)
        store.send(.perform(.cancel("a")))
        #expect(ran.isSet)
        gate.open()
    }

    @Test func closeReleasesSettleWaiters() {
        let store = makeScriptStore()
        let gate = Gate()
        store.send(.perform(.run { _ in await gate.wait() }))
        let ran = Flag()
        store.whenSettled { ran.set() }
        #expect(!ran.isSet)
        store.close()
        #expect(ran.isSet)
        gate.open()
    }
}
