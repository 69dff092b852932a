package cinematic.tests

import cinematic.*
import cinematic.testing.*
import java.util.Collections

/** The four search promises of seed 004, with a manual clock and a scripted host catalog. */
object SearchPromisesTest : Suite("search promises") {
    private const val HOST = """{"clock":"manual","catalog":"host","offlineCache":false}"""

    init {
        test("1. keystrokes collapse: typing \"voyage\" sends one request, for \"voyage\", at 250 ms exactly") {
            TestStore(SearchFeature).use { store ->
                store.catalog.search("voyage", Movie(1, "Voyage", 2000))
                val word = "voyage"
                for (end in 1..word.length) {
                    val prefix = word.substring(0, end)
                    store.send(QueryChanged(query = prefix).toJson()) { it.copy(query = prefix) } // only the query changes
                }
                expectEqual(1, store.store.pendingEffects, "effects in flight (one debounce)")
                store.advance(249)
                store.expectNothingReceived()
                expectEqual(0, store.catalog.count(mapOf("op" to "search")), "requests before the debounce elapsed")
                store.advance(1)
                store.receive("searchNow") { it.copy(results = ResultsLoading(query = "voyage")) }
                store.receive("resultsLoaded") {
                    it.copy(results = ResultsLoaded(query = "voyage", value = listOf(Movie(1, "Voyage", 2000)), source = "live"),
                        pagesLoaded = 1, isExhausted = true)
                }
                expectEqual(listOf(mapOf<String, Any?>("op" to "search", "query" to "voyage", "page" to 1L)),
                    store.catalog.requests.map { it.request }, "search requests")
                store.advance(10_000) // nothing else was waiting
                store.finish()         // so exactly one searchNow, and nothing running
            }
        }

        test("2. a short query resets to idle at once and cancels the pending search") {
            TestStore(SearchFeature).use { store ->
                store.send(QueryChanged(query = "du").toJson()) { it.copy(query = "du") }
                store.send(QueryChanged(query = "d").toJson()) { it.copy(query = "d") }
                expectEqual(0, store.store.pendingEffects, "effects in flight after the short query")
                store.advance(1_000)
                store.expectNothingReceived()

                // From loaded results too, and after trimming.
                store.catalog.search("dune", Movie(2, "Dune", 1984))
                store.send(QueryChanged(query = "dune").toJson()) { it.copy(query = "dune") }
                store.send(Submitted().toJson()) { it.copy(results = ResultsLoading(query = "dune")) }
                store.receive("resultsLoaded") {
                    it.copy(results = ResultsLoaded(query = "dune", value = listOf(Movie(2, "Dune", 1984)), source = "live"),
                        pagesLoaded = 1, isExhausted = true)
                }
                store.send(QueryChanged(query = "  d ").toJson()) { SearchState(query = "  d ", results = IdlePhase()) }
                store.finish()
            }
        }

        test("2. a short query cancels a request in flight; its late answer is dropped") {
            TestStore(SearchFeature).use { store ->
                store.catalog.hold(mapOf("op" to "search", "query" to "du"))
                store.send(QueryChanged(query = "du").toJson()) { it.copy(query = "du") }
                store.advance(250)
                store.receive("searchNow") { it.copy(results = ResultsLoading(query = "du")) }
                val du = store.catalog.waitFor(mapOf("op" to "search", "query" to "du"))
                store.send(QueryChanged(query = "d").toJson()) { it.copy(query = "d", results = IdlePhase()) }
                store.catalog.awaitCancelled(du)
                store.catalog.respond(mapOf("op" to "search", "query" to "du"), TestCatalog.moviesAnswer(Movie(1, "Late du", 1999)))
                store.finish() // the late answer fed nothing back
            }
        }

        test("3. stale answers are dropped: a late \"du\" answer never replaces \"dune\"") {
            TestStore(SearchFeature).use { store ->
                store.catalog.hold(mapOf("op" to "search", "query" to "du"))
                store.catalog.search("dune", Movie(2, "Dune", 1984))
                store.send(QueryChanged(query = "du").toJson()) { it.copy(query = "du") }
                store.advance(250)
                store.receive("searchNow") { it.copy(results = ResultsLoading(query = "du")) }
                val du = store.catalog.waitFor(mapOf("op" to "search", "query" to "du"))

                store.send(QueryChanged(query = "dune").toJson()) { it.copy(query = "dune") }
                store.catalog.awaitCancelled(du) // told, and ignored
                store.advance(250)
                store.receive("searchNow") { it.copy(results = ResultsLoading(query = "dune")) }
                store.receive("resultsLoaded") {
                    it.copy(results = ResultsLoaded(query = "dune", value = listOf(Movie(2, "Dune", 1984)), source = "live"),
                        pagesLoaded = 1, isExhausted = true)
                }
                // The late answer: accepted (no exception) and dropped; and once more.
                store.catalog.respond(mapOf("op" to "search", "query" to "du"), TestCatalog.moviesAnswer(Movie(1, "Duck Soup", 1933)))
                store.testRuntime.runtime.respond(du.id, TestCatalog.moviesAnswer())
                expectEqual(listOf(du.id), store.catalog.cancelled, "cancelled requests")
                store.finish() // nothing was fed back by the late answers
            }
        }

        test("4. failures are typed: an error answer shows phase failed with its code") {
            TestStore(SearchFeature).use { store ->
                store.catalog.answer(mapOf("op" to "search", "query" to "dune"), TestCatalog.errorAnswer("network", "timed out"))
                store.send(QueryChanged(query = "dune").toJson()) { it.copy(query = "dune") }
                store.advance(250)
                store.receive("searchNow") { it.copy(results = ResultsLoading(query = "dune")) }
                store.receive("searchFailed") { it.copy(results = ResultsFailed(query = "dune", error = MovieError("network", "timed out"))) }
                store.finish()
            }
        }

        test("4. an error code outside the closed set becomes invalidResponse") {
            withRuntime(HOST) { runtime ->
                val provider = ScriptedProvider(runtime)
                provider.answers["dune"] = ScriptedProvider.error("teapot", "short and stout")
                provider.install()
                runtime.openSearch().use { search ->
                    search.queryChanged("dune")
                    search.submitted()
                    search.settle(5_000)
                    val results = search.state.phase
                    expect(results is Phase.Failed && results.error.code == "invalidResponse" &&
                        results.error.message.contains("teapot")) { "results: $results" }
                }
            }
        }

        test("4. an undecodable answer raises and fails the request with invalidResponse") {
            withRuntime(HOST) { runtime ->
                val provider = ScriptedProvider(runtime)
                provider.held += "dune"
                provider.install()
                runtime.openSearch().use { search ->
                    search.queryChanged("dune")
                    search.submitted()
                    val id = provider.awaitSearch("dune")
                    expectCinematicError("invalid") { runtime.respond(id, """{"movies":[{"title":"no id"}]}""") }
                    search.settle(5_000)
                    val results = search.state.phase
                    expect(results is Phase.Failed && results.error.code == "invalidResponse") { "results: $results" }
                }
            }
        }

        test("without a provider a search fails at once with network") {
            withRuntime(HOST) { runtime ->
                runtime.openSearch().use { search ->
                    search.queryChanged("dune")
                    search.submitted()
                    search.settle(5_000)
                    val results = search.state.phase
                    expect(results is Phase.Failed && results.error.code == "network") { "results: $results" }
                }
            }
        }

        test("a provider may answer later from another thread") {
            withRuntime(HOST) { runtime ->
                runtime.setProvider { id, request ->
                    if (request.contains("\"search\"")) {
                        Thread {
                            Thread.sleep(20)
                            runtime.respond(id, ScriptedProvider.movies(Movie(7, "Dune", 2021)))
                        }.start()
                    }
                }
                runtime.openSearch().use { search ->
                    search.queryChanged("dune")
                    search.submitted()
                    expectEqual(Phase.Loading, search.state.phase, "results before the answer")
                    search.settle(5_000)
                    expectEqual(listOf(Movie(7, "Dune", 2021)), search.state.movies, "movies")
                }
            }
        }
    }
}
