package cinematic.testing

import cinematic.*
import java.util.concurrent.locks.ReentrantLock
import kotlin.concurrent.withLock

/**
 * A runtime for tests: manual clock, a [TestCatalog], in-memory favorites, history on, no
 * offline cache. Open [TestStore]s on it with [store] (they share the clock, the catalog and
 * the favorites); [advance] moves the clock; [finish] finishes each store and closes it.
 * [config] adds or overrides runtime config keys. [timeoutMs] bounds every wait.
 */
class TestRuntime(
    config: Map<String, Any?> = emptyMap(),
    val exhaustive: Boolean = true,
    val timeoutMs: Long = 5_000
) : AutoCloseable {
    /** The runtime itself. */
    val runtime: Runtime = Runtime(linkedMapOf<String, Any?>("clock" to "manual", "catalog" to "host", "favorites" to ":memory:",
        "offlineCache" to false, "history" to HISTORY).apply { putAll(config) })
    /** The scripted catalog. */
    val catalog = TestCatalog(this)
    /** The manual clock's time (the sum of [advance] calls), in milliseconds. */
    @Volatile var now: Long = 0
        private set
    internal val stores = ArrayList<TestStore<*, *>>()
    private val lock = ReentrantLock()
    private val logged = lock.newCondition()
    /** (store serial, effect number) -> effect id, for effects the log says are running. */
    private val running = LinkedHashMap<Pair<Long, Long>, String>()
    private var closed = false

    init {
        runtime.setLogger { line -> onLog(line) }
        catalog.install()
    }

    /** Opens a [TestStore] of [feature] on this runtime. */
    fun <S, T : Store<S>> store(feature: Feature<S, T>, args: Map<String, Any?>? = null, exhaustive: Boolean = this.exhaustive): TestStore<S, T> =
        TestStore(feature, args, this, exhaustive)

    /** Moves the manual clock [ms] forward, then gives the catalog's delayed answers that fell due. */
    fun advance(ms: Long) {
        require(ms >= 0) { "advance takes a non-negative number of milliseconds" }
        runtime.advanceClock(ms)
        now += ms
        for ((id, answer) in catalog.due(now)) runtime.respond(id, answer)
    }

    /** The ids of the effects the log says are running (of the store with [serial], or all). */
    fun runningEffects(serial: Long? = null): List<String> =
        lock.withLock { running.filterKeys { serial == null || it.first == serial }.values.toList() }

    private fun onLog(line: String) {
        lock.withLock {
            EFFECT.find(line)?.let { match ->
                val (_, store, what, name, number) = match.destructured
                val key = store.toLong() to number.toLong()
                if (what == "started") running[key] = name.ifEmpty { "(anonymous)" } else running.remove(key)
            }
            logged.signalAll()
        }
    }

    /** Waits (bounded) until [condition] gives a value, woken by every log line and re-checking every 10 ms. */
    internal fun <V : Any> await(timeoutMs: Long, condition: () -> V?): V? {
        val deadline = System.nanoTime() + timeoutMs * 1_000_000
        while (true) {
            condition()?.let { return it }
            val left = deadline - System.nanoTime()
            if (left <= 0) return null
            lock.withLock { logged.awaitNanos(minOf(left, 10_000_000)) }
        }
    }

    /** Finishes every store, then closes the runtime. */
    fun finish() {
        try {
            stores.toList().filter { !it.isFinished }.forEach { it.finish() }
        } finally {
            close()
        }
    }

    override fun close() {
        if (!closed) {
            closed = true
            runtime.close()
        }
    }

    private companion object {
        const val HISTORY = 10_000
        val EFFECT = Regex("""^\[\d+ ms\] (\w+)#(\d+) effect (started|cancelled|finished) (?:"(.*)"|\(anonymous\)) \(#(\d+)\)$""")
    }
}

