package cinematic

// Status and WireVersion are generated from the schema (Wire.kt).

/**
 * Library-wide facts: the loaded library's version and the names of statuses.
 *
 * ```
 * println("libcinematic ${Cinematic.version}")   // 0.3.0
 * Cinematic.statusName(Status.INVALID)           // "invalid"
 * ```
 */
object Cinematic {
    /** The version this binding was written against (the header's `CINEMATIC_VERSION`). */
    const val BINDING_VERSION = WireVersion.VERSION

    /** The loaded library's version, e.g. "0.3.0" (`cinematic_version`). */
    val version: String
        get() = nativeLibrary.version() ?: ""

    /** The name of [status], e.g. "invalid"; "unknown" for a value that is no status. */
    fun statusName(status: Int): String = nativeLibrary.statusName(status) ?: "unknown"

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
        ownedJson("replay report") { out -> nativeLibrary.replay(cText(path, Status.IO, "the recording path"), out) }
            .also { nativeLibrary.record("replay", null, it) }

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
        checkStatus(nativeLibrary.catalogBuildIndex(moviePath?.let { cText(it, Status.IO, "the movie file path") },
            cText(indexPath, Status.IO, "the index path")))
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
        /** The exception for [status] (named as the generated [Status.names] say) with [message]. */
        fun of(status: Int, message: String) = CinematicException(status, Status.names[status] ?: "unknown", message)

        /** Builds the exception for [status] from this thread's `cinematic_last_error`. */
        fun fromLastError(status: Int): CinematicException {
            val envelope = nativeLibrary.lastError() // read first: nothing may run in between
            envelope?.let { nativeLibrary.record("envelope", null, it) }
            val name = Cinematic.statusName(status)
            val message = envelope?.let { runCatching { (Json.parse(it) as? Map<*, *>)?.get("message") as? String }.getOrNull() }
            return CinematicException(status, name, message ?: envelope ?: "failed with status $status ($name)", envelope)
        }
    }
}

/**
 * Throws the [CinematicException] for [status] unless it is `CINEMATIC_OK`. Must be called
 * right after the failing call, on the same thread, so that `cinematic_last_error` still
 * describes it.
 */
internal fun checkStatus(status: Int) {
    if (status != Status.OK) throw CinematicException.fromLastError(status)
}

/**
 * Runs [call], which hands out a string through its out-pointer, and takes that string: on
 * failure the library's error is read first (before `cinematic_free`, which would clear it);
 * the string is copied, then released with `cinematic_free` (never anything else).
 */
internal fun ownedJson(what: String, call: (LongArray) -> Int): String {
    val out = LongArray(1)
    val status = call(out)
    val failure = if (status != Status.OK) CinematicException.fromLastError(status) else null
    val pointer = out[0]
    val json = if (pointer == 0L) null else try {
        nativeLibrary.readString(pointer)
    } finally {
        nativeLibrary.free(pointer)
    }
    if (failure != null) throw failure
    return json ?: throw CinematicException.of(Status.MISUSE, "the library returned no $what")
}

/** Runs [call], which hands out a handle through its out-pointer, and returns it. */
internal fun openedHandle(what: String, call: (LongArray) -> Int): Long {
    val out = LongArray(1)
    checkStatus(call(out))
    return out[0].takeIf { it != 0L } ?: throw CinematicException.of(Status.MISUSE, "the library returned no $what")
}

/**
 * [text] for a `const char *` argument. C strings cannot contain NUL, so a string with one is
 * refused here (with [nulStatus]) instead of being silently cut short.
 */
internal fun cText(text: String, nulStatus: Int, what: String): String {
    if (text.indexOf('\u0000') >= 0) {
        throw CinematicException(nulStatus, Cinematic.statusName(nulStatus), "$what contains a NUL character")
    }
    return text
}

/** A JSON document for a `const char *` argument (a NUL inside makes it malformed JSON: "json"). */
internal fun jsonText(json: String): String = cText(json, Status.JSON, "the JSON text")

/** Bookkeeping for callbacks running on the current thread. */
internal object Delivery {
    /** True while a libcinematic callback runs on this thread. */
    val insideCallback: Boolean get() = CallbackDepth.value > 0

    /** Runs a host callback: marks the thread and keeps exceptions out of the library. */
    fun run(runtime: Runtime, body: () -> Unit) {
        CallbackDepth.value++
        try {
            body()
        } catch (error: Throwable) {
            runtime.reportCallbackError(error)
        } finally {
            CallbackDepth.value--
        }
    }
}
