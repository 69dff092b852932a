package cinematic.tests

import cinematic.*
import java.util.Collections

/** The four search promises of seed 004, with a manual clock and a scripted host catalog. */
object SearchPromisesTest : Suite("search promises") {
    private const val HOST = """{"clock":"manual","catalog":"host","offlineCache":false}"""

    init {
        test("1. keystrokes collapse: typing \"voyage\" sends one request, for \"voyage\"") {
            withRuntime(HOST) { runtime ->
                val provider = ScriptedProvider(runtime).install()
                runtime.openSearch().use { search ->
                    val word = "voyage"
                    for (end in 1..word.length) search.queryChanged(word.substring(0, end))
                    expectEqual("voyage", search.state.query, "query after typing")
                    expectEqual(1, search.pendingEffects, "effects in flight (one debounce)")
                    expectEqual(emptyList<String>(), provider.searches, "requests before the debounce elapsed")

                    runtime.advanceClock(250)
                    search.settle(5_000)

                    expectEqual(listOf("voyage"), provider.searches, "search requests")
                    val state = search.state
                    expect(state.phase is Phase.Loaded) { "results should be loaded: $state" }
                    expectEqual(listOf("Voyage"), state.movies.map { it.title }, "titles")
                    expectEqual(0, search.pendingEffects, "effects in flight after settle")
                }
            }
        }

        test("1. the debounce is exact: no request at 249 ms, one at 250 ms") {
            withRuntime(HOST) { runtime ->
                val provider = ScriptedProvider(runtime).install()
                runtime.openSearch().use { search ->
                    search.queryChanged("voyage")
                    runtime.advanceClock(249)
                    expect(!eventually(50) { provider.searches.isNotEmpty() }) { "searched before the debounce elapsed" }
                    expectEqual(1, search.pendingEffects, "effects in flight at 249 ms")
                    runtime.advanceClock(1)
                    search.settle(5_000)
                    expectEqual(listOf("voyage"), provider.searches, "search requests")
                }
            }
        }

        test("2. a short query resets to idle at once and cancels the pending search") {
            withRuntime(HOST) { runtime ->
                val provider = ScriptedProvider(runtime).install()
                runtime.openSearch().use { search ->
                    search.queryChanged("du")
                    search.queryChanged("d")
                    expectEqual("d" to Phase.Idle, search.state.let { it.query to it.phase }, "state right after the short query")
                    runtime.advanceClock(1_000)
                    search.settle(5_000)
                    expectEqual(emptyList<String>(), provider.searches, "search requests")
                    expectEqual(0, search.pendingEffects, "effects in flight")

                    // From loaded results too, and after trimming.
                    search.queryChanged("dune")
                    search.submitted()
                    search.settle(5_000)
                    expect(search.state.phase is Phase.Loaded) { "dune should be loaded" }
                    search.queryChanged("  d ")
                    expectEqual(Phase.Idle, search.state.phase, "results after \"  d \"")
                }
            }
        }

        test("3. stale answers are dropped: a late \"du\" answer never replaces \"dune\"") {
            withRuntime(HOST) { runtime ->
                val provider = ScriptedProvider(runtime)
                provider.held += "du"
                provider.answers["du"] = ScriptedProvider.movies(Movie(1, "Duck Soup", 1933))
                provider.answers["dune"] = ScriptedProvider.movies(Movie(2, "Dune", 1984))
                provider.install()
                runtime.openSearch().use { search ->
                    val seen = Collections.synchronizedList(ArrayList<SearchState>())
                    search.subscribe { seen.add(it) }

                    search.queryChanged("du")
                    runtime.advanceClock(250)
                    val duRequest = provider.awaitSearch("du")
                    expectEqual(Phase.Loading, search.state.phase, "results while \"du\" is held")

                    search.queryChanged("dune")
                    runtime.advanceClock(250)
                    search.settle(5_000)
                    expectEqual(listOf("du", "dune"), provider.searches, "search requests")
                    expectEqual(listOf(Movie(2, "Dune", 1984)), search.state.movies, "movies for dune")
                    expect(eventually { duRequest in provider.cancelled }) { "the \"du\" request was never cancelled" }

                    provider.release("du") // the late answer: accepted (no exception) and dropped
                    runtime.respond(duRequest, ScriptedProvider.movies()) // and once more
                    search.settle(5_000)

                    val state = search.state
                    expectEqual("dune", state.query, "query")
                    expectEqual(listOf(Movie(2, "Dune", 1984)), state.movies, "movies after the late answer")
                    expect(seen.none { delivered -> delivered.movies.any { it.title == "Duck Soup" } }) { "a subscriber saw the stale answer: $seen" }
                }
            }
        }

        test("4. failures are typed: an error answer shows phase failed with its code") {
            withRuntime(HOST) { runtime ->
                val provider = ScriptedProvider(runtime)
                provider.answers["dune"] = ScriptedProvider.error("network", "timed out")
                provider.install()
                runtime.openSearch().use { search ->
                    search.queryChanged("dune")
                    runtime.advanceClock(250)
                    search.settle(5_000)
                    expectEqual(Phase.Failed(MovieError("network", "timed out")), search.state.phase, "results")
                }
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
