package cinematic

// The wire types (Movie, MovieError, SearchState, ...) are generated from the schema into the
// shared source set (Wire.kt); this file adds what reads better than raw JSON.

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

/** This (search) store's current state, parsed. */
val Store.searchState: SearchState
    get() = SearchState.fromJson(state)
