package cinematic

// Written by hand until tools/wiregen.py writes the schema's map-valued defs: `appPositions`
// is an object whose members are list ids (`additionalProperties`: a `listPosition`), a
// shape the generator skips while Wire.kt's AppState and AppSnapshot name its type. Delete
// this file once Wire.kt declares AppPositions itself (the compiler then says so).

/**
 * Where the person is in each list they moved in (`AppState.positions`, `AppSnapshot.positions`),
 * by list id: `"search"`, `"favorites"` or a Discover section id (`"comedy"`).
 *
 * ```
 * val here = app.state.positions["search"]   // ListPosition(selection=2, firstVisible=0), or null
 * ```
 */
data class AppPositions(
    /** Each list's position, by list id, in the order the library wrote them. */
    val byList: Map<String, ListPosition> = emptyMap()
) {
    /** The position in list [list], or null when the person has not moved in it. */
    operator fun get(list: String): ListPosition? = byList[list]

    /** This value as JSON-ready maps and lists (write it with [Json.write]). */
    fun toJson(): Map<String, Any?> = LinkedHashMap<String, Any?>().apply { byList.forEach { (list, position) -> put(list, position.toJson()) } }

    companion object {
        /** Reads AppPositions from JSON text or from [Json.parse]'s result. */
        fun fromJson(value: Any?): AppPositions {
            val map = (if (value is String) Json.parse(value) else value) as Map<*, *>
            val byList = LinkedHashMap<String, ListPosition>()
            for ((list, position) in map) byList[list as String] = ListPosition.fromJson(position)
            return AppPositions(byList)
        }
    }
}
