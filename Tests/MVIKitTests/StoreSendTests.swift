import Dispatch
import MVIKit
import Testing
import CinematicTestSupport

/// `send` reduces synchronously; effects report back through `send`, and the store alone decides
/// (inside its lock) whether an effect is still current.
@Suite("Store: send, switch-latest, cancellation, stale intents")
struct StoreSendTests {
    @Test func sendReducesBeforeReturning() {
        let store = makeScriptStore()
        store.send(.set(5))
        #expect(store.state == ScriptState(value: 5))
        store.send(.increment)
        store.send(.record("a"))
        #expect(store.state == ScriptState(value: 6, log: ["a"]))
    }

    @Test func sendFromAPlainThreadReducesBeforeReturning() {
        let store = makeScriptStore()
        DispatchQueue(label: "host thread").sync { store.send(.set(7)) }
        #expect(store.state == ScriptState(value: 7))
    }

    @Test func effectSendReducesBeforeItReturns() async {
        let store = makeScriptStore()
        let seen = Slot<ScriptState>()
        store.send(.perform(.run { [store] send in
            await Task.yield()
            await send(.set(3))
            seen.store(store.state)
        }))
        await store.settle(within: .seconds(5))
        #expect(seen.value == ScriptState(value: 3))
    }

    @Test func runWithTheSameIdReplacesTheEffectAndDropsItsLaterSends() async {
        let store = makeScriptStore()
        let first = Gate()
        let second = Gate()
        let firstSawCancellation = Slot<Bool>()
        let firstDone = Flag()
        store.send(.perform(.run(id: "load") { send in
            await first.wait()
            firstSawCancellation.store(Task.isCancelled)
            await send(.record("first"))
            firstDone.set()
        }))
        store.send(.perform(.run(id: "load") { send in
            await second.wait()
            await send(.record("second"))
        }))

        second.open()
        await store.settle(within: .seconds(5))
        #expect(store.state == ScriptState(log: ["second"]))

        // The replaced effect ignores cancellation and answers late: its answer is dropped.
        first.open()
        await waitUntil("the replaced effect finished") { firstDone.isSet }
        #expect(firstSawCancellation.value == true)
        #expect(store.state == ScriptState(log: ["second"]))
    }

    @Test func cancelDropsLaterSends() async {
        let store = makeScriptStore()
        let gate = Gate()
        let done = Flag()
        let sawCancellation = Slot<Bool>()
        store.send(.perform(.run(id: "load") { send in
            await gate.wait()
            sawCancellation.store(Task.isCancelled)
            await send(.record("late"))
            done.set()
        }))
        #expect(store.hasPendingEffects)

        store.send(.perform(.cancel("load")))
        #expect(!store.hasPendingEffects)

        gate.open()
        await waitUntil("the cancelled effect finished") { done.isSet }
        #expect(sawCancellation.value == true)
        #expect(store.state == ScriptState())
    }

    @Test func cancellingAnUnknownIdChangesNothing() async {
        let store = makeScriptStore()
        let gate = Gate()
        store.send(.perform(.run(id: "a") { send in
            await gate.wait()
            await send(.record("a"))
        }))
        store.send(.perform(.cancel("b")))
        #expect(store.hasPendingEffects)
        gate.open()
        await store.settle(within: .seconds(5))
        #expect(store.state == ScriptState(log: ["a"]))
    }

    @Test func effectsWithoutIdOrWithDifferentIdsRunSideBySide() async {
        let store = makeScriptStore()
        let gate = Gate()
        for name in ["x", "y"] {
            store.send(.perform(.run { send in
                await gate.wait()
                await send(.record(name))
            }))
        }
        store.send(.perform(.run(id: "z") { send in
            await gate.wait()
            await send(.record("z"))
        }))
        gate.open()
        await store.settle(within: .seconds(5))
        #expect(store.state.log.sorted() == ["x", "y", "z"])
    }

    /// The effect passes its own cancellation check, is replaced, then sends: only a check made
    /// by the store itself can drop that intent.
    @Test func replacedWhileAboutToSendCannotChangeState() async {
        let store = makeScriptStore()
        let gate = Gate()
        let passedOwnCheck = Flag()
        let done = Flag()
        store.send(.perform(.run(id: "load") { send in
            guard !Task.isCancelled else { return }
            passedOwnCheck.set()
            await gate.wait()   // the window between "I am current" and the hop into the store
            await send(.record("stale"))
            done.set()
        }))
        #expect(passedOwnCheck.isSet)

        store.send(.perform(.run(id: "load") { send in await send(.record("fresh")) }))
        gate.open()
        await waitUntil("the replaced effect sent its answer") { done.isSet }
        #expect(store.state == ScriptState(log: ["fresh"]))
    }

    /// A host answering on its own thread or task holds the effect's `send`. Its task was never
    /// cancelled, so `Task.isCancelled` cannot help: the store must recognise the stale sender.
    @Test func staleSendFromAnUncancelledTaskIsDropped() async throws {
        let store = makeScriptStore()
        let handedOut = Slot<Send<ScriptIntent>>()
        let hold = Gate()
        store.send(.perform(.run(id: "request") { send in
            handedOut.store(send)
            await hold.wait()
        }))
        let staleSend = try #require(handedOut.value)

        store.send(.perform(.run(id: "request") { send in handedOut.store(send); await hold.wait() }))
        let currentSend = try #require(handedOut.value)

        await staleSend(.record("stale"))                    // on the test's own, uncancelled task
        DispatchQueue(label: "host").sync { _ = Task.immediate { await staleSend(.set(99)) } }
        #expect(store.state == ScriptState())

        await currentSend(.record("current"))
        #expect(store.state == ScriptState(log: ["current"]))
        hold.open()
        await store.settle(within: .seconds(5))
    }

    /// Races replacements against answers on both cores. The reducer counts any answer whose
    /// generation is no longer current; the store must keep that count at zero. (Probabilistic
    /// in what it can catch, deterministic in what it asserts: a correct store never fails it.)
    @Test func staleAnswersNeverReachTheReducerUnderContention() async {
        let store = Store(initialState: GenerationState(), reducer: GenerationReducer())
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<2 {
                group.addTask {
                    for _ in 0..<3_000 {
                        store.send(.start)
                        await Task.yield()   // let answers run between replacements
                    }
                }
            }
        }
        await store.settle(within: .seconds(10))
        #expect(store.state.staleAnswers == 0)
        #expect(store.state.answered > 0)
    }
}

struct GenerationState: Equatable, Sendable {
    var generation = 0
    var answered = 0
    var staleAnswers = 0
}

enum GenerationIntent: Sendable {
    case start
    case answer(generation: Int)
}

/// Each `start` replaces the request; its answer names the generation that asked.
struct GenerationReducer: Reducer {
    func reduce(_ state: inout GenerationState, _ intent: GenerationIntent) -> Effect<GenerationIntent> {
        switch intent {
        case .start:
            state.generation += 1
            let generation = state.generation
            return .run(id: "request") { send in
                await Task.yield()
                await send(.answer(generation: generation))
            }
        case let .answer(generation):
            if generation == state.generation { state.answered += 1 } else { state.staleAnswers += 1 }
            return .none
        }
    }
}