/**
 * The scripted host catalog of a [TestRuntime]: canned answers registered before the request
 * comes (first match wins; [times] limits uses), answered at once or [delayMs] later on the
 * manual clock; requests nothing matches (or [hold]) wait for [respond]. Cancellations are
 * recorded ([cancelled]) and otherwise ignored, so late answers really arrive late.
 *
 * ```
 * catalog.search("dune", Movie(15249, "Dune", 1984))
 * catalog.search("du", Movie(1, "Duck Soup", 1933), delayMs = 400)
 * catalog.answer(mapOf("op" to "search", "query" to "dun"), TestCatalog.errorAnswer("network", "timed out"))
 * catalog.hold(mapOf("op" to "search", "query" to "d"))
 * ```
 */
class TestCatalog internal constructor(private val owner: TestRuntime) {
    /** A request the catalog received: its [id], [request] JSON and the clock's time [at] arrival. */
    class Request(val id: Long, val request: Map<String, Any?>, val at: Long) {
        @Volatile var answered = false
        internal var due: Long? = null
        internal var answer: String? = null
        override fun toString() = "#$id ${Json.write(request)} at $at ms"
    }

    private class Canned(val pattern: Map<String, Any?>, val answer: String?, val delayMs: Long, var times: Int?)

    private val lock = ReentrantLock()
    private val arrived = lock.newCondition()
    private val canned = ArrayList<Canned>()
    private val received = ArrayList<Request>()
    private val cancelledIds = ArrayList<Long>()

    /** Every request received, in order (cancellations not included). */
    val requests: List<Request> get() = lock.withLock { received.toList() }
    /** The ids the library cancelled, in order. */
    val cancelled: List<Long> get() = lock.withLock { cancelledIds.toList() }
    /** The requests not answered yet. */
    val pending: List<Request> get() = lock.withLock { received.filter { !it.answered } }

    /** Answers requests whose members include [pattern] with [answerJson] (null: hold them). */
    fun answer(pattern: Map<String, Any?>, answerJson: String?, delayMs: Long = 0, times: Int? = null): TestCatalog {
        lock.withLock { canned.add(Canned(normalise(pattern), answerJson, delayMs, times)) }
        return this
    }

    /** Answers the search for [query] (every page, or [page]) with [movies]. */
    fun search(query: String, vararg movies: Movie, page: Int? = null, delayMs: Long = 0): TestCatalog =
        answer(mapOf("op" to "search", "query" to query) + (page?.let { mapOf("page" to it) } ?: emptyMap()), moviesAnswer(*movies), delayMs)

    /** Answers Discover's [section] (every page, or [page]) with [movies]. */
    fun discover(section: String, movies: List<Movie>, page: Int? = null, delayMs: Long = 0): TestCatalog =
        answer(mapOf("op" to "discover", "section" to section) + (page?.let { mapOf("page" to it) } ?: emptyMap()), moviesAnswer(*movies.toTypedArray()), delayMs)

    /** Answers the detail request for [id] with [movie] (a `{"movie":...}` body's movie). */
    fun movie(id: Long, movie: Map<String, Any?>, delayMs: Long = 0): TestCatalog =
        answer(mapOf("op" to "movie", "id" to id), Json.write(mapOf("movie" to movie)), delayMs)

    /** Holds requests matching [pattern] until the test answers them with [respond]. */
    fun hold(pattern: Map<String, Any?>): TestCatalog = answer(pattern, null)

    /** The [count]-th request matching [pattern], waiting for it (bounded). */
    fun waitFor(pattern: Map<String, Any?>, count: Int = 1): Request {
        val wanted = normalise(pattern)
        val deadline = System.nanoTime() + owner.timeoutMs * 1_000_000
        lock.withLock {
            while (true) {
                received.filter { matches(it.request, wanted) }.getOrNull(count - 1)?.let { return it }
                val left = deadline - System.nanoTime()
                if (left <= 0) throw TestStoreFailure("the catalog received no request matching ${Json.write(pattern)} within ${owner.timeoutMs} ms; requests: $received")
                arrived.awaitNanos(left)
            }
        }
        @Suppress("UNREACHABLE_CODE")
        throw IllegalStateException("unreachable")
    }

