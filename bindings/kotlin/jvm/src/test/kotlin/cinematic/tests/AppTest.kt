package cinematic.tests

import cinematic.*
import cinematic.testing.*
import java.util.Collections
import kotlinx.coroutines.ExperimentalCoroutinesApi
import kotlinx.coroutines.channels.ReceiveChannel

/**
 * The app store (docs/wire.md "app") from Kotlin: the whole scenario of issue 31 driven
 * exhaustively with the TestStore (search, open the third result, heart it, back, Favorites,
 * remove, undo), and its child handles (`Store.scope`, `cinematic_store_scope`): a child's
 * state is the parent's part, its intents go through the parent's history, a keystroke
 * patches only `/search`, and closing the parent closes the child.
 */
object AppTest : Suite("app") {
    private val ALIENS = listOf(
        Movie(1652, "Alien", 1979, runtime = 116, rating = 8.3),
        Movie(1679, "Aliens", 1986, runtime = 154, rating = 8.3),
        Movie(1677, "Alien: Resurrection", 1997, runtime = 116, rating = 6.0),
        Movie(648, "AVP: Alien Vs. Predator", 2004))
    private val THIRD = ALIENS[2]
    private val THIRD_DETAIL = MovieDetail(id = 1677, title = "Alien: Resurrection", year = 1997, runtime = 116, rating = 6.0, budget = 70000000)

    /** The app's Search part after a typed query's results arrived. */
    private fun searched(state: AppState, movies: List<Movie>): AppState = state.copy(search = state.search.copy(
        results = ResultsLoaded(query = "alien", value = movies, source = "live"), pagesLoaded = 1, isExhausted = true))

    /** [state] with its shown (last) Detail changed by [change]. */
    private fun shown(state: AppState, change: (AppDetailState) -> AppDetailState): AppState =
        state.copy(details = state.details.dropLast(1) + change(state.details.last()))

    private fun favorites(state: AppState, movies: List<Movie>): AppState =
        state.copy(favorites = state.favorites.copy(favorites = Phase.Loaded(movies)))

