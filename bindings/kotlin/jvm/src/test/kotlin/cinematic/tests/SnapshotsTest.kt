package cinematic.tests

import cinematic.*

/**
 * Snapshots from Kotlin: [snapshotJson], [restore], [restoreAll]. The round trip a person
 * makes: open, type, page, snapshot, close the runtime, open a new one, restore; the restored
 * states say "loading", then equal what was saved.
 */
object SnapshotsTest : Suite("snapshots") {
    private const val CONFIG = """{"clock":"manual"}"""

    /** Waits (5 s at most) until a detail store's detail has loaded. */
    private fun awaitLoaded(store: Store<*>) {
        val deadline = System.nanoTime() + 5_000_000_000L
        while (!store.stateJson.contains(""""detail":{"phase":"loaded"""")) {
            expect(System.nanoTime() < deadline) { "the detail did not load: ${store.stateJson}" }
            Thread.sleep(5)
        }
    }

    init {
        test("a search typed and paged, restored in a new runtime: loading, then the same state") {
            var saved = ""
            var before = ""
            withRuntime(CONFIG) { runtime ->
                val search = runtime.openSearch()
                search.queryChanged("star")
                search.submitted()
                search.settle(10_000)
                search.loadMore()
                search.settle(10_000)
                before = search.stateJson
                expectEqual(2, search.state.pagesLoaded, "pagesLoaded before")
                saved = search.snapshotJson()
                val typed = search.snapshot()
                expectEqual("search", typed.feature, "feature")
                expectEqual(mapOf("query" to "star", "pagesLoaded" to 2L), typed.data.mapValues { (it.value as? Number)?.toLong() ?: it.value }, "data")
            }
            withRuntime("""{"clock":"manual","history":100}""") { runtime ->
                val restored = runtime.restore(saved)
                expect(restored is SearchStore) { "restored a ${restored::class.simpleName}" }
                val search = restored as SearchStore
                search.settle(10_000)
                // The first state the restored store reduced said "loading" (the embedded
                // catalog may already have answered when the store is first read).
                val first = search.history.first()
                expectEqual("restored", first.intent["type"], "the first intent")
                expectEqual("loading", (first.state["results"] as Map<*, *>)["phase"], "the first state's results")
                expectEqual("star", first.state["query"], "the first state's query")
                expectEqual(before, search.stateJson, "state once reloaded")
            }
        }

        test("a runtime snapshot reopens every store, in order, typed") {
            var saved = ""
            var before: List<String> = emptyList()
            withRuntime(CONFIG) { runtime ->
                val discover = runtime.openDiscover()
                val search = runtime.openSearch()
                val detail = runtime.openDetail(15249L)
                discover.task()
                search.queryChanged("alien")
                search.submitted()
                detail.task()
                discover.settle(10_000)
                search.settle(10_000)
                awaitLoaded(detail)
                before = listOf(discover.stateJson, search.stateJson, detail.stateJson)
                saved = runtime.snapshotJson()
                expectEqual(listOf("discover", "search", "detail"), runtime.snapshot().stores.map { it.feature }, "features in order")
            }
            withRuntime(CONFIG) { runtime ->
                val stores = runtime.restoreAll(saved)
                expectEqual(listOf("discover", "search", "detail"), stores.map { it.feature }, "restored features")
                expect(stores[2] is DetailStore) { "the third is a DetailStore" }
                stores[0].settle(10_000)
                stores[1].settle(10_000)
                awaitLoaded(stores[2])
                expectEqual(before, stores.map { it.stateJson }, "states once reloaded")
                expectEqual(saved, runtime.snapshotJson(), "the restored runtime's snapshot")
            }
        }

        test("bad snapshots: another format names it; nothing stays open") {
            withRuntime(CONFIG) { runtime ->
                val newer = expectCinematicError("invalid") {
                    runtime.restore("""{"format":4,"library":"2.0.0","feature":"search","data":{}}""")
                }
                expect("format 4 (written by cinematic 2.0.0)" in newer.message) { newer.message }
                expectCinematicError("unknown_feature") { runtime.restore("""{"format":1,"feature":"no such feature","data":{}}""") }
                expectCinematicError("json") { runtime.restore("""{"format":1,"feature":"sea""") }
                expectCinematicError("invalid") {
                    runtime.restoreAll("""{"format":1,"stores":[{"format":1,"feature":"favorites","data":{}},{"format":1,"feature":"search","data":{"query":"x","pagesLoaded":-1}}]}""")
                }
                expectEqual(0, runtime.snapshot().stores.size, "stores left open")
                val migrated = runtime.restore("""{"feature":"detail","args":{"movieId":15249}}""")
                expectEqual("detail", migrated.feature, "a format-0 snapshot's feature")
            }
        }
    }
}
