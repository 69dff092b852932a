package cinematic.tests

import cinematic.*
import java.io.File
import java.nio.file.Files
import java.util.concurrent.TimeUnit
import java.util.concurrent.locks.ReentrantLock
import kotlin.concurrent.withLock

/**
 * Detail and Favorites over the embedded catalog. Favorites and detail stores
 * keep observing the favorites after "task", so they never settle: these tests wait for
 * their states (bounded) instead.
 */
object DetailFavoritesTest : Suite("detail/favorites") {
    private const val DUNE = 15249L
    private const val WAIT_MS = 5_000L

    init {
        test("toggling a loaded Dune adds it to the favorites, which persist in the file") {
            withTempDir { dir ->
                val config = Json.write(mapOf("favorites" to File(dir, "favorites.sqlite").path))
                withRuntime(config) { runtime ->
                    val favorites = runtime.openFavorites()
                    val favoriteStates = StateRecorder(favorites)
                    favorites.task()
                    val detail = runtime.openDetail(DUNE)
                    val detailStates = StateRecorder(detail)
                    detail.task()

                    val loaded = detailStates.await("the detail to load") { it.detail is Phase.Loaded }
                    expectEqual(DUNE, loaded.movieId, "movieId")
                    expectEqual("Dune", loaded.movie?.title, "title")
                    expectEqual(1984, loaded.movie?.year, "year")
                    expectEqual(false, loaded.isFavorite, "isFavorite before the toggle")
                    val empty = favoriteStates.await("the favorites to load") { it.favorites is Phase.Loaded }
                    expectEqual(emptyList<String>(), empty.movies.map { it.title }, "favorites of a new file")

                    detail.favoriteToggled()
                    expectEqual(true, detail.state.isFavorite, "isFavorite right after toggleFavorite")

                    val listed = favoriteStates.await("the favorites to list Dune") { state -> state.movies.any { it.id == DUNE } }
                    expectEqual(listOf("Dune (1984)"), listed.movies.map { it.label }, "favorites after the toggle")
                    val saved = detailStates.await("the toggle to be saved") { !it.isSaving }
                    expectEqual(true, saved.isFavorite, "isFavorite once saved")
                    expectEqual(null, saved.favoriteError, "favoriteError once saved")
                }

                // A new runtime on the same file sees the favorite.
                withRuntime(config) { runtime ->
                    val favorites = runtime.openFavorites()
                    val favoriteStates = StateRecorder(favorites)
                    favorites.task()
                    val reopened = favoriteStates.await("the reopened favorites to list Dune") { state ->
                        state.movies.any { it.id == DUNE }
                    }
                    expectEqual(listOf(DUNE), reopened.movies.map { it.id }, "favorite ids after reopening")
                    expectEqual("Dune", reopened.movies[0].title, "favorite title after reopening")

                    val detail = runtime.openDetail(DUNE)
                    val detailStates = StateRecorder(detail)
                    detail.task()
                    val again = detailStates.await("the reopened detail to load") { it.detail is Phase.Loaded }
                    expectEqual(true, again.isFavorite, "isFavorite of Dune after reopening")
                }
            }
        }

        test("removing a favorite updates the favorites and the detail") {
            withRuntime("""{"favorites":":memory:"}""") { runtime ->
                val favorites = runtime.openFavorites()
                val favoriteStates = StateRecorder(favorites)
                favorites.task()
                val detail = runtime.openDetail(DUNE)
                val detailStates = StateRecorder(detail)
                detail.task()
                detailStates.await("the detail to load") { it.detail is Phase.Loaded }
                detail.favoriteToggled()
                favoriteStates.await("the favorites to list Dune") { state -> state.movies.any { it.id == DUNE } }

                favorites.removed(DUNE)
                val removed = favoriteStates.await("Dune to leave the favorites") { state -> state.movies.none { it.id == DUNE } }
                expectEqual(null, removed.removalError, "removalError")
                expect(removed.favorites is Phase.Loaded) { "favorites after the removal: ${removed.favorites}" }
                val unfavorited = detailStates.await("the detail to follow the removal") { !it.isFavorite }
                expectEqual(false, unfavorited.isFavorite, "isFavorite after the removal")
            }
        }

        test("a read-only favorites file: toggling rolls back with a \"storage\" error") {
            withTempDir { dir ->
                val path = File(dir, "favorites.sqlite").path
                // Create the (empty) favorites file first, so that read-only opens an existing file.
                withRuntime(Json.write(mapOf("favorites" to path))) { }
                val config = Json.write(mapOf("favorites" to mapOf("path" to path, "readOnly" to true)))
                withRuntime(config) { runtime ->
                    val detail = runtime.openDetail(DUNE)
                    val detailStates = StateRecorder(detail)
                    detail.task()
                    val loaded = detailStates.await("the detail to load") { it.detail is Phase.Loaded }
                    expectEqual(false, loaded.isFavorite, "isFavorite before the toggle")

                    detail.favoriteToggled()
                    val failed = detailStates.await("the toggle to fail") { it.favoriteError != null && !it.isSaving }
                    expectEqual(false, failed.isFavorite, "isFavorite after the rollback")
                    expectEqual("storage", failed.favoriteError?.code, "favoriteError code")
                    expect(failed.favoriteError?.message?.isNotBlank() == true) { "favoriteError without a message" }
                    // The optimistic flip was shown before the rollback.
                    val history = detailStates.snapshot()
                    val flipped = history.indexOfFirst { it.isFavorite }
                    expect(flipped >= 0 && flipped < history.indexOf(failed)) {
                        "no optimistic isFavorite=true before the rollback in ${history.map { it.isFavorite to it.favoriteError?.code }}"
                    }
                    expectEqual(false, detail.state.isFavorite, "isFavorite read back from the store")

                    // Listing still works, and lists nothing.
                    val favorites = runtime.openFavorites()
                    val favoriteStates = StateRecorder(favorites)
                    favorites.task()
                    val listed = favoriteStates.await("the favorites to load") { it.favorites is Phase.Loaded }
                    expectEqual(emptyList<Long>(), listed.movies.map { it.id }, "read-only favorites")
                }
            }
        }

        test("detail args must hold an integer movieId (\"invalid\")") {
            withRuntime(null) { runtime ->
                val e = expectCinematicError("invalid") { runtime.openStore("detail", """{"movieId":"x"}""") }
                expectEqual("$.movieId", e.path, "path of the mistyped member")
                expectCinematicError("invalid") { runtime.openStore("detail", "{}") }
                expectCinematicError("invalid") { runtime.openStore("detail") }
            }
        }
    }

