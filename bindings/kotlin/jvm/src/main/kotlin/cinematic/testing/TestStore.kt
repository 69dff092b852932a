package cinematic.testing

import cinematic.*

/**
 * Exhaustive, deterministic tests of any store (docs/testing.md), the Kotlin twin of Python's
 * `cinematic.testing.TestStore`: a runtime with a manual clock that only [advance] moves, a
 * host catalog the test scripts ([TestCatalog]), in-memory favorites and the debug history on.
 * Every step asserts exactly what changed, on the feature's typed state:
 *
 * ```
 * TestStore(SearchFeature).use { store ->
 *     store.catalog.search("dune", Movie(15249, "Dune", 1984))
 *     store.send(QueryChanged(query = "dune").toJson()) { it.copy(query = "dune") }
 *     store.advance(250)
 *     store.receive("searchNow") { it.copy(results = ResultsLoading(query = "dune")) }
 *     store.receive("resultsLoaded") {
 *         it.copy(results = ResultsLoaded(query = "dune", value = listOf(Movie(15249, "Dune", 1984)), source = "live"),
 *                 pagesLoaded = 1, isExhausted = true)
 *     }
 *     store.finish()
 * }
 * ```
 *
 * [send] sends a host intent; [receive] takes the next intent an effect fed back (from the
 * store's history, waiting for it, bounded); both then compare the state after that intent
 * with the expected one, the previous expected state passed through `changes` (a function
 * returning the new expected state: `copy(...)`). Any difference throws [TestStoreFailure]
 * with a diff naming members and list positions. [finish] fails while effects still run or
 * fed-back intents were not received. `exhaustive = false` checks only what `changes`
 * changed, lets [receive] skip other intents and [finish] leave them.
 *
 * A composed store (the app) feeds back its parts' results wrapped, e.g.
 * `{"type":"searchResult","intent":{"type":"resultsLoaded",...}}`: [receive] takes
 * `"searchResult"`, or `"searchResult.resultsLoaded"` to name the part's intent too.
 *
 * ```
 * TestStore(AppFeature).use { app ->
 *     app.catalog.search("alien", Movie(1652, "Alien", 1979))
 *     app.send(AppQueryChanged(query = "alien").toJson()) { it.copy(search = it.search.copy(query = "alien")) }
 *     app.advance(250)
 *     app.receive("searchResult.searchNow") { it.copy(search = it.search.copy(results = ResultsLoading(query = "alien"))) }
 *     ...
 * }
 * ```
 */
