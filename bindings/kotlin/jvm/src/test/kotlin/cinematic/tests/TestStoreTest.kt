package cinematic.tests

import cinematic.*
import cinematic.testing.*
import java.io.File

/**
 * cinematic.testing.TestStore (Kotlin): passes when every change is asserted; fails with a
 * readable diff when a change is unasserted, a state differs, an effect result is not
 * received, or an effect still runs at finish(). Also Detail's optimistic toggle and
 * rollback and Discover's paging, written with it.
 */
object TestStoreTest : Suite("test store") {
    private val DUNE = listOf(Movie(15249, "Dune", 1984), Movie(15251, "Dune Warriors", 1990))

    private fun searchDune(store: TestStore<SearchState, SearchStore>) {
        store.catalog.search("dune", *DUNE.toTypedArray())
        store.send(QueryChanged(query = "dune").toJson()) { it.copy(query = "dune") }
        store.advance(250)
        store.receive("searchNow") { it.copy(results = ResultsLoading(query = "dune")) }
    }

    private fun failure(block: () -> Unit): String {
        try {
            block()
        } catch (e: TestStoreFailure) {
            return e.message ?: ""
        }
        throw ExpectationFailed("expected a TestStoreFailure, nothing was thrown")
    }

    init {
        test("a fully asserted search passes") {
            TestStore(SearchFeature).use { store ->
                searchDune(store)
                store.receive("resultsLoaded") {
                    it.copy(results = ResultsLoaded(query = "dune", value = DUNE, source = "live"), pagesLoaded = 1, isExhausted = true)
                }
                store.finish()
            }
        }

        test("an unasserted change fails naming the member") {
            TestStore(SearchFeature).use { store ->
                val message = failure { store.send(QueryChanged(query = "dune").toJson()) }
                expect("""send({"type":"queryChanged","query":"dune"})""" in message) { message }
                expect("""query: expected "", actual "dune"""" in message) { message }
                expect("changed but not asserted: query" in message) { message }
            }
        }

        test("a differing state fails with a diff naming list positions") {
            TestStore(SearchFeature).use { store ->
                searchDune(store)
                val message = failure {
                    store.receive("resultsLoaded") {
                        it.copy(results = ResultsLoaded(query = "dune", value = listOf(DUNE[0], DUNE[1].copy(year = 1991)), source = "live"),
                            pagesLoaded = 2, isExhausted = true)
                    }
                }
                expect("TestStore(search) receive(resultsLoaded): the state differs" in message) { message }
                expect("results.value[1].year: expected 1991, actual 1990" in message) { message }
                expect("pagesLoaded: expected 2, actual 1" in message) { message }
                expect("results.value[0]" !in message) { message }
            }
        }

        test("an effect result not received fails at finish") {
            val store = TestStore(SearchFeature)
            searchDune(store)
            store.catalog.waitFor(mapOf("op" to "search"))
            val message = failure { store.finish() }
            expect("finish(): 1 intent(s) fed back by effects were not received" in message && "\"type\":\"resultsLoaded\"" in message) { message }
            expect(store.store.isClosed) { "finish() closes the store" }
        }

        test("an effect still running fails at finish, naming it") {
            val store = TestStore(SearchFeature)
            store.send(QueryChanged(query = "dune").toJson()) { it.copy(query = "dune") } // a debounce, never advanced
            val message = failure { store.finish(timeoutMs = 200) }
            expect("finish(): 1 effect(s) still running after 200 ms: [search]" in message) { message }
        }

        test("receiving the wrong intent fails") {
            TestStore(SearchFeature).use { store ->
                searchDune(store)
                val message = failure { store.receive("searchFailed") }
                expect("""receive(searchFailed): the next intent fed back was {"type":"resultsLoaded"""" in message) { message }
            }
        }

        test("a delayed answer arrives when the manual clock reaches it") {
            TestStore(SearchFeature).use { store ->
                store.catalog.search("dune", *DUNE.toTypedArray(), delayMs = 400)
                store.send(QueryChanged(query = "dune").toJson()) { it.copy(query = "dune") }
                store.send(Submitted().toJson()) { it.copy(results = ResultsLoading(query = "dune")) }
                val request = store.catalog.waitFor(mapOf("op" to "search", "query" to "dune"))
                store.advance(399)
                store.expectNothingReceived()
                expect(!request.answered) { "answered before its time" }
                store.advance(1)
                store.receive("resultsLoaded") {
                    it.copy(results = ResultsLoaded(query = "dune", value = DUNE, source = "live"), pagesLoaded = 1, isExhausted = true)
                }
                store.finish()
            }
        }

        test("non-exhaustive mode checks only what a step changes") {
            TestStore(SearchFeature, exhaustive = false).use { store ->
                store.catalog.search("dune", *DUNE.toTypedArray())
                store.send(QueryChanged(query = "dune").toJson())
                store.advance(250)
                store.receive("resultsLoaded") { it.copy(pagesLoaded = 1) } // searchNow skipped, results not compared
                val message = failure { store.send(LoadMoreResults().toJson()) { it.copy(pagesLoaded = 2) } }
                expect("pagesLoaded: expected 2, actual 1" in message) { message }
                store.finish()
            }
        }

        test("detail: the heart flips at once and the store follows the write") {
            TestStore(DetailFeature, mapOf("movieId" to 42)).use { store ->
                openDetail(store)
                store.send(FavoriteToggled().toJson()) { it.copy(isFavorite = true, isSaving = true) }
                store.receiveAll(listOf("favoritesChanged", "favoriteSaved")) { it.copy(isSaving = false) }
                store.send(FavoriteToggled().toJson()) { it.copy(isFavorite = false, isSaving = true) }
                store.receiveAll(listOf("favoritesChanged", "favoriteSaved")) { it.copy(isSaving = false) }
                store.finish(stillRunning = listOf("detail.favorites"))
            }
        }

        test("detail: a failed write rolls the heart back with a storage error") {
            val dir = createTempDir("cinematic-teststore")
            try {
                val path = File(dir, "favorites.sqlite").path
                Runtime(mapOf("favorites" to path)).use { runtime -> // create the database
                    runtime.openFavorites().use { it.task(); it.settle(200).let { } }
                }
            } catch (e: CinematicException) {
                // favorites keep observing: settle times out, the file exists
            }
            try {
                TestRuntime(mapOf("favorites" to mapOf("path" to File(dir, "favorites.sqlite").path, "readOnly" to true))).use { rt ->
                    val detail = rt.store(DetailFeature, mapOf("movieId" to 42))
                    openDetail(detail)
                    detail.send(FavoriteToggled().toJson()) { it.copy(isFavorite = true, isSaving = true) } // optimistic...
                    detail.receive("favoriteSaveFailed") { state ->                                         // ...rolled back
                        state.copy(isFavorite = false, isSaving = false, favoriteError = MovieError("storage", detail.store.state.favoriteError?.message ?: ""))
                    }
                    expectEqual("storage", detail.state.favoriteError?.code, "the error's code")
                    detail.finish(stillRunning = listOf("detail.favorites"))
                    rt.finish()
                }
            } finally {
                dir.deleteRecursively()
            }
        }

        test("discover: sections load from one request each, pages append, a failed page keeps the content") {
            TestStore(DiscoverFeature).use { store ->
                store.catalog.hold(mapOf("op" to "discover"))
                val sections = store.state.sections.map { it.section }
                store.send(Task().toJson()) { s -> s.copy(sections = s.sections.map { it.copy(movies = Phase.Loading) }) }
                sections.forEach { store.catalog.waitFor(mapOf("op" to "discover", "section" to it)) }
                store.send(Task().toJson())                       // again, while loading: nothing
                store.send(LoadMore(section = "popular").toJson()) // ignored while the section loads
                expectEqual(sections.size, store.store.pendingEffects, "effects in flight")
                sections.forEachIndexed { index, section ->
                    val movies = page(section, if (section == "short") 3 else 20)
                    store.catalog.respond(mapOf("op" to "discover", "section" to section), TestCatalog.moviesAnswer(*movies.toTypedArray()))
                    store.receive("sectionLoaded") { s ->
                        s.copy(sections = s.sections.mapIndexed { i, entry ->
                            if (i != index) entry else entry.copy(movies = Phase.Loaded(movies, source = "live"), pagesLoaded = 1, isExhausted = movies.size < 20)
                        })
                    }
                }
                store.send(LoadMore(section = "popular").toJson()) { s -> s.copy(sections = s.sections.mapIndexed { i, e -> if (i == 0) e.copy(isLoadingMore = true) else e }) }
                val next = page("popular", 20, 20)
                store.catalog.respond(mapOf("op" to "discover", "section" to "popular", "page" to 2), TestCatalog.moviesAnswer(*next.toTypedArray()))
                store.receive("sectionLoaded") { s ->
                    s.copy(sections = s.sections.mapIndexed { i, e ->
                        if (i != 0) e else e.copy(movies = Phase.Loaded(page("popular", 20) + next, source = "live"), pagesLoaded = 2, isLoadingMore = false)
                    })
                }
                store.send(LoadMore(section = "popular").toJson()) { s -> s.copy(sections = s.sections.mapIndexed { i, e -> if (i == 0) e.copy(isLoadingMore = true) else e }) }
                store.catalog.respond(mapOf("op" to "discover", "section" to "popular", "page" to 3), TestCatalog.errorAnswer("network", "offline"))
                store.receive("sectionFailed") { s ->
                    s.copy(sections = s.sections.mapIndexed { i, e -> if (i == 0) e.copy(isLoadingMore = false, loadMoreError = MovieError("network", "offline")) else e })
                }
                store.finish()
            }
        }
    }

    private fun page(section: String, count: Int, first: Int = 0): List<Movie> =
        (first until first + count).map { i -> Movie(1000L * i + section.length, "$section $i") }

    private fun openDetail(store: TestStore<DetailState, DetailStore>) {
        val hosted = mapOf("id" to 42, "title" to "Hosted", "year" to 2001, "budget" to 1000000)
        store.catalog.movie(42, hosted)
        store.send(Task().toJson()) { it.copy(detail = Phase.Loading) }
        store.receiveAll(listOf("favoritesChanged", "detailLoaded")) {
            it.copy(detail = Phase.Loaded(MovieDetail(id = 42, title = "Hosted", year = 2001, budget = 1000000), source = "live"))
        }
    }
}
