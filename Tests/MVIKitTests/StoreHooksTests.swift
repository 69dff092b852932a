import MVIKit
import Testing
import CinematicTestSupport

/// `pendingEffectCount` and the `didReduce` delivery hook.
@Suite("Store: pendingEffectCount and didReduce")
struct StoreHooksTests {
    @Test func pendingEffectCountCountsEffectsThatCanStillSend() async {
        let store = makeScriptStore()
        let gate = Gate()
        #expect(store.pendingEffectCount == 0)
        store.send(.perform(.run(id: "a") { _ in await gate.wait() }))
        store.send(.perform(.run { _ in await gate.wait() }))
        #expect(store.pendingEffectCount == 2)
        store.send(.perform(.run(id: "a") { _ in await gate.wait() }))   // replaces, does not add
        #expect(store.pendingEffectCount == 2)
        store.send(.perform(.cancel("a")))
        #expect(store.pendingEffectCount == 1)
        gate.open()
        await store.settle(within: .seconds(5))
        #expect(store.pendingEffectCount == 0)
    }

    @Test func didReduceRunsAfterEveryReduceOutsideTheLock() async {
        let storeSlot = Slot<ScriptStore>()
        let seen = Recorder<ScriptState>()
        let store = Store(initialState: ScriptState(), reducer: ScriptReducer()) {
            // Calling back into the store is allowed here.
            if let store = storeSlot.value { seen.append(store.state) }
        }
        storeSlot.store(store)
        store.send(.set(1))
        store.send(.noop)                       // reduced, even though nothing changed
        store.send(.perform(.run { send in
            await Task.yield()
            await send(.set(2))
        }))
        await store.settle(within: .seconds(5))
        #expect(seen.values == [ScriptState(value: 1), ScriptState(value: 1), ScriptState(value: 1), ScriptState(value: 2)])
        storeSlot.clear()                       // the hook captured the store through the slot
    }

    @Test func didReduceDoesNotRunForDroppedOrIgnoredIntents() async throws {
        let calls = Recorder<Int>()
        let store = Store(initialState: ScriptState(), reducer: ScriptReducer()) { calls.append(1) }
        let handedOut = Slot<Send<ScriptIntent>>()
        let gate = Gate()
        store.send(.perform(.run(id: "r") { send in handedOut.store(send); await gate.wait() }))
        let staleSend = try #require(handedOut.value)
        store.send(.perform(.cancel("r")))
        #expect(calls.count == 2)

        await staleSend(.set(5))                // dropped: no reduce, no hook
        #expect(calls.count == 2)
        store.close()
        store.send(.set(6))                     // ignored after close
        #expect(calls.count == 2)
        #expect(store.state == ScriptState())
        gate.open()
    }
}
