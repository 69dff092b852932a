package cinematic.examples

import cinematic.*
import java.util.concurrent.atomic.AtomicInteger
import kotlin.system.exitProcess

private const val DEBOUNCE_MS = 250L

private const val USAGE = """usage: run.sh [--real-clock] [--keystroke-ms=N] [query words...]
Types the query (default "star wars") into the Search feature one letter at a time against the
embedded catalog, printing the state after each keystroke, then the results.
  --real-clock       use the system clock and really wait between keystrokes
                     (default: a manual clock, advanced by the program)
  --keystroke-ms=N   time between keystrokes (default 120; above the 250 ms debounce every
                     keystroke searches)"""

/** The type-ahead demo: see [USAGE]. */
fun main(args: Array<String>) {
    var realClock = false
    var keystrokeMs = 120L
    val words = ArrayList<String>()
    for (arg in args) {
        when {
            arg == "--real-clock" -> realClock = true
            arg.startsWith("--keystroke-ms=") ->
                keystrokeMs = arg.substringAfter('=').toLongOrNull()?.takeIf { it >= 0 } ?: usage()
            arg == "-h" || arg == "--help" || arg.startsWith("--") -> usage()
            else -> words.add(arg)
        }
    }
    val query = words.joinToString(" ").ifBlank { "star wars" }
    val clock = if (realClock) "system" else "manual"
    val config = """{"clock":"$clock","search":{"debounceMs":$DEBOUNCE_MS}}"""
    println("libcinematic ${Cinematic.version}: typing \"$query\", a keystroke every $keystrokeMs ms, " +
        (if (realClock) "system clock" else "manual clock"))

    Runtime(config).use { runtime ->
        runtime.openSearch().use { search ->
            // States also arrive through a subscription (on library threads); count them.
            val delivered = AtomicInteger()
            search.subscribe { delivered.incrementAndGet() }

            for (end in 1..query.length) {
                search.queryChanged(query.substring(0, end))
                // Time passes before the next keystroke: the debounce may elapse and a search run.
                if (realClock) {
                    Thread.sleep(keystrokeMs)
                } else {
                    runtime.advanceClock(keystrokeMs)
                    // A manual clock makes the output exact: let a search the pause started finish.
                    if (keystrokeMs >= DEBOUNCE_MS) search.settle(30_000)
                }
                println("  %-14s %s".format("\"${query.substring(0, end)}\"", display(search.state)))
            }

            // The user stops typing: let the last debounce elapse and the search finish.
            if (!realClock) runtime.advanceClock(DEBOUNCE_MS)
            search.settle(30_000)
            val final = search.state
            println("final: ${display(search.state)}")
            when (val results = final.phase) {
                is Phase.Loaded ->
                    if (results.value.isEmpty()) println("no movie matches \"${final.query}\"")
                    else results.value.forEachIndexed { i, movie -> println("%3d. %s (%d)".format(i + 1, movie.title, movie.year)) }
                is Phase.Failed -> println("search failed: ${results.error.code}: ${results.error.message}")
                else -> println("no search ran (the query is shorter than 2 characters)")
            }
            println("${delivered.get()} states delivered to the subscriber")
        }
    }
}

/** A state as JSON, with a loaded page of movies shortened to its size and first title. */
private fun display(state: SearchState): String {
    val results = state.phase as? Phase.Loaded ?: return Json.write(state.toJson())
    val first = results.value.firstOrNull()?.let { ", first: $it" } ?: ""
    return "{\"query\":\"${state.query}\",\"results\":{\"phase\":\"loaded\",\"value\":[${results.value.size} movies$first]}}"
}

private fun usage(): Nothing {
    System.err.println(USAGE)
    exitProcess(2)
}