    /** Answers the first unanswered request matching [pattern] (waiting for it) with [answerJson]. */
    fun respond(pattern: Map<String, Any?>, answerJson: String): Request {
        val wanted = normalise(pattern)
        val deadline = System.nanoTime() + owner.timeoutMs * 1_000_000
        val request = lock.withLock { firstUnanswered(wanted, deadline, pattern) }
        owner.runtime.respond(request.id, answerJson)
        return request
    }

    private fun firstUnanswered(wanted: Map<String, Any?>, deadline: Long, pattern: Map<String, Any?>): Request {
        while (true) {
            val found = received.firstOrNull { !it.answered && matches(it.request, wanted) }
            if (found != null) {
                found.answered = true
                return found
            }
            val left = deadline - System.nanoTime()
            if (left <= 0) throw TestStoreFailure("no unanswered catalog request matches ${Json.write(pattern)}; requests: $received")
            arrived.awaitNanos(left)
        }
    }

    /** Waits (bounded) until the library cancelled [request]. */
    fun awaitCancelled(request: Request) {
        val deadline = System.nanoTime() + owner.timeoutMs * 1_000_000
        lock.withLock {
            while (request.id !in cancelledIds) {
                val left = deadline - System.nanoTime()
                if (left <= 0) throw TestStoreFailure("the catalog request $request was not cancelled within ${owner.timeoutMs} ms")
                arrived.awaitNanos(left)
            }
        }
    }

    /** How many requests matching [pattern] arrived. */
    fun count(pattern: Map<String, Any?>): Int = normalise(pattern).let { wanted -> lock.withLock { received.count { matches(it.request, wanted) } } }

    internal fun install() {
        owner.runtime.setProvider { id, json -> provide(id, json) }
    }

    private fun provide(id: Long, json: String) {
        @Suppress("UNCHECKED_CAST")
        val request = Json.parse(json) as Map<String, Any?>
        val now = owner.now
        val answer = lock.withLock {
            if (request["op"] == "cancel") {
                cancelledIds.add(id)
                arrived.signalAll()
                return
            }
            val record = Request(id, request, now)
            received.add(record)
            val match = canned.firstOrNull { matches(request, it.pattern) && it.times != 0 }
            match?.times = match?.times?.minus(1)
            arrived.signalAll()
            when {
                match?.answer == null -> null
                match.delayMs <= 0 -> { record.answered = true; match.answer }
                else -> { record.due = now + match.delayMs; record.answer = match.answer; null }
            }
        }
        if (answer != null) {
            try {
                owner.runtime.respond(id, answer)
            } catch (e: CinematicException) {
                if (e.status != Status.CLOSED) throw e
            }
        }
    }

    internal fun due(now: Long): List<Pair<Long, String>> = lock.withLock {
        received.filter { !it.answered && it.due != null && it.due!! <= now }.sortedWith(compareBy({ it.due }, { it.id }))
            .onEach { it.answered = true }.map { it.id to it.answer!! }
    }

    private fun matches(request: Map<String, Any?>, pattern: Map<String, Any?>) = pattern.all { (key, value) -> request[key] == value }

    /** Numbers as the JSON reader gives them (Long), so `"page" to 1` matches a parsed request. */
    private fun normalise(pattern: Map<String, Any?>): Map<String, Any?> =
        pattern.mapValues { (_, value) -> if (value is Int) value.toLong() else value }

    companion object {
        /** A `{"movies":[...]}` answer. */
        fun moviesAnswer(vararg movies: Movie): String = Json.write(mapOf("movies" to movies.map { it.toJson() }))

        /** An `{"error":{...}}` answer. */
        fun errorAnswer(code: String, message: String): String = Json.write(mapOf("error" to mapOf("code" to code, "message" to message)))
    }
}
