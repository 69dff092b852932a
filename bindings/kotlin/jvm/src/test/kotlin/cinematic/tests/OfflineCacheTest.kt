package cinematic.tests

import cinematic.*

/** A host catalog's offline cache and request deadline seen from Kotlin: where results came from. */
object OfflineCacheTest : Suite("offline cache") {
    private const val CACHED = """{"clock":"manual","catalog":"host","offlineCache":{"path":":memory:"},"requestDeadlineMs":1000}"""

    /** Types [query], lets the debounce elapse and waits for the answer. */
    private fun search(runtime: Runtime, store: SearchStore, query: String) {
        store.queryChanged(query)
        runtime.advanceClock(250)
        store.settle(5_000)
    }

    init {
        test("a live answer says live; when the provider fails, the saved copy says cache with cachedAt") {
            withRuntime(CACHED) { runtime ->
                val provider = ScriptedProvider(runtime).install()
                runtime.openSearch().use { search ->
                    search(runtime, search, "dune")
                    val live = search.state.results as ResultsLoaded
                    expectEqual("live" to null, live.source to live.cachedAt, "source of a live answer")
                    expectEqual(Phase.Loaded(listOf(live.value.first()), "live"), search.state.phase, "phase of a live answer")
                    search(runtime, search, "alien")

                    provider.answers["dune"] = """{"error":{"code":"network","message":"offline"}}"""
                    search(runtime, search, "dune")
                    val cached = search.state.results as ResultsLoaded
                    expectEqual("cache", cached.source, "source after the provider failed")
                    expect((cached.cachedAt ?: 0) > 1_600_000_000) { "cachedAt is Unix seconds: ${cached.cachedAt}" }
                    expectEqual(live.value, cached.value, "the saved movies")

                    provider.answers["alien"] = """{"error":{"code":"network","message":"offline"}}"""
                    provider.answers["nothing saved"] = """{"error":{"code":"network","message":"offline"}}"""
                    search(runtime, search, "nothing saved")
                    val failed = search.state.phase
                    expect(failed is Phase.Failed && failed.error.code == "network") { "no copy: the error shows, got $failed" }
                }
            }
        }

        test("a detail's loaded phase says live, then cache with cachedAt when the provider fails") {
            withRuntime(CACHED) { runtime ->
                val provider = ScriptedProvider(runtime).install()
                for (round in 1..2) {
                    runtime.openDetail(15249).use { detail ->
                        detail.send("""{"type":"task"}""")
                        expect(eventually(5_000) { provider.requests.count { it.op == "movie" } == round }) { "movie request $round" }
                        val id = provider.requests.last { it.op == "movie" }.id
                        runtime.respond(id, if (round == 1) """{"movie":{"id":15249,"title":"Dune","year":1984}}"""
                                            else """{"error":{"code":"timeout","message":"slow"}}""")
                        expect(eventually(5_000) { detail.state.detail is Phase.Loaded }) { "detail loaded in round $round" }
                        val loaded = detail.state.detail as Phase.Loaded
                        expectEqual("Dune", loaded.value.title, "title in round $round")
                        if (round == 1) expectEqual("live" to null, loaded.source to loaded.cachedAt, "a live detail")
                        else expect(loaded.source == "cache" && (loaded.cachedAt ?: 0) > 1_600_000_000) { "a saved detail: $loaded" }
                    }
                }
            }
        }

        test("a provider that never answers fails with timeout at the deadline and gets a cancel") {
            withRuntime(CACHED) { runtime ->
                val provider = ScriptedProvider(runtime).install()
                provider.held.add("slow")
                runtime.openSearch().use { search ->
                    search.queryChanged("slow")
                    runtime.advanceClock(250)
                    val id = provider.awaitSearch("slow")
                    runtime.advanceClock(999)
                    expect(search.state.phase is Phase.Loading) { "still loading before the deadline: ${search.state}" }
                    runtime.advanceClock(1)
                    search.settle(5_000)
                    val phase = search.state.phase
                    expect(phase is Phase.Failed && phase.error.code == "timeout") { "timeout at the deadline, got $phase" }
                    expect(eventually(5_000) { id in provider.cancelled }) { "the provider was told to cancel request $id" }
                }
            }
        }
    }
}
