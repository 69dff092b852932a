import MVIKit
import Testing
import CinematicTestSupport

/// `Effect` values: `none`, `merge` and `map`.
@Suite("Effect: none, merge, map")
struct EffectTests {
    @Test func noneAndEmptyMergesDescribeNoWork() {
        #expect(Effect<ScriptIntent>.none.isNone)
        #expect(Effect<ScriptIntent>.merge().isNone)
        #expect(Effect<ScriptIntent>.merge(.none, .none).isNone)
        #expect(Effect<ScriptIntent>.merge([]).isNone)
        #expect(!Effect<ScriptIntent>.run { _ in }.isNone)
        #expect(!Effect<ScriptIntent>.cancel("a").isNone)
        #expect(!Effect<ScriptIntent>.merge(.none, .cancel("a")).isNone)
    }

    @Test func mergeRunsEveryEffectInOrder() {
        let store = makeScriptStore()
        store.send(.perform(.merge(
            .run { send in await send(.record("a")) },
            .none,
            .merge([.run { send in await send(.record("b")) }, .run { send in await send(.record("c")) }])
        )))
        // Each effect sent synchronously while starting, so the order is the merge's order.
        #expect(store.state == ScriptState(log: ["a", "b", "c"]))
    }

    @Test func inAMergeALaterRunWithTheSameIdReplacesAnEarlierOne() {
        let store = makeScriptStore()
        store.send(.perform(.merge(
            .run(id: "x") { send in await send(.record("first")) },
            .run(id: "x") { send in await send(.record("second")) }
        )))
        #expect(store.state == ScriptState(log: ["second"]))
    }

    @Test func inAMergeCancellationsApplyInOrder() async {
        let store = makeScriptStore()
        let gate = Gate()
        // Run, then cancel: the run is cancelled.
        store.send(.perform(.merge(
            .run(id: "x") { send in await gate.wait(); await send(.record("cancelled")) },
            .cancel("x")
        )))
        #expect(!store.hasPendingEffects)
        // Cancel, then run: the run survives.
        store.send(.perform(.merge(
            .cancel("y"),
            .run(id: "y") { send in await gate.wait(); await send(.record("kept")) }
        )))
        #expect(store.hasPendingEffects)
        gate.open()
        await store.settle(within: .seconds(5))
        #expect(store.state == ScriptState(log: ["kept"]))
    }

    @Test func mapTransformsEverySentIntent() async {
        let store = makeScriptStore()
        let child = Effect<String>.merge(
            .run { send in await send("a") },
            .run { send in
                await Task.yield()
                await send("b")
            }
        )
        store.send(.perform(child.map { ScriptIntent.record($0.uppercased()) }))
        await store.settle(within: .seconds(5))
        #expect(store.state.log.sorted() == ["A", "B"])
    }

    @Test func mapKeepsTheEffectIdSoCancellationStillApplies() async {
        let store = makeScriptStore()
        let gate = Gate()
        let done = Flag()
        let child = Effect<String>.run(id: "child") { send in
            await gate.wait()
            await send("late")
            done.set()
        }
        store.send(.perform(child.map(ScriptIntent.record)))
        store.send(.perform(Effect<String>.cancel("child").map(ScriptIntent.record)))
        #expect(!store.hasPendingEffects)
        gate.open()
        await waitUntil { done.isSet }
        #expect(store.state == ScriptState())
    }

    @Test func mappedRunReplacesAnUnmappedRunWithTheSameId() async {
        let store = makeScriptStore()
        let gate = Gate()
        let done = Flag()
        store.send(.perform(.run(id: "shared") { send in
            await gate.wait()
            await send(.record("replaced"))
            done.set()
        }))
        store.send(.perform(Effect<String>.run(id: "shared") { send in await send("mapped") }.map(ScriptIntent.record)))
        gate.open()
        await waitUntil { done.isSet }
        #expect(store.state == ScriptState(log: ["mapped"]))
    }
}
