package cinematic

/**
 * A loading phase: `{"phase":"idle"}`, `{"phase":"loading"}`,
 * `{"phase":"loaded","value":...}` or `{"phase":"failed","error":{...}}`. The generated
 * states (Wire.kt) use it for every phase the schema declares, typed by what loads.
 *
 * ```
 * val results = store.searchState.results
 * if (results is Phase.Loaded) results.value.forEach { println(it.title) }
 * ```
 */
sealed class Phase<out T> {
    /** Nothing requested. */
    object Idle : Phase<Nothing>() { override fun toString() = "Idle" }
    /** A request is in flight. */
    object Loading : Phase<Nothing>() { override fun toString() = "Loading" }
    /**
     * The request succeeded with [value]. From a host catalog, [source] says where it came
     * from ("live", or "cache" with [cachedAt] in Unix seconds); null for the embedded catalog.
     */
    data class Loaded<out T>(val value: T, val source: String? = null, val cachedAt: Long? = null) : Phase<T>()
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

    /** This phase as JSON-ready maps, the loaded value written with [value]. */
    fun toJson(value: (T) -> Any?): Map<String, Any?> = when (this) {
        is Idle, is Loading -> linkedMapOf("phase" to name)
        is Loaded -> linkedMapOf<String, Any?>("phase" to name, "value" to value(this.value)).also { map ->
            source?.let { map["source"] = it }
            cachedAt?.let { map["cachedAt"] = it }
        }
        is Failed -> linkedMapOf("phase" to name, "error" to error.toJson())
    }

    companion object {
        /** Reads a phase from JSON text or a parsed map, decoding a loaded value with [value]. */
        fun <T> fromJson(json: Any?, value: (Any?) -> T): Phase<T> {
            val map = (if (json is String) Json.parse(json) else json) as Map<*, *>
            return when (val phase = map["phase"]) {
                "idle" -> Idle
                "loading" -> Loading
                "loaded" -> Loaded(value(map["value"]), map["source"] as String?, (map["cachedAt"] as Number?)?.toLong())
                "failed" -> Failed(MovieError.fromJson(map["error"]))
                else -> throw IllegalArgumentException("unknown phase $phase")
            }
        }
    }
}
