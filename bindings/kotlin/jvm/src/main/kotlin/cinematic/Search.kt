package cinematic

/**
 * A film as the library describes it: `{"id":20545,"title":"The Godfather","year":1972,
 * "runtime":175,"rating":9.1,"votes":122755,"genres":["Drama"],"mpaa":null}`.
 */
data class Movie(
    /** The catalog id. */
    val id: Long,
    /** The title, article in front ("The Godfather"). */
    val title: String,
    /** Release year (0 when unknown). */
    val year: Int = 0,
    /** Running time in minutes (0 when unknown). */
    val runtime: Int = 0,
    /** Average rating, 0...10. */
    val rating: Double = 0.0,
    /** Number of votes behind [rating]. */
    val votes: Long = 0,
    /** Genres among Action, Animation, Comedy, Drama, Documentary, Romance, Short. */
    val genres: List<String> = emptyList(),
    /** MPAA rating, null when unknown. */
    val mpaa: String? = null
) {
    /** This movie as the library's JSON (what a host provider answers with). */
    fun toJson(): String = Json.write(linkedMapOf(
        "id" to id, "title" to title, "year" to year, "runtime" to runtime, "rating" to rating,
        "votes" to votes, "genres" to genres, "mpaa" to mpaa))

    /** "Title (year)". */
    override fun toString(): String = if (year > 0) "$title ($year)" else title

    companion object {
        /** Reads a movie from its parsed JSON object. */
        fun fromMap(map: Map<*, *>): Movie = Movie(
            id = (map["id"] as Number).toLong(),
            title = map["title"] as String,
            year = (map["year"] as? Number)?.toInt() ?: 0,
            runtime = (map["runtime"] as? Number)?.toInt() ?: 0,
            rating = (map["rating"] as? Number)?.toDouble() ?: 0.0,
            votes = (map["votes"] as? Number)?.toLong() ?: 0,
            genres = (map["genres"] as? List<*>)?.map { it as String } ?: emptyList(),
            mpaa = map["mpaa"] as? String)
    }
}

/** A typed failure: [code] is one of "network", "notFound", "invalidResponse", "storage". */
data class MovieError(val code: String, val message: String)

/**
 * A loading phase: `{"phase":"idle"}`, `{"phase":"loading"}`,
 * `{"phase":"loaded","value":...}` or `{"phase":"failed","error":{...}}`.
 */
sealed class Phase<out T> {
    /** Nothing requested. */
    object Idle : Phase<Nothing>() { override fun toString() = "Idle" }
    /** A request is in flight. */
    object Loading : Phase<Nothing>() { override fun toString() = "Loading" }
    /** The request succeeded with [value]. */
    data class Loaded<out T>(val value: T) : Phase<T>()
    /** The request failed with a typed [error]. */
    data class Failed(val error: MovieError) : Phase<Nothing>()

    /** The phase's wire name: "idle", "loading", "loaded" or "failed". */
    val name: String
        get() = when (this) {
            is Idle -> "idle"
            is Loading -> "loading"
            is Loaded -> "loaded"
            is Failed -> "failed"
        }

    companion object {
        /** Reads a phase from its parsed JSON object, decoding a loaded value with [value]. */
        fun <T> fromMap(map: Map<*, *>, value: (Any?) -> T): Phase<T> = when (val phase = map["phase"]) {
            "idle" -> Idle
            "loading" -> Loading
            "loaded" -> Loaded(value(map["value"]))
            "failed" -> {
                val error = map["error"] as Map<*, *>
                Failed(MovieError(error["code"] as String, error["message"] as? String ?: ""))
            }
            else -> throw IllegalArgumentException("unknown phase $phase")
        }
    }
}

/**
 * The Search feature's state: `{"query":"dune","results":<phase of [movie, ...]>}`.
 *
 * ```
 * val results = store.searchState.results
 * if (results is Phase.Loaded) results.value.forEach { println(it) }   // Dune (1984) ...
 * ```
 */
data class SearchState(
    /** The query as typed. */
    val query: String,
    /** The results of the last search for it. */
    val results: Phase<List<Movie>>
) {
    /** The loaded movies, or an empty list in any other phase. */
    val movies: List<Movie>
        get() = (results as? Phase.Loaded)?.value ?: emptyList()

    companion object {
        /** Parses a search state from the library's JSON. */
        fun fromJson(json: String): SearchState {
            val map = Json.parse(json) as Map<*, *>
            val results = Phase.fromMap(map["results"] as Map<*, *>) { value ->
                (value as List<*>).map { Movie.fromMap(it as Map<*, *>) }
            }
            return SearchState(map["query"] as String, results)
        }
    }
}

/** This (search) store's current state, parsed. */
val Store.searchState: SearchState
    get() = SearchState.fromJson(state)