    /** Runs [body] with a new temporary directory, deleted afterwards. */
    private fun withTempDir(body: (File) -> Unit) {
        val dir = Files.createTempDirectory("cinematic-favorites").toFile()
        try {
            body(dir)
        } finally {
            dir.deleteRecursively()
        }
    }

    /**
     * Subscribes to [store] (replacing any previous subscriber) and records every state,
     * decoded by the store's feature. Decoding errors reach the runtime's
     * callbackErrorHandler, which [withRuntime] turns into a failure.
     */
    private class StateRecorder<T>(store: Store<T>) {
        private val lock = ReentrantLock()
        private val changed = lock.newCondition()
        private val states = ArrayList<T>()

        init {
            store.subscribe { state ->
                lock.withLock {
                    states.add(state)
                    changed.signalAll()
                }
            }
        }

        /** Every state so far, in order. */
        fun snapshot(): List<T> = lock.withLock { ArrayList(states) }

        /**
         * Waits up to [timeoutMs] until the latest state satisfies [condition] and returns
         * it; fails naming [what] and the latest state otherwise.
         */
        fun await(what: String, timeoutMs: Long = WAIT_MS, condition: (T) -> Boolean): T {
            val deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs)
            lock.withLock {
                var latest = states.lastOrNull()
                while (latest == null || !condition(latest)) {
                    val remaining = deadline - System.nanoTime()
                    if (remaining <= 0) {
                        throw ExpectationFailed("timed out after $timeoutMs ms waiting for $what; latest state: $latest")
                    }
                    changed.awaitNanos(remaining)
                    latest = states.lastOrNull()
                }
                return latest
            }
        }
    }
}

/** Discover over the embedded catalog (it settles: its effects end). */
object DiscoverTest : Suite("discover") {
    init {
        test("task loads 9 sections; loadMore(\"comedy\") appends a page; refresh reloads") {
            withRuntime(null) { runtime ->
                runtime.openDiscover().use { discover ->
                    discover.task()
                    discover.settle(30_000)
                    val state = discover.state
                    expectEqual(9, state.sections.size, "number of sections")
                    expectEqual(DiscoverState.SECTIONS, state.sections.map { it.section }, "section names")
                    val popular = state["popular"]!!
                    expect(popular.movies is Phase.Loaded) { "popular: ${popular.movies}" }
                    expectEqual(20, popular.loadedMovies.size, "popular movies")
                    val comedy = state["comedy"]!!
                    expectEqual(20, comedy.loadedMovies.size, "Comedy movies before loadMore")

                    discover.loadMore("comedy")
                    discover.settle(30_000)
                    val more = discover.state["comedy"]!!
                    expectEqual(40, more.loadedMovies.size, "Comedy movies after loadMore")
                    expectEqual(2, more.pagesLoaded, "Comedy pages loaded")
                    expectEqual(comedy.loadedMovies, more.loadedMovies.take(20), "Comedy's first page after loadMore")
                    expectEqual(40, more.loadedMovies.map { it.id }.toSet().size, "distinct Comedy movies")
                    expectEqual(20, discover.state["popular"]!!.loadedMovies.size, "popular movies after loadMore(\"comedy\")")

                    discover.refresh()
                    discover.settle(30_000)
                    val refreshed = discover.state["comedy"]!!
                    expectEqual(1, refreshed.pagesLoaded, "Comedy pages loaded after refresh")
                    expectEqual(comedy.loadedMovies, refreshed.loadedMovies, "Comedy movies after refresh")
                }
            }
        }
    }
}
