package cinematic.cli

import cinematic.CinematicException
import cinematic.Phase
import cinematic.Runtime
import cinematic.Status
import cinematic.label
import cinematic.openSearch
import cinematic.phase
import kotlin.system.exitProcess

private const val USAGE = """usage: cinematic.cli.MainKt search QUERY...
Searches the embedded catalog and prints the first page of results, best first.
Exit status: 0 answered (a search may find nothing), 1 the library reported a failure,
2 bad usage."""

/** The command line packaged in the jar: `search QUERY...`. See [USAGE]. */
fun main(args: Array<String>) {
    exitProcess(run(args))
}

/** Runs the command line `args`, printing to stdout/stderr; returns the exit status. */
fun run(args: Array<String>): Int {
    if (args.size < 2 || args[0] != "search") {
        System.err.println(USAGE)
        return if (args.firstOrNull() in listOf("-h", "--help")) 0 else 2
    }
    val query = args.drop(1).joinToString(" ")
    return try {
        // try/finally rather than `use`: AutoCloseable.use lives in kotlin-stdlib-jdk7, which
        // the `kotlin` launcher does not put on the class path.
        val runtime = Runtime()
        try {
            val search = runtime.openSearch()
            search.queryChanged(query)
            search.submitted()
            search.settle(30_000)
            when (val phase = search.state.phase) {
                is Phase.Loaded ->
                    if (phase.value.isEmpty()) println("no movies match \"$query\"")
                    else phase.value.forEach { println(it.label) }
                is Phase.Failed -> {
                    System.err.println("cinematic: ${phase.error.code}: ${phase.error.message}")
                    return 1
                }
                else -> println("no movies match \"$query\"")   // a query under two characters
            }
        } finally {
            runtime.close()   // closes its stores too
        }
        0
    } catch (e: CinematicException) {
        System.err.println("cinematic: ${e.message}")
        if (e.status == Status.INVALID) 2 else 1
    } catch (e: UnsatisfiedLinkError) {
        System.err.println("cinematic: ${e.message}")
        3
    }
}