class TestStore<S, T : Store<S>>(
    /** The feature under test, e.g. [SearchFeature]. */
    val feature: Feature<S, T>,
    args: Map<String, Any?>? = null,
    runtime: TestRuntime? = null,
    /** false: only what each step changes is compared (see the class documentation). */
    val exhaustive: Boolean = true,
    config: Map<String, Any?> = emptyMap()
) : AutoCloseable {
    private val ownsRuntime = runtime == null
    /** The test runtime (its clock and catalog), shared when given. */
    val testRuntime: TestRuntime = runtime ?: TestRuntime(config, exhaustive)
    /** The store itself. */
    val store: T = testRuntime.runtime.open(feature, args?.let { Json.write(it) })
    /** The store's serial, as the log names it (`search#2`): handles are serial << 2 | kind. */
    internal val serial: Long = store.handle ushr 2
    private var expected: S = store.state
    private var seen = 0
    private var finished = false

    init {
        testRuntime.stores.add(this)
    }

    /** The expected state so far. */
    val state: S get() = expected

    /** The runtime's scripted catalog. */
    val catalog: TestCatalog get() = testRuntime.catalog

    /** Moves the manual clock (see [TestRuntime.advance]). */
    fun advance(ms: Long) = testRuntime.advance(ms)

    /**
     * Sends the host [intent] (e.g. `QueryChanged(query = "dune").toJson()`) and asserts the
     * state after it: [changes] applied to the expected state. Exhaustive: first fails if
     * fed-back intents wait to be received.
     */
    fun send(intent: Map<String, Any?>, changes: (S) -> S = { it }) {
        val label = "send(${Json.write(intent)})"
        if (exhaustive) {
            val waiting = newEntries()
            if (waiting.isNotEmpty()) fail(label, "${waiting.size} intent(s) fed back by effects must be received first: " +
                waiting.joinToString { Json.write(it.intent) })
        }
        store.send(intent)
        val entries = newEntries()
        val sent = Json.parse(Json.write(intent))
        val mine = entries.indexOfFirst { it.intent == sent }
        if (mine < 0) fail(label, "the intent is not in the store's history")
        if (!exhaustive) expected = stateBefore(entries[mine])
        else if (mine > 0) fail(label, "$mine intent(s) were fed back while it was sent; receive them first: " +
            entries.take(mine).joinToString { Json.write(it.intent) })
        seen = entries[mine].seq
        check(label, entries[mine], changes)
    }

    /**
     * Asserts the next intent an effect fed back is of [type] (e.g. "resultsLoaded"; for a
     * composed store's wrapped intents "searchResult" or "searchResult.resultsLoaded", the
     * wrapper's type then its `intent`'s), waiting for it (bounded), and the state after it:
     * [changes] applied to the expected state. Non-exhaustive: skips fed-back intents of other
     * types. Returns the intent.
     */
    fun receive(type: String, timeoutMs: Long = testRuntime.timeoutMs, changes: (S) -> S = { it }): Map<String, Any?> {
        val label = "receive($type)"
        val entries = testRuntime.await(timeoutMs) {
            val fresh = newEntries()
            when {
                exhaustive -> fresh.takeIf { it.isNotEmpty() }
                fresh.any { isOfType(it.intent, type) } -> fresh
                else -> null
            }
        } ?: fail(label, "no intent was fed back within $timeoutMs ms; effects running: " +
            "${testRuntime.runningEffects(serial).ifEmpty { "none" }}; catalog requests waiting: ${catalog.pending.ifEmpty { "none" }}")
        val entry = if (exhaustive) entries.first().also {
            if (!isOfType(it.intent, type)) fail(label, "the next intent fed back was ${Json.write(it.intent)}")
        } else entries.first { isOfType(it.intent, type) }.also { expected = stateBefore(it) }
        seen = entry.seq
        check(label, entry, changes)
        return entry.intent
    }

    /**
     * Asserts the next fed-back intents are exactly [types] (named as [receive] names them),
     * in any order (effects that run concurrently), and the state after the last of them.
     */
    fun receiveAll(types: List<String>, timeoutMs: Long = testRuntime.timeoutMs, changes: (S) -> S = { it }): List<Map<String, Any?>> {
        val label = "receiveAll(${types.joinToString()})"
        val entries = testRuntime.await(timeoutMs) { newEntries().takeIf { it.size >= types.size } }
            ?: fail(label, "${newEntries().size} of ${types.size} intents were fed back within $timeoutMs ms: " +
                newEntries().joinToString { Json.write(it.intent) }.ifEmpty { "none" })
        val taken = entries.take(types.size)
        val left = types.toMutableList()
        for (entry in taken) {
            val match = left.firstOrNull { isOfType(entry.intent, it) }
                ?: fail(label, "fed back ${Json.write(entry.intent)}, not one of the intents still expected (${left.joinToString()})")
            left.remove(match)
        }
        seen = taken.last().seq
        check(label, taken.last(), changes)
        return taken.map { it.intent }
    }

    /** Fails if an effect fed back an intent not received yet (does not wait). */
    fun expectNothingReceived() {
        val waiting = newEntries()
        if (waiting.isNotEmpty()) fail("expectNothingReceived()", "${waiting.size} intent(s) were fed back: " +
            waiting.joinToString { Json.write(it.intent) })
    }

    /**
     * Fails if effects are still running (waiting, bounded, for those about to end) or
     * fed-back intents were not received; then closes the store (and its own runtime).
     * [stillRunning] names long-lived effects expected to run (`"detail.favorites"`).
     * Non-exhaustive: only closes.
     */
    fun finish(stillRunning: List<String> = emptyList(), timeoutMs: Long = if (stillRunning.isEmpty()) 1_000 else testRuntime.timeoutMs) {
        if (finished) return
        finished = true
        try {
            if (!exhaustive) return
            val wanted = stillRunning.sorted()
            val quiet = testRuntime.await(timeoutMs) {
                (store.pendingEffects == wanted.size && testRuntime.runningEffects(serial).sorted() == wanted).takeIf { it }
            }
            if (quiet == null) {
                val held = catalog.pending
                fail("finish()", "${store.pendingEffects} effect(s) still running after $timeoutMs ms: ${testRuntime.runningEffects(serial)}" +
                    (if (wanted.isNotEmpty()) " (expected only $wanted)" else "") +
                    (if (held.isNotEmpty()) "; catalog requests waiting for an answer: $held" else "") +
                    "; advance the clock, answer the requests, or name long-lived effects in finish(stillRunning = ...)")
            }
            val waiting = newEntries()
            if (waiting.isNotEmpty()) fail("finish()", "${waiting.size} intent(s) fed back by effects were not received: " +
                waiting.joinToString { Json.write(it.intent) })
        } finally {
            close()
        }
    }

    /** Closes the store (and its own runtime) without checking anything. */
    override fun close() {
        finished = true
        store.close()
        if (ownsRuntime) testRuntime.close()
    }

    internal val isFinished: Boolean get() = finished

    private fun newEntries(): List<HistoryEntry> = store.history.filter { it.seq > seen }

    /** True when [intent]'s type is [type]: "a", or "a.b" for an intent "a" wrapping an intent "b". */
    private fun isOfType(intent: Map<String, Any?>, type: String): Boolean {
        var current: Any? = intent
        for (name in type.split('.')) {
            val members = current as? Map<*, *> ?: return false
            if (members["type"] != name) return false
            current = members["intent"]
        }
        return true
    }

    private fun stateBefore(entry: HistoryEntry): S =
        store.history.lastOrNull { it.seq < entry.seq }?.let { feature.decodeState(Json.write(it.state)) } ?: expected

    private fun check(label: String, entry: HistoryEntry, changes: (S) -> S) {
        val actual = feature.decodeState(Json.write(entry.state))
        val previous = expected
        val wanted = changes(previous)
        val previousJson = feature.encodeState(previous)
        val actualJson = feature.encodeState(actual)
        // Members derived from the others (the app's view) are asserted only when a step names them.
        val wantedJson = feature.encodeState(wanted).mapValues { (member, value) ->
            if (member in DERIVED_MEMBERS && value == previousJson[member]) actualJson[member] else value
        }
        val differences = if (exhaustive) {
            if (wantedJson == actualJson) emptyList() else diff(wantedJson, actualJson)
        } else {
            val named = wantedJson.keys.filter { wantedJson[it] != previousJson[it] }
            diff(wantedJson.filterKeys { it in named }, actualJson.filterKeys { it in named })
        }
        if (differences.isNotEmpty() || (exhaustive && wantedJson != actualJson)) {
            val asserted = wantedJson.keys.filter { wantedJson[it] != previousJson[it] }
            val unasserted = entry.changed.filter { it !in asserted }
            fail(label, "the state differs from the expected one:\n" +
                differences.ifEmpty { listOf("(state): expected $wanted, actual $actual") }.joinToString("\n") { "  $it" } +
                "\n  members the intent changed: ${entry.changed.joinToString().ifEmpty { "none" }}" +
                (if (exhaustive && unasserted.isNotEmpty()) "; changed but not asserted: ${unasserted.joinToString()}" else ""))
        }
        expected = actual
    }

    private fun fail(label: String, message: String): Nothing =
        throw TestStoreFailure("TestStore(${feature.name}) $label: $message")

    override fun toString(): String = "TestStore(${feature.name})"

    companion object {
        /** The differences between two JSON values, one line each, naming members and list positions. */
        fun diff(expected: Any?, actual: Any?, path: String = ""): List<String> {
            val here = path.ifEmpty { "(state)" }
            if (expected == actual) return emptyList()
            if (expected is Map<*, *> && actual is Map<*, *>) {
                val keys = expected.keys + actual.keys.filter { it !in expected.keys }
                return keys.flatMap { key ->
                    val name = if (path == "") "$key" else "$path.$key"
                    when {
                        key !in actual.keys -> listOf("$name: expected ${show(expected[key])}, actual (absent)")
                        key !in expected.keys -> listOf("$name: expected (absent), actual ${show(actual[key])}")
                        else -> diff(expected[key], actual[key], name)
                    }
                }
            }
            if (expected is List<*> && actual is List<*>) {
                val lines = (0 until maxOf(expected.size, actual.size)).flatMap { i ->
                    when {
                        i >= actual.size -> listOf("$path[$i]: expected ${show(expected[i])}, actual (absent)")
                        i >= expected.size -> listOf("$path[$i]: expected (absent), actual ${show(actual[i])}")
                        else -> diff(expected[i], actual[i], "$path[$i]")
                    }
                }
                return if (expected.size != actual.size) lines + "$here: expected ${expected.size} items, actual ${actual.size}" else lines
            }
            return listOf("$here: expected ${show(expected)}, actual ${show(actual)}")
        }

        private fun show(value: Any?): String {
            val text = try { Json.write(value) } catch (e: IllegalArgumentException) { value.toString() }
            return if (text.length <= 120) text else text.take(119) + "…"
        }
    }
}

/** A TestStore expectation that did not hold; the message says what, with the diff. */
class TestStoreFailure(message: String) : AssertionError(message)

/** State members derived from the others (schema "x-derived": the app's `view`): a step asserts them only when it names them. */
private val DERIVED_MEMBERS = setOf("view")
