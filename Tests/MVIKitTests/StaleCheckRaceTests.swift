import MVIKit
import Synchronization
import Testing
import CinematicTestSupport

/// MVIKit 1.0.0's bug, made deterministic. 1.0.0 checked that an effect was still current,
/// and only then (after a gap) reduced its intent, so a cancellation landing in the gap (a
/// keystroke while an answer was being delivered) let one stale intent through. A stress
/// test caught it by chance; this test lands the cancellation in the gap every time, through
/// the store's `willReceive` seam, and needs no second thread.
@Suite("Store: the stale check and the reduce are one step")
struct StaleCheckRaceTests {
    @Test func aCancellationLandingJustBeforeTheReduceDropsTheIntent() async {
        let storeSlot = Mutex<ScriptStore?>(nil)
        let cancelledInTheGap = Flag()
        // When the effect's answer arrives, the "user" cancels it first, on the same thread,
        // exactly between the arrival and the reduce.
        let store = ScriptStore(initialState: ScriptState(), reducer: ScriptReducer(), executor: nil, willReceive: {
            guard !cancelledInTheGap.isSet else { return }
            cancelledInTheGap.set()
            storeSlot.withLock { $0 }?.send(.perform(.cancel("search")))
        })
        storeSlot.withLock { $0 = store }

        store.send(.perform(.run(id: "search") { send in await send(.record("stale answer")) }))
        await store.settle(within: .seconds(5))

        #expect(cancelledInTheGap.isSet)
        #expect(store.state.log.isEmpty, "an intent from an effect cancelled before its reduce was reduced")
        storeSlot.withLock { $0 = nil }
    }

    @Test func withoutACancellationTheSameIntentIsReduced() async {
        let arrivals = Mutex(0)
        let store = ScriptStore(initialState: ScriptState(), reducer: ScriptReducer(), executor: nil,
                                willReceive: { arrivals.withLock { $0 += 1 } })
        store.send(.perform(.run(id: "search") { send in await send(.record("answer")) }))
        await store.settle(within: .seconds(5))
        #expect(store.state.log == ["answer"])
        #expect(arrivals.withLock { $0 } == 1)
    }
}
