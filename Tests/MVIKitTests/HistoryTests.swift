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

/// History numbering, time travel by number, and the store's trace.
@Suite("Store: history numbers and tracing")
struct TraceTests {
    @Test func tenThousandIntentsKeepTheLastEntriesNumberedInOrder() {
        let store = makeScriptStore(historyCapacity: 100)
        for value in 1...10_000 { store.send(.set(value)) }
        let history = store.history
        #expect(history.count == 100)
        #expect(history.map(\.sequence) == Array(9_901...10_000))
        #expect(history.map(\.after.value) == Array(9_901...10_000))
    }

    @Test func revertToASequenceNumberNotifiesAndKeepsTheHistory() {
        let store = makeScriptStore(historyCapacity: 3)
        for value in 1...5 { store.send(.set(value)) }
        let seen = Recorder<ScriptState>()
        let observation = store.observe { seen.append($0) }
        #expect(store.revert(toSequence: 2) == false)   // dropped out of the ring
        #expect(store.revert(toSequence: 6) == false)   // not reduced yet
        #expect(seen.values.isEmpty)
        #expect(store.revert(toSequence: 4))
        #expect(store.state == ScriptState(value: 4))
        #expect(seen.values == [ScriptState(value: 4)])
        #expect(store.history.map(\.sequence) == [3, 4, 5])
        store.send(.increment)
        #expect(store.history.map(\.sequence) == [4, 5, 6])
        #expect(store.state == ScriptState(value: 5))
        observation.cancel()
    }

    @Test func aTracerSeesReducesRevertsAndEffectsInOrder() async {
        let store = makeScriptStore(historyCapacity: 10)
        let events = Recorder<String>()
        store.trace { event in
            switch event {
            case let .reduced(sequence, intent, before, after):
                events.append("reduced \(sequence) \(Self.name(of: intent)) \(before.value)→\(after.value)")
            case let .reverted(sequence, before, after):
                events.append("reverted \(sequence) \(before.value)→\(after.value)")
            case let .effectStarted(_, id): events.append("started \(id?.name ?? "-")")
            case let .effectCancelled(_, id): events.append("cancelled \(id?.name ?? "-")")
            case let .effectFinished(_, id): events.append("finished \(id?.name ?? "-")")
            }
        }
        let gate = Gate()
        store.send(.set(1))
        store.send(.perform(.run(id: "slow") { _ in await gate.wait() }))
        store.send(.perform(.run(id: "slow") { send in await send(.increment) }))
        await store.settle()
        #expect(store.revert(toSequence: 1))
        gate.open()
        let expected = [
            "reduced 1 set(1) 0→1",
            "reduced 2 perform 1→1", "started slow",
            "reduced 3 perform 1→1", "cancelled slow", "started slow",
            "reduced 4 increment 1→2", "finished slow",
            "reverted 1 2→1",
        ]
        #expect(events.values == expected)

        store.trace(nil)
        store.send(.set(9))
        #expect(events.values.count == expected.count)   // no tracer: nothing traced
    }

    private static func name(of intent: ScriptIntent) -> String {
        switch intent {
        case let .set(value): "set(\(value))"
        case .increment: "increment"
        case .record: "record"
        case .noop: "noop"
        case .perform: "perform"
        }
    }
}
