package cinematic

// Status and WireVersion are generated from the schema (common source set, Wire.kt).

/**
 * Library-wide facts: the loaded library's version and the names of statuses.
 *
 * ```
 * println("libcinematic ${Cinematic.version}")   // 0.2.0
 * Cinematic.statusName(Status.INVALID)           // "invalid"
 * ```
 */
object Cinematic {
    /** The version this binding was written against (the header's `CINEMATIC_VERSION`). */
    const val BINDING_VERSION = WireVersion.VERSION

    /** The loaded library's version, e.g. "0.2.0" (`cinematic_version`). */
    val version: String
        get() = CLib.cinematic_version()?.readUtf8() ?: ""

    /** The name of [status], e.g. "invalid"; "unknown" for a value that is no status. */
    fun statusName(status: Int): String = CLib.cinematic_status_name(status)?.readUtf8() ?: "unknown"

    /**
     * Replays the recording at [path] (made with the runtime config `"record": path`) in a
     * fresh runtime with a manual clock, every catalog and favorites request answered from
     * the recording, and compares every state the stores produce with the recorded one
     * (`cinematic_replay`). Blocks the calling thread until the replay ends; not from inside
     * a callback. A replay that diverges is a result ([ReplayReport.matched] false, with the
     * first [ReplayReport.divergence]: recorded and replayed state side by side), not an
     * exception.
     *
     * ```
     * val report = Cinematic.replay("/tmp/session.jsonl")
     * if (!report.matched) println(report.divergence)
     * ```
     *
     * @throws CinematicException "io" when [path] cannot be read; "json"/"invalid" for a
     *   malformed recording (the message names the line); "too_large"; "misuse" from inside
     *   a callback.
     */
    fun replay(path: String): ReplayReport = ReplayReport.fromJson(replayJson(path))

    /**
     * [replay], with the library's report as JSON text:
     * `{"matched":true,"lines":42,"stores":3,"states":17}` or
     * `{"matched":false,"states":5,"divergence":{"line":31,"store":2,"feature":"search",...}}`.
     *
     * @throws CinematicException as [replay].
     */
    fun replayJson(path: String): String =
        ownedJson("replay report") { out -> CLib.cinematic_replay(cString(path, Status.IO, "the recording path"), null, out) }
            .also { WireLog.record("replay", null, it) }

    /**
     * Builds a catalog index at [indexPath] from the movie file at [moviePath] (the shipped
     * TSV's columns, docs/catalog-index.md; null: the catalog built into the library), to open
     * with `Runtime("""{"catalog":{"path":"..."}}""")` (`cinematic_catalog_build_index`).
     * Written to a temporary file and renamed: the path never holds half an index. Blocks
     * for the build.
     *
     * @throws CinematicException "io" (unreadable or malformed movie file, naming the line;
     *   index not writable), "invalid" (empty path).
     */
    fun buildIndex(moviePath: String?, indexPath: String) {
        CLib.load()
        checkStatus(CLib.cinematic_catalog_build_index(moviePath?.let { cString(it, Status.IO, "the movie file path") },
            cString(indexPath, Status.IO, "the index path")))
    }
}

/**
 * A failed libcinematic call: the [status] code, its [statusName] ("json", "invalid",
 * "unknown_feature", "closed", ...) and the library's [message] from `cinematic_last_error`.
 * [envelope] is that error's full JSON text; [path] names the offending member for "invalid"
 * errors (e.g. "$.query"), [line] and [column] locate malformed JSON.
 *
 * ```
 * try { store.send("""{"type":"explode"}""") }
 * catch (e: CinematicException) { println("${e.statusName}: ${e.message}") }
 * ```
 */
class CinematicException(
    /** The status code, one of the [Status] constants. */
    val status: Int,
    /** The status name, e.g. "invalid". */
    val statusName: String,
    /** The library's message describing the failure. */
    override val message: String,
    /** The JSON error envelope from `cinematic_last_error`, when the library gave one. */
    val envelope: String? = null
) : RuntimeException("$statusName: $message") {

    private val details: Map<*, *> by lazy {
        envelope?.let { runCatching { Json.parse(it) as? Map<*, *> }.getOrNull() } ?: emptyMap<String, Any?>()
    }

    /** The JSON path of the offending member ("invalid" errors), e.g. "$.query". */
    val path: String? get() = details["path"] as? String

    /** The line of a JSON syntax error ("json" errors). */
    val line: Int? get() = (details["line"] as? Number)?.toInt()

    /** The column of a JSON syntax error ("json" errors). */
    val column: Int? get() = (details["column"] as? Number)?.toInt()

    override fun toString(): String = "CinematicException($statusName: $message)"

    internal companion object {
        /** Builds the exception for [status] from this thread's `cinematic_last_error`. */
        fun fromLastError(status: Int): CinematicException {
            val envelope = CLib.cinematic_last_error()?.readUtf8() // read first: nothing may run in between
            WireLog.record("envelope", null, envelope)
            val name = Cinematic.statusName(status)
            val message = envelope?.let { runCatching { (Json.parse(it) as? Map<*, *>)?.get("message") as? String }.getOrNull() }
            return CinematicException(status, name, message ?: envelope ?: "failed with status $status ($name)", envelope)
        }
    }
}
