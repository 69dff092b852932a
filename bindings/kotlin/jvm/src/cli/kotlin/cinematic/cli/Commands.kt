@file:Suppress("UNCHECKED_CAST")

package cinematic.cli

import cinematic.Json
import cinematic.Runtime
import cinematic.openDetail
import cinematic.openDiscover
import cinematic.openSearch
import java.util.Locale

/* The three commands: each opens its store, waits for the answer and writes it. */

internal fun line(movie: Map<*, *>): String =
    String.format(Locale.US, "%6s", pyStr(movie["id"])) +
        "  ${pyStr(movie["title"])} (${pyStr(movie["year"])})  ${oneDecimal(movie["rating"])}/10, ${grouped(movie["votes"])} votes"

/** A failed phase's message, as Python's `_Failed` says it ("code: message"). */
internal class Failed(message: String) : Exception(message)

internal fun phaseValue(phase: Map<*, *>): Any? {
    if (phase["phase"] == "failed") {
        val error = phase["error"] as Map<*, *>
        throw Failed("${error["code"]}: ${error["message"] ?: ""}".trimEnd(':', ' '))
    }
    return phase["value"]
}

@Suppress("UNCHECKED_CAST")
internal fun stateOf(json: String): Map<String, Any?> = Json.parse(json) as Map<String, Any?>

/** What a command writes: the answer (standard output) and notes on standard error, [before]
 * it (a search's hint) and [after] it (more results exist), as Python's `_Answer`. */
internal class Answer(val text: String, val before: String = "", val after: String = "")

internal fun search(runtime: Runtime, words: List<String>, pages: Int, asJson: Boolean): Answer {
    val query = words.joinToString(" ")
    val store = runtime.openSearch()
    var movies: List<Map<*, *>>
    var state: Map<String, Any?>
    var results: Map<*, *>
    try {
        store.queryChanged(query)
        store.submitted()
        store.settle(TIMEOUT_MS)
        state = stateOf(store.stateJson)
        results = state["results"] as Map<*, *>
        movies = (phaseValue(results) as List<Map<*, *>>?) ?: emptyList()
        while (results["phase"] == "loaded" && (state["pagesLoaded"] as Long) < pages && state["isExhausted"] != true) {
            store.loadMore()
            store.settle(TIMEOUT_MS)
            state = stateOf(store.stateJson)
            val error = state["loadMoreError"] as Map<*, *>?
            if (error != null) throw Failed("${error["code"]}")
            results = state["results"] as Map<*, *>
            movies = (phaseValue(results) as List<Map<*, *>>?) ?: emptyList()
        }
    } finally {
        store.close()
    }
    if (asJson) return Answer(pyJson(movies) + "\n")
    // What the catalog cannot answer ("tom hanks": no people), then whether more results exist.
    val hint = (state["hint"] as Map<*, *>?)?.let { "note: ${it["text"]}\n" } ?: ""
    if (movies.isEmpty()) return Answer("no movies match ${pyRepr(query)}\n", hint)
    var more = ""
    if (results["phase"] == "loaded" && state["isExhausted"] != true) {
        val next = (state["pagesLoaded"] as Long) + 1
        more = "${movies.size} shown, more match: ${shlexJoin(listOf("cinematic", "search") + words + listOf("--pages", "$next"))}\n"
    }
    return Answer(movies.joinToString("") { line(it) + "\n" }, hint, more)
}

internal fun discover(runtime: Runtime, sectionId: String, asJson: Boolean): Answer {
    val store = runtime.openDiscover()
    val section: Map<*, *>
    val movies: List<Map<*, *>>
    try {
        store.task()
        store.settle(TIMEOUT_MS)
        val sections = stateOf(store.stateJson)["sections"] as List<Map<*, *>>
        section = sections.first { it["section"] == sectionId }
        movies = (phaseValue(section["movies"] as Map<*, *>) as List<Map<*, *>>?) ?: emptyList()
    } finally {
        store.close()
    }
    if (asJson) return Answer(pyJson(movies) + "\n")
    return Answer("${section["title"]}\n" + movies.joinToString("") { line(it) + "\n" })
}

/** The store's state once [done] holds for it (a Detail store never settles: it watches the
 * favorites); a [Failed] after [TIMEOUT_MS]. */
internal fun waitFor(store: cinematic.Store<*>, done: (Map<String, Any?>) -> Boolean): Map<String, Any?> {
    val latch = java.util.concurrent.CountDownLatch(1)
    val subscription = store.subscribeJson { json -> if (done(stateOf(json))) latch.countDown() }
    try {
        if (!done(stateOf(store.stateJson)) && !latch.await(TIMEOUT_MS, java.util.concurrent.TimeUnit.MILLISECONDS)) {
            throw Failed("no answer within ${TIMEOUT_MS / 1000} s")
        }
        return stateOf(store.stateJson)
    } finally {
        subscription.close()
    }
}

internal fun detail(runtime: Runtime, movieId: Long, asJson: Boolean): Answer {
    val store = runtime.openDetail(movieId)
    val movie: Map<*, *>
    try {
        store.task()
        val state = waitFor(store) { (it["detail"] as Map<*, *>)["phase"] in listOf("loaded", "failed") }
        movie = phaseValue(state["detail"] as Map<*, *>) as Map<*, *>
    } finally {
        store.close()
    }
    if (asJson) return Answer(pyJson(movie) + "\n")
    val genres = (movie["genres"] as List<*>).joinToString(", ").ifEmpty { "no genre" }
    val mpaa = (movie["mpaa"] as String?)?.ifEmpty { null } ?: "unknown"
    var text = "${pyStr(movie["title"])} (${pyStr(movie["year"])})\n" +
        "  $genres; ${pyStr(movie["runtime"])} min; MPAA $mpaa\n" +
        "  rated ${oneDecimal(movie["rating"])}/10 by ${grouped(movie["votes"])} IMDb users\n"
    val budget = movie["budget"] as Long?
    if (budget != null && budget != 0L) text += "  budget \$${grouped(budget)}\n"
    return Answer(text)
}
