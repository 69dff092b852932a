package cinematic.tests

import cinematic.*

/**
 * A host catalog for tests, like seed 004's scripted repository: it answers search requests
 * at once from [answers] (or with one movie titled after the query), except queries in
 * [held], whose answers wait for [release]. It records every request and ignores
 * cancellation, as many network layers do, so late answers really arrive late.
 */
class ScriptedProvider(private val runtime: Runtime) {
    /** A request as received: its id and JSON fields. */
    data class Request(val id: Long, val op: String, val query: String?, val thread: Thread)

    private val lock = Object()
    private val received = ArrayList<Request>()

    /** Scripted answers by query (JSON bodies for [Runtime.respond]). */
    val answers = HashMap<String, String>()

    /** Queries whose answers are held back until [release]. */
    val held = HashSet<String>()

    /** Registers this provider with the runtime. */
    fun install(): ScriptedProvider {
        runtime.setProvider { id, json -> onRequest(id, json) }
        return this
    }

    /** Every request received so far, cancellations included. */
    val requests: List<Request>
        get() = synchronized(lock) { received.toList() }

    /** The queries of the search requests received so far, in order. */
    val searches: List<String>
        get() = requests.filter { it.op == "search" }.map { it.query ?: "" }

    /** The ids that were cancelled. */
    val cancelled: List<Long>
        get() = requests.filter { it.op == "cancel" }.map { it.id }

    private fun onRequest(id: Long, json: String) {
        val request = Json.parse(json) as Map<*, *>
        val op = request["op"] as String
        val query = request["query"] as? String
        synchronized(lock) {
            received.add(Request(id, op, query, Thread.currentThread()))
            lock.notifyAll()
        }
        if (op != "search") return // "cancel": ignored on purpose
        val hold = synchronized(lock) { query in held }
        if (!hold) {
            try {
                runtime.respond(id, answerFor(query ?: ""))
            } catch (e: CinematicException) {
                // A request delivered while the runtime closes (a test's end) is answered too
                // late: "closed" is the library's documented answer, not a failure.
                if (e.status != Status.CLOSED) throw e
            }
        }
    }

    /** The scripted answer for [query]. */
    fun answerFor(query: String): String =
        synchronized(lock) { answers[query] } ?: movies(Movie(id = query.hashCode().toLong() and 0xffff, title = query.capitalize(), year = 2000))

    /** Waits for the search request for [query] and returns its id. */
    fun awaitSearch(query: String, timeoutMs: Long = 5_000): Long {
        val deadline = System.currentTimeMillis() + timeoutMs
        synchronized(lock) {
            while (true) {
                received.firstOrNull { it.op == "search" && it.query == query }?.let { return it.id }
                val left = deadline - System.currentTimeMillis()
                if (left <= 0) throw ExpectationFailed("no search request for \"$query\" within $timeoutMs ms (got $received)")
                lock.wait(left)
            }
        }
    }

    /** Answers the held request for [query] now (late), with its scripted answer. */
    fun release(query: String) {
        val id = awaitSearch(query)
        synchronized(lock) { held.remove(query) }
        runtime.respond(id, answerFor(query))
    }

    companion object {
        /** A `{"movies":[...]}` answer. */
        fun movies(vararg movies: Movie): String = Json.write(mapOf("movies" to movies.map { it.toJson() }))

        /** An `{"error":{...}}` answer. */
        fun error(code: String, message: String): String =
            Json.write(mapOf("error" to mapOf("code" to code, "message" to message)))
    }
}
