package cinematic

// Hand-written readers over the generated states (Wire.kt): what reads better than the wire's
// shape. The stores, their send helpers and their state decoders are generated (Features.kt).

/** The results as a [Phase] (the query they answer is [resultsQuery]). */
val SearchState.phase: Phase<List<Movie>>
    get() = when (val r = results) {
        is ResultsLoading -> Phase.Loading
        is ResultsLoaded -> Phase.Loaded(r.value, r.source, r.cachedAt)
        is ResultsFailed -> Phase.Failed(r.error)
        else -> Phase.Idle
    }

/** The query the results answer (null while idle): older than [SearchState.query] while the
 *  user types on. */
val SearchState.resultsQuery: String?
    get() = when (val r = results) {
        is ResultsLoading -> r.query
        is ResultsLoaded -> r.query
        is ResultsFailed -> r.query
        else -> null
    }

/** The loaded movies, or an empty list in any other phase. */
val SearchState.movies: List<Movie>
    get() = (results as? ResultsLoaded)?.value ?: emptyList()

/** "Title (year)". */
val Movie.label: String
    get() = if (year > 0) "$title ($year)" else title

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
