package cinematic

// Typed helpers for the "discover", "favorites" and "detail" features: one function per
// intent a host may send, and the features' states parsed into data classes. Like
// Store.queryChanged / Store.submitted / Store.searchState for "search", they only build
// the intent JSON or read the state JSON; the library checks that the intent fits the store
// (an intent of another feature raises CinematicException "invalid").

// --------------------------------------------------------------------------------------
// Intents

/**
 * Discover, Favorites, Detail: the screen appeared (`{"type":"task"}`).
 *
 * - discover: loads every idle or failed section, concurrently (sections loading or loaded
 *   are left alone); [Store.settle] waits for them.
 * - favorites: starts observing the runtime's favorites.
 * - detail: loads the movie and starts observing the favorites.
 *
 * Favorites and detail stores keep observing afterwards, so they never settle: wait for
 * their states ([Store.subscribe]) instead of calling [Store.settle].
 *
 * @throws CinematicException "invalid" for a store whose feature has no "task" (search); "closed".
 */
fun Store.task() = send("{\"type\":\"task\"}")

/**
 * Detail: the user toggled the favorite (`{"type":"favoriteToggled"}`). The flag flips at
 * once (optimistic; [DetailState.isFavorite] shows it when this returns, unless the write
 * already failed); if the write fails it rolls back and [DetailState.favoriteError] carries a
 * "storage" error. Ignored until the movie has loaded.
 *
 * @throws CinematicException "invalid" for a store other than detail; "closed".
 */
fun Store.toggleFavorite() = send("{\"type\":\"favoriteToggled\"}")

/**
 * Favorites: the user removed the favorite [movieId] (`{"type":"removed","movieId":15249}`).
 * A failed removal shows in [FavoritesState.removalError].
 *
 * @throws CinematicException "invalid" for a store other than favorites; "closed".
 */
fun Store.remove(movieId: Long) = send("{\"type\":\"removed\",\"movieId\":$movieId}")

/**
 * Discover: reloads every section, cancelling what is in flight (`{"type":"refresh"}`).
 *
 * @throws CinematicException "invalid" for a store other than discover; "closed".
 */
fun Store.refresh() = send("{\"type\":\"refresh\"}")

/**
 * Discover: appends the next page of [section] (`{"type":"loadMore","section":"comedy"}`);
 * ignored while the section is loading or exhausted. [section] is one of
 * [DiscoverState.SECTIONS].
 *
 * @throws CinematicException "invalid" for an unknown section or a store other than
 *   discover; "closed".
 */
fun Store.loadMore(section: String) = send("{\"type\":\"loadMore\",\"section\":${Json.quote(section)}}")

/** Search: appends the next 20 results (`{"type":"loadMore"}`). */
fun Store.loadMore() = send("{\"type\":\"loadMore\"}")

// --------------------------------------------------------------------------------------
// States: generated from the schema (Wire.kt); these read better than raw JSON.

/** The movie part of a detail. */
val MovieDetail.movie: Movie
    get() = Movie(id, title, year, runtime, rating, votes, genres, mpaa)

/** The loaded movie, or null in any other phase. */
val DetailState.movie: Movie?
    get() = (detail as? Phase.Loaded)?.value?.movie

/** The loaded favorites, or an empty list in any other phase. */
val FavoritesState.movies: List<Movie>
    get() = (favorites as? Phase.Loaded)?.value ?: emptyList()

/** The loaded movies of a section, or an empty list in any other phase. */
val DiscoverSection.loadedMovies: List<Movie>
    get() = (movies as? Phase.Loaded)?.value ?: emptyList()

/** The section with id [id] ("popular", "comedy"), or null. */
operator fun DiscoverState.get(id: String): DiscoverSection? = sections.firstOrNull { it.section == id }

/** The section ids, in order: "popular", "topRated", then one per genre ("comedy"). */
val DiscoverState.Companion.SECTIONS: List<String>
    get() = SectionId.values

/** This (detail) store's current state, parsed. */
val Store.detailState: DetailState
    get() = DetailState.fromJson(state)

/** This (favorites) store's current state, parsed. */
val Store.favoritesState: FavoritesState
    get() = FavoritesState.fromJson(state)

/** This (discover) store's current state, parsed. */
val Store.discoverState: DiscoverState
    get() = DiscoverState.fromJson(state)
