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
 * Discover: appends the next page of [section] (`{"type":"loadMore","section":"Comedy"}`);
 * ignored while the section is loading or exhausted. [section] is one of
 * [DiscoverState.SECTIONS].
 *
 * @throws CinematicException "invalid" for an unknown section or a store other than
 *   discover; "closed".
 */
fun Store.loadMore(section: String) = send("{\"type\":\"loadMore\",\"section\":${Json.quote(section)}}")

// --------------------------------------------------------------------------------------
// States

/** Reads an optional `{"code":...,"message":...}` member. */
private fun errorOrNull(value: Any?): MovieError? = (value as? Map<*, *>)?.let {
    MovieError(it["code"] as String, it["message"] as? String ?: "")
}

/** Reads a `<phase of [movie, ...]>` member. */
private fun moviesPhase(value: Any?): Phase<List<Movie>> = Phase.fromMap(value as Map<*, *>) { list ->
    (list as List<*>).map { Movie.fromMap(it as Map<*, *>) }
}

/**
 * A movie's detail: the [movie] plus its [budget] (dollars, null when unknown) and its
 * [ratingDistribution] (10 numbers: the share of votes, in percent binned to 10 %, for
 * 1...10 stars).
 */
data class MovieDetail(
    /** The movie itself. */
    val movie: Movie,
    /** The budget in dollars, null when unknown. */
    val budget: Long?,
    /** The share of votes for 1...10 stars, in percent. */
    val ratingDistribution: List<Double>
) {
    companion object {
        /** Reads a detail from its parsed JSON object. */
        fun fromMap(map: Map<*, *>): MovieDetail = MovieDetail(
            movie = Movie.fromMap(map),
            budget = (map["budget"] as? Number)?.toLong(),
            ratingDistribution = (map["ratingDistribution"] as? List<*>)?.map { (it as Number).toDouble() } ?: emptyList())
    }
}

/**
 * The Detail feature's state: `{"movieId":15249,"detail":<phase of detail>,
 * "isFavorite":false,"isSaving":false,"favoriteError":null}`.
 *
 * ```
 * detail.task()
 * val movie = detail.detailState.movie        // Dune (1984) once loaded, else null
 * ```
 */
data class DetailState(
    /** The movie id the store was opened with. */
    val movieId: Long,
    /** The movie's detail; failed with "notFound" for an unknown id. */
    val detail: Phase<MovieDetail>,
    /** Whether the movie is a favorite (optimistic while a toggle is being saved). */
    val isFavorite: Boolean,
    /** True while a toggle is being written. */
    val isSaving: Boolean,
    /** The last failed toggle ("storage"), or null. */
    val favoriteError: MovieError?
) {
    /** The loaded movie, or null in any other phase. */
    val movie: Movie?
        get() = (detail as? Phase.Loaded)?.value?.movie

    companion object {
        /** Parses a detail state from the library's JSON. */
        fun fromJson(json: String): DetailState {
            val map = Json.parse(json) as Map<*, *>
            return DetailState(
                movieId = (map["movieId"] as Number).toLong(),
                detail = Phase.fromMap(map["detail"] as Map<*, *>) { MovieDetail.fromMap(it as Map<*, *>) },
                isFavorite = map["isFavorite"] as Boolean,
                isSaving = map["isSaving"] as? Boolean ?: false,
                favoriteError = errorOrNull(map["favoriteError"]))
        }
    }
}

/**
 * The Favorites feature's state: `{"favorites":<phase of [movie, ...]>,"removalError":null}`,
 * most recently added first.
 */
data class FavoritesState(
    /** The favorite movies, most recently added first (idle until [task]). */
    val favorites: Phase<List<Movie>>,
    /** The last failed removal ("storage"), or null. */
    val removalError: MovieError?
) {
    /** The loaded favorites, or an empty list in any other phase. */
    val movies: List<Movie>
        get() = (favorites as? Phase.Loaded)?.value ?: emptyList()

    companion object {
        /** Parses a favorites state from the library's JSON. */
        fun fromJson(json: String): FavoritesState {
            val map = Json.parse(json) as Map<*, *>
            return FavoritesState(moviesPhase(map["favorites"]), errorOrNull(map["removalError"]))
        }
    }
}

/**
 * One Discover section: `{"section":"popular","movies":<phase of [movie, ...]>,
 * "pagesLoaded":1,"isExhausted":false,"isLoadingMore":false,"loadMoreError":null}`.
 */
data class DiscoverSection(
    /** The section's name, one of [DiscoverState.SECTIONS]. */
    val section: String,
    /** Its movies (every page loaded so far; stays loaded while a next page loads). */
    val movies: Phase<List<Movie>>,
    /** How many pages of 20 movies are loaded. */
    val pagesLoaded: Int,
    /** True when there is no next page. */
    val isExhausted: Boolean,
    /** True while a next page loads. */
    val isLoadingMore: Boolean,
    /** The failure of the last next page, or null. */
    val loadMoreError: MovieError?
) {
    /** The loaded movies, or an empty list in any other phase. */
    val loadedMovies: List<Movie>
        get() = (movies as? Phase.Loaded)?.value ?: emptyList()

    companion object {
        /** Reads a section from its parsed JSON object. */
        fun fromMap(map: Map<*, *>): DiscoverSection = DiscoverSection(
            section = map["section"] as String,
            movies = moviesPhase(map["movies"]),
            pagesLoaded = (map["pagesLoaded"] as? Number)?.toInt() ?: 0,
            isExhausted = map["isExhausted"] as? Boolean ?: false,
            isLoadingMore = map["isLoadingMore"] as? Boolean ?: false,
            loadMoreError = errorOrNull(map["loadMoreError"]))
    }
}

/**
 * The Discover feature's state: `{"sections":[<section>, ...]}`, in the order of [SECTIONS].
 *
 * ```
 * discover.task()
 * discover.settle(10_000)
 * discover.discoverState["popular"]?.loadedMovies   // the 20 most voted films
 * ```
 */
data class DiscoverState(
    /** Every section, in order. */
    val sections: List<DiscoverSection>
) {
    /** The section named [name], or null. */
    operator fun get(name: String): DiscoverSection? = sections.firstOrNull { it.section == name }

    companion object {
        /** The section names, in order: "popular", "topRated", then one per genre. */
        val SECTIONS: List<String> = listOf(
            "popular", "topRated", "Action", "Animation", "Comedy", "Drama", "Documentary", "Romance", "Short")

        /** Parses a discover state from the library's JSON. */
        fun fromJson(json: String): DiscoverState {
            val map = Json.parse(json) as Map<*, *>
            return DiscoverState((map["sections"] as List<*>).map { DiscoverSection.fromMap(it as Map<*, *>) })
        }
    }
}

/** This (detail) store's current state, parsed. */
val Store.detailState: DetailState
    get() = DetailState.fromJson(state)

/** This (favorites) store's current state, parsed. */
val Store.favoritesState: FavoritesState
    get() = FavoritesState.fromJson(state)

/** This (discover) store's current state, parsed. */
val Store.discoverState: DiscoverState
    get() = DiscoverState.fromJson(state)
