import CinematicThreads
import Foundation
import MVIKit
import Testing
import CinematicTestSupport

/// Observers see each distinct state exactly once, in order.
@Suite("Store: observation")
struct StoreObservationTests {
    @Test func observerSeesEachDistinctStateOnceInOrder() {
        let store = makeScriptStore()
        let seen = Recorder<ScriptState>()
        let observation = store.observe { seen.append($0) }
        store.send(.set(1))
        store.send(.noop)          // no change: no notification
        store.send(.set(1))        // same state again: no notification
        store.send(.record("a"))
        store.send(.perform(.none))
        store.send(.set(2))
        #expect(seen.values == [
            ScriptState(value: 1),
            ScriptState(value: 1, log: ["a"]),
            ScriptState(value: 2, log: ["a"]),
        ])

        observation.cancel()
        observation.cancel()       // idempotent
        store.send(.set(3))
        #expect(seen.count == 3)
    }

    @Test func emitCurrentDeliversTheCurrentStateFirst() {
        let store = makeScriptStore(ScriptState(value: 4))
        let seen = Recorder<ScriptState>()
        let observation = store.observe(emitCurrent: true) { seen.append($0) }
        store.send(.increment)
        #expect(seen.values == [ScriptState(value: 4), ScriptState(value: 5)])
        observation.cancel()
    }

    @Test func statesChangedByEffectsAreObserved() async {
        let store = makeScriptStore()
        let seen = Recorder<Int>()
        let observation = store.observe { seen.append($0.value) }
        store.send(.perform(.run { send in
            await Task.yield()
            await send(.set(1))
            await send(.set(1))
            await send(.set(2))
        }))
        await store.settle(within: .seconds(5))
        #expect(seen.values == [1, 2])
        observation.cancel()
    }

    @Test func concurrentSendersAreObservedInOrderWithoutGapsOrDuplicates() async {
        let store = makeScriptStore()
        let seen = Recorder<Int>()
        let observation = store.observe { seen.append($0.value) }
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<2 {
                group.addTask { for _ in 0..<500 { store.send(.increment) } }
            }
        }
        #expect(seen.values == Array(1...1_000))
        observation.cancel()
    }

    @Test func closeEndsObservation() {
        let store = makeScriptStore()
        let seen = Recorder<Int>()
        let observation = store.observe { seen.append($0.value) }
        store.close()
        store.send(.set(1))
        #expect(seen.values.isEmpty)
        observation.cancel()
    }

    /// Consumes `store.states` on its own task, so a stream that never yields fails the test
    /// (bounded wait) instead of hanging it.
    struct StatesConsumer {
        let received = Recorder<ScriptState>()
        let finished = Flag()
        let task: Task<Void, Never>

        init(_ store: ScriptStore) {
            let states = store.states
            task = Task { [received, finished] in
                for await state in states { received.append(state) }
                finished.set()
            }
        }
    }

    @Test func statesStreamStartsWithTheCurrentStateAndFollows() async {
        let store = makeScriptStore()
        store.send(.set(1))
        let consumer = StatesConsumer(store)
        // The stream is registered as soon as `states` returns; the current state comes first.
        await waitUntil { consumer.received.count >= 1 }
        #expect(consumer.received.values == [ScriptState(value: 1)])

        store.send(.noop)
        store.send(.set(2))
        store.send(.record("x"))
        await waitUntil { consumer.received.count >= 3 }
        #expect(consumer.received.values == [ScriptState(value: 1), ScriptState(value: 2), ScriptState(value: 2, log: ["x"])])

        store.close()
        await waitUntil("the stream finished") { consumer.finished.isSet }
        #expect(consumer.received.count == 3)
    }

    @Test func statesStreamOfAClosedStoreFinishesAtOnce() async {
        let store = makeScriptStore()
        store.close()
        let consumer = StatesConsumer(store)
        await waitUntil("the stream finished") { consumer.finished.isSet }
        #expect(consumer.received.values.isEmpty)
    }

    @Test func cancellingTheConsumerEndsItsObservation() async {
        let store = makeScriptStore()
        let consumer = StatesConsumer(store)
        await waitUntil { consumer.received.count >= 1 }
        consumer.task.cancel()
        await waitUntil("the stream finished") { consumer.finished.isSet }
        store.send(.set(1))
        #expect(consumer.received.values == [ScriptState()])
    }

    /// Observers run with no lock held: one may read the state and send to its own store, and
    /// every observer still sees each state once, in order. (Called inside the lock, as in
    /// 0.1.0, the observer's `state` read would wait for the lock forever: the send runs on
    /// its own thread with a bounded wait, so that shows as a failure, not a hang.)
    @Test func anObserverMayCallBackIntoTheStore() {
        let store = makeScriptStore()
        let first = Recorder<Int>(), second = Recorder<Int>()
        let a = store.observe { state in
            first.append(store.state.value)
            if state.value < 3 { store.send(.increment) }
        }
        let b = store.observe { second.append($0.value) }
        let done = Latch()
        Thread.detachNewThread {
            store.send(.set(1))
            done.open()
        }
        #expect(done.wait(until: .after(milliseconds: 5_000)), "send from an observer deadlocked")
        #expect(first.values.sorted() == first.values && first.values.last == 3)
        #expect(second.values == [1, 2, 3])
        a.cancel()
        b.cancel()
    }
}

