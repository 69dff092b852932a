import MVIKit
import Testing
import CinematicTestSupport

/// The bounded debug history and time travel.
@Suite("Store: debug history")
struct HistoryTests {
    @Test func historyIsOffByDefault() {
        let store = makeScriptStore()
        store.send(.set(1))
        store.send(.set(2))
        #expect(store.history.isEmpty)
        #expect(store.revert(to: 0) == false)
        #expect(store.state == ScriptState(value: 2))
    }

    @Test func historyRecordsEachReducedIntentWithBeforeAndAfter() {
        let store = makeScriptStore(historyCapacity: 10)
        store.send(.set(1))
        store.send(.noop)
        store.send(.record("a"))
        let history = store.history
        #expect(history.map(\.before) == [ScriptState(), ScriptState(value: 1), ScriptState(value: 1)])
        #expect(history.map(\.after) == [ScriptState(value: 1), ScriptState(value: 1), ScriptState(value: 1, log: ["a"])])
        guard case .set(1) = history[0].intent, case .noop = history[1].intent, case .record("a") = history[2].intent else {
            Issue.record("unexpected intents: \(history.map(\.intent))")
            return
        }
    }

    @Test func aFullRingDropsTheOldestEntries() {
        let store = makeScriptStore(historyCapacity: 3)
        for value in 1...5 { store.send(.set(value)) }
        #expect(store.history.map(\.after.value) == [3, 4, 5])
        #expect(store.history.map(\.before.value) == [2, 3, 4])
        store.send(.set(6))
        #expect(store.history.map(\.after.value) == [4, 5, 6])
    }

    @Test func aRingOfOneKeepsTheLatestEntry() {
        let store = makeScriptStore(historyCapacity: 1)
        for value in 1...3 { store.send(.set(value)) }
        #expect(store.history.map(\.after.value) == [3])
    }

    @Test func revertRestoresAStateAndNotifiesObservers() {
        let store = makeScriptStore(historyCapacity: 5)
        for value in 1...4 { store.send(.set(value)) }
        let seen = Recorder<ScriptState>()
        let observation = store.observe { seen.append($0) }

        #expect(store.revert(to: 1))
        #expect(store.state == ScriptState(value: 2))
        #expect(seen.values == [ScriptState(value: 2)])

        // The loop carries on from the restored state.
        store.send(.increment)
        #expect(store.state == ScriptState(value: 3))
        observation.cancel()
    }

    @Test func revertOutOfRangeReturnsFalseAndChangesNothing() {
        let store = makeScriptStore(historyCapacity: 2)
        store.send(.set(1))
        store.send(.set(2))
        let seen = Recorder<ScriptState>()
        let observation = store.observe { seen.append($0) }
        #expect(store.revert(to: -1) == false)
        #expect(store.revert(to: 2) == false)
        #expect(store.revert(to: 100) == false)
        #expect(store.state == ScriptState(value: 2))
        #expect(seen.values.isEmpty)
        observation.cancel()
    }
}