    init {
        test("TestStore drives the whole app: search, open the third, heart, back, Favorites, remove, undo") {
            TestStore(AppFeature).use { app ->
                expectEqual("search", app.state.tab, "the first tab")
                app.send(AppTask().toJson()) { it.copy(favorites = it.favorites.copy(favorites = Phase.Loading)) }
                app.receive("favoritesResult.favoritesChanged") { favorites(it, emptyList()) }

                // Search "alien": the debounce on the manual clock, then the catalog's answer.
                app.catalog.search("alien", *ALIENS.toTypedArray())
                app.send(AppQueryChanged(query = "alien").toJson()) { it.copy(search = it.search.copy(query = "alien")) }
                app.advance(249)
                app.expectNothingReceived()
                app.advance(1)
                app.receive("searchResult.searchNow") { it.copy(search = it.search.copy(results = ResultsLoading(query = "alien"))) }
                app.receive("searchResult.resultsLoaded") { searched(it, ALIENS) }

                // Where the person is, then the third result opened: its Detail is pushed with its row.
                app.send(Moved(list = "search", selection = 2, firstVisible = 0).toJson()) {
                    it.copy(positions = AppPositions(mapOf("search" to ListPosition(selection = 2, firstVisible = 0))))
                }
                app.catalog.movie(THIRD.id, THIRD_DETAIL.toJson().filterValues { it != null })
                app.send(Opened(movieId = THIRD.id).toJson()) {
                    it.copy(details = listOf(AppDetailState(movieId = THIRD.id, detail = Phase.Loading, listing = THIRD)))
                }
                app.receiveAll(listOf("detailResult.favoritesChanged", "detailResult.detailLoaded")) { state ->
                    shown(state) { it.copy(detail = Phase.Loaded(THIRD_DETAIL, source = "live")) }
                }

                // The heart, as a Detail intent: optimistic, then stored and seen by Favorites.
                app.send(AppDetail(intent = FavoriteToggled()).toJson()) { state -> shown(state) { it.copy(isFavorite = true, isSaving = true) } }
                app.receiveAll(listOf("detailResult.favoritesChanged", "favoritesResult.favoritesChanged", "detailResult.favoriteSaved")) { state ->
                    favorites(shown(state) { it.copy(isSaving = false) }, listOf(THIRD))
                }

                app.send(Back().toJson()) { it.copy(details = emptyList()) }
                app.send(TabSelected(tab = "favorites").toJson()) { it.copy(tab = "favorites") }

                // Removed: the undo stack and a notice offering undo; undo puts it back at once.
                app.send(AppRemoved(movieId = THIRD.id).toJson()) { state ->
                    state.copy(removed = listOf(THIRD), notice = AppNotice(id = 1, kind = "removed", text = "Removed Alien: Resurrection", offersUndo = true, expires = true))
                }
                app.receive("favoritesResult.favoritesChanged") { favorites(it, emptyList()) }
                app.send(Undo().toJson()) { state -> favorites(state, listOf(THIRD)).copy(removed = emptyList(), notice = null) }
                app.receiveAll(listOf("favoritesResult.favoritesChanged", "undoSaved")) { state ->
                    state.copy(notice = AppNotice(id = 2, kind = "restored", text = "Restored Alien: Resurrection", expires = true))
                }
                expectEqual(listOf(THIRD), app.store.state.favorites.movies, "the favorites after undo")

                // The notice goes after 6 s on the runtime's clock.
                app.advance(6_000)
                app.receive("noticeExpired") { it.copy(notice = null) }
                app.finish(stillRunning = listOf("favorites.observe"))
            }
        }

        test("TestStore names a wrapped intent by the part's type too") {
            TestStore(AppFeature).use { app ->
                app.catalog.search("alien", *ALIENS.toTypedArray())
                app.send(AppQueryChanged(query = "alien").toJson()) { it.copy(search = it.search.copy(query = "alien")) }
                app.advance(250)
                val failed = try {
                    app.receive("searchResult.resultsLoaded"); null
                } catch (e: TestStoreFailure) { e.message }
                expect(failed != null && "the next intent fed back was {\"type\":\"searchResult\",\"intent\":{\"type\":\"searchNow\"}}" in failed) { "$failed" }
                app.close()
            }
        }

        test("openApp(): no state file, or one (generated args without the members left null)") {
            withTempDir { dir ->
                withRuntime("""{"clock":"manual"}""") { runtime ->
                    runtime.openApp().use { expectEqual("search", it.state.tab, "a fresh app's tab") }
                    runtime.openApp(stateFile = java.io.File(dir, "app.json").path).use { it.tabSelected("favorites") }
                    expect(java.io.File(dir, "app.json").readText().startsWith("{\"cinematicAppState\":1,")) { "saved at close" }
                    runtime.openApp(stateFile = java.io.File(dir, "app.json").path, fresh = true).use { expectEqual("search", it.state.tab, "fresh") }
                }
            }
        }

        test("a child handle's state is its part of the parent's, typed") {
            withApp { runtime, app ->
                val search = app.scope(AppScopes.search)
                val discover = app.scope(AppScopes.discover)
                val favorites = app.scope(AppScopes.favorites)
                val detail = app.scope(AppScopes.detail)
                expectEqual(listOf("search", "discover", "favorites", "detail"), listOf(search, discover, favorites, detail).map { it.feature }, "the children's features")
                expectEqual(app, search.parent, "the child's parent")
                expectEqual("search", search.scopeName, "the child's scope")
                expectEqual(null, app.parent, "a store's parent")
                search.queryChanged("alien")
                runtime.advanceClock(250)
                expect(eventually { search.state.movies.size >= 3 }) { "the search never loaded: ${search.state}" }
                val whole = Json.parse(app.stateJson) as Map<*, *>
                expectEqual(Json.write(whole["search"]), search.stateJson, "search child")
                expectEqual(Json.write(whole["discover"]), discover.stateJson, "discover child")
                expectEqual(Json.write(whole["favorites"]), favorites.stateJson, "favorites child")
                expectEqual(app.state.search, search.state, "the typed search part")
                expectEqual("null", detail.stateJson, "no Detail shown")
                expectEqual(null, detail.state, "no Detail shown (typed)")
                val third = search.state.movies[2]
                app.opened(third.id)
                expect(eventually { detail.state?.detail is Phase.Loaded }) { "the shown Detail never loaded: ${detail.state}" }
                expectEqual(app.state.details.last(), detail.state, "the shown Detail")
                expectEqual(third, detail.state?.listing, "its row")
                val untyped = app.scope("search")
                expect(untyped is SearchStore) { "scope(name) is typed at run time: $untyped" }
                expectEqual(search.stateJson, untyped.stateJson, "two children of one part")
            }
        }

        test("a child's intents go through the parent: its history shows them wrapped") {
            withApp(history = true) { runtime, app ->
                val search = app.scope(AppScopes.search)
                search.queryChanged("alien")
                val sent = app.history.last()
                expectEqual(mapOf("type" to "search", "intent" to mapOf("type" to "queryChanged", "query" to "alien")), sent.intent, "the parent's last intent")
                expectEqual(listOf("search", "view"), sent.changed, "what it changed (the view is derived from every part)")
                expectEqual(app.history.map { it.seq }, search.history.map { it.seq }, "a child's history is its parent's")
                runtime.advanceClock(250)
                expect(eventually { search.state.movies.size >= 3 }) { "never loaded" }
                val detail = app.scope(AppScopes.detail)
                app.opened(search.state.movies[2].id)
                expect(eventually { detail.state?.detail is Phase.Loaded }) { "the Detail never loaded" }
                detail.favoriteToggled()
                expectEqual(mapOf("type" to "detail", "intent" to mapOf("type" to "favoriteToggled")),
                    app.history.last { it.intent["type"] == "detail" }.intent, "the heart, wrapped")
                expect(eventually { app.state.favorites.movies.map { it.id } == listOf(search.state.movies[2].id) }) { "the heart was not stored: ${app.state.favorites}" }
                expectCinematicError("invalid") { search.send("""{"type":"loadMore","section":"comedy"}""") }
                expectCinematicError("invalid") { detail.send("""{"type":"queryChanged","query":"x"}""") }
            }
        }

        test("a keystroke's patch on the app touches only /search and its /view; the child's patch is relative to the part") {
            val envelopes = Collections.synchronizedList(ArrayList<Pair<String?, Map<*, *>>>())
            val base = Runtime().use { it.library }
            val watching = object : NativeLibrary by base {
                override val recording: Boolean get() = true
                override fun record(kind: String, feature: String?, json: String) {
                    base.record(kind, feature, json)
                    if (kind == "patched") envelopes.add(feature to (Json.parse(json) as Map<*, *>))
                }
            }
            Runtime("""{"clock":"manual"}""", watching).use { runtime ->
                val app = runtime.open(AppFeature)
                val search = app.scope(AppScopes.search)
                val appStates = Collections.synchronizedList(ArrayList<AppState>())
                val searchStates = Collections.synchronizedList(ArrayList<SearchState>())
                app.subscribe { appStates.add(it) }
                search.subscribe { searchStates.add(it) }
                expect(eventually { appStates.size == 1 && searchStates.size == 1 }) { "first states" }
                envelopes.clear()
                app.queryChanged("a")
                search.queryChanged("al")
                expect(eventually { searchStates.size == 3 && appStates.size == 3 }) { "states: ${appStates.size} app, ${searchStates.size} search" }
                val appPaths = envelopes.filter { it.first == "app" }.flatMap { operations(it.second) }.map { it["path"] as String }
                val childPaths = envelopes.filter { it.first == "search" }.flatMap { operations(it.second) }.map { it["path"] as String }
                // /search/query per keystroke, and /view (derived from every part) where what it shows changed.
                expectEqual(listOf("/search/query", "/search/query"), appPaths.filter { it.startsWith("/search/") }, "the app's keystroke patches")
                expect(appPaths.all { it.startsWith("/search/") || it.startsWith("/view/") }) { "the app's keystroke patches: $appPaths" }
                expectEqual(listOf("/query", "/query"), childPaths, "the child's keystroke patches")
                expectEqual(listOf("", "a", "al"), searchStates.map { it.query }, "the child's states")
                expectEqual(searchStates, appStates.map { it.search }, "the child's states are the app's parts")
                expectEqual(Json.parse(search.stateJson), search.deliveredTree, "the child's rebuilt state")
            }
        }

        test("a part that does not change delivers nothing to its child; the shown Detail goes from null to a state and back") {
            withApp { runtime, app ->
                val discover = app.scope(AppScopes.discover)
                val detail = app.scope(AppScopes.detail)
                val discoverStates = Collections.synchronizedList(ArrayList<DiscoverState>())
                val shown = Collections.synchronizedList(ArrayList<AppDetailState?>())
                discover.subscribe { discoverStates.add(it) }
                detail.subscribe { shown.add(it) }
                expect(eventually { discoverStates.size == 1 && shown.size == 1 }) { "first states" }
                expectEqual(null, shown[0], "no Detail shown")
                app.queryChanged("alien")
                runtime.advanceClock(250)
                expect(eventually { app.state.search.movies.isNotEmpty() }) { "never loaded" }
                val movie = app.state.search.movies.first()
                app.opened(movie.id)
                expect(eventually { shown.lastOrNull()?.detail is Phase.Loaded }) { "the shown Detail: $shown" }
                app.back()
                expect(eventually { shown.last() == null }) { "back: $shown" }
                expectEqual(movie, shown.first { it != null }?.listing, "the Detail's row")
                expectEqual(1, discoverStates.size, "Discover's states while only Search changed")
            }
        }

        test("closing the parent closes its children; a child's close stops only its subscriber") {
            withApp { _, app ->
                val search = app.scope(AppScopes.search)
                val other = app.scope(AppScopes.search)
                val channel = search.states()
                expect(eventually { channel.poll() != null }) { "the first state" }
                other.close()
                expect(other.isClosed && !app.isClosed && !search.isClosed) { "a child's close closes only it" }
                expectCinematicError("closed") { other.send(QueryChanged(query = "x").toJson()) }
                search.queryChanged("dune")
                expectEqual("dune", app.state.search.query, "the parent after a child closed")
                app.close()
                expect(search.isClosed) { "the child is not closed with its parent" }
                expect(eventually { drained(channel) }) { "states() did not close" }
                expectCinematicError("closed") { search.queryChanged("x") }
                expectCinematicError("closed") { search.stateJson }
                search.close() // nothing
            }
        }

        test("scope errors: an unknown part lists the parts; a feature or a child without parts; closed") {
            withApp { runtime, app ->
                val unknown = expectCinematicError("invalid") { app.scope("nope") }
                expect("search" in unknown.message && "detail" in unknown.message) { unknown.message }
                val search = app.scope(AppScopes.search)
                expectCinematicError("invalid") { search.scope("search") }
                runtime.openSearch().use { plain -> expectCinematicError("invalid") { plain.scope("search") } }
                expectCinematicError("invalid") { app.scope("se\u0000arch") }
                app.close()
                expectCinematicError("closed") { app.scope(AppScopes.search) }
            }
        }

        test("the shown Detail's helpers and every part's sample calls are accepted") {
            withApp { _, app ->
                for (part in AppScopes.all) {
                    val child = app.scope(part.name)
                    @Suppress("UNCHECKED_CAST")
                    val calls = child.definition.sampleCalls as List<Pair<String, (Store<*>) -> Unit>>
                    for ((type, call) in calls) {
                        try {
                            call(child)
                        } catch (e: CinematicException) {
                            throw ExpectationFailed("${part.name}.$type: ${e.message}")
                        }
                    }
                }
            }
        }
    }

    /** Takes what [channel] holds; true once it is closed. */
    @UseExperimental(ExperimentalCoroutinesApi::class) // isClosedForReceive
    private fun drained(channel: ReceiveChannel<*>): Boolean {
        while (channel.poll() != null) Unit
        return channel.isClosedForReceive
    }

    private fun operations(envelope: Map<*, *>): List<Map<*, *>> = (envelope["patch"] as? List<*>)?.map { it as Map<*, *> } ?: emptyList()

    private fun withTempDir(body: (java.io.File) -> Unit) {
        val dir = java.nio.file.Files.createTempDirectory("cinematic-app").toFile()
        try { body(dir) } finally { dir.deleteRecursively() }
    }

    /** An app store on the embedded catalog with a manual clock, for one test. */
    private fun withApp(history: Boolean = false, body: (Runtime, AppStore) -> Unit) {
        withRuntime("""{"clock":"manual"${if (history) ""","history":100""" else ""}}""") { runtime ->
            val app = runtime.open(AppFeature)
            app.task()
            body(runtime, app)
        }
    }
}
