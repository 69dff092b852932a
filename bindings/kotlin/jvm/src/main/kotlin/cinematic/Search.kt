package cinematic

// The wire types (Movie, MovieError, SearchState, ...) are generated from the schema into the
// shared source set (Wire.kt); this file adds what reads better than raw JSON.

/** The loaded movies, or an empty list in any other phase. */
val SearchState.movies: List<Movie>
    get() = (results as? Phase.Loaded)?.value ?: emptyList()

/** "Title (year)". */
val Movie.label: String
    get() = if (year > 0) "$title ($year)" else title

/** This (search) store's current state, parsed. */
val Store.searchState: SearchState
    get() = SearchState.fromJson(state)
