package cinematic.cli

import cinematic.CinematicException
import cinematic.Runtime
import java.io.FileDescriptor
import java.io.FileOutputStream
import kotlin.system.exitProcess

/*
 * The command line packaged in the jar (`java -jar cinematic-<version>.jar ...`): the same
 * commands, options, help, output and exit statuses as the Python package's `cinematic`
 * console script (bindings/python/cinematic/cli.py), checked by one table of cases run
 * against both (bindings/kotlin/jvm/cli-parity.py, run by `make test-jar`).
 *
 *   cinematic search dune             # the first page of results, best first
 *   cinematic search dune --json      # the results as a JSON array of movies
 *   cinematic discover top_rated      # or topRated, toprated, --section topRated
 *   cinematic detail 15249
 *
 * Exit status: 0 answered, 1 failed, 2 bad usage, 3 the library cannot be loaded, 130
 * interrupted (see EPILOG). Files: Help.kt (texts), Arguments.kt (argparse's reading),
 * Commands.kt (the three commands), PythonText.kt (values as Python writes them).
 */

const val EXIT_OK = 0
const val EXIT_FAILED = 1
const val EXIT_USAGE = 2
const val EXIT_NO_LIBRARY = 3

/** A [CinematicException] as Python's CinematicError prints it (the failing call named). */
private fun describe(error: CinematicException, call: String): String {
    val path = error.path?.let { " (at $it)" } ?: ""
    return "$call: ${error.statusName}: ${error.message}$path"
}

/** Runs the command line [args]; returns the status, the standard output and error texts. */
fun runCommand(args: List<String>): Triple<Int, String, String> {
    val command = try {
        parse(args)
    } catch (exit: Exit) {
        return Triple(exit.status, exit.out, exit.err)
    }
    if (command.name == "search" && command.query.joinToString(" ").trim().length < 2) {
        return Triple(EXIT_USAGE, "", "cinematic: a search needs at least 2 characters\n")
    }
    val sections = listOfNotNull(command.section, command.sectionOption)
    if (sections.toSet().size > 1) {
        return Triple(EXIT_USAGE, "", "cinematic: two sections given: ${sections[0]} and ${sections[1]}\n")
    }
    var call = "cinematic_runtime_open"
    return try {
        val runtime = Runtime()
        try {
            call = "cinematic_store_send"
            val answer = when (command.name) {
                "search" -> search(runtime, command.query, command.pages, command.json)
                "discover" -> discover(runtime, sections.firstOrNull() ?: "popular", command.json)
                else -> detail(runtime, command.movieId, command.json)
            }
            Triple(EXIT_OK, answer.text, answer.before + answer.after)
        } finally {
            runtime.close()
        }
    } catch (e: Failed) {
        Triple(EXIT_FAILED, "", "cinematic: ${e.message}\n")
    } catch (e: CinematicException) {
        Triple(if (e.statusName == "invalid") EXIT_USAGE else EXIT_FAILED, "", "cinematic: ${describe(e, call)}\n")
    } catch (e: UnsatisfiedLinkError) {
        Triple(EXIT_NO_LIBRARY, "", "cinematic: ${e.message}\n")
    } catch (e: NoClassDefFoundError) {
        Triple(EXIT_NO_LIBRARY, "", "cinematic: the library cannot be loaded: ${e.message}\n")
    }
}

/** `java -jar cinematic-<version>.jar COMMAND ...`. */
fun main(args: Array<String>) {
    val (status, out, err) = runCommand(args.toList())
    var exit = status
    if (out.length > 0) {
        try {
            val stdout = FileOutputStream(FileDescriptor.out)
            stdout.write(out.toByteArray(Charsets.UTF_8))
            stdout.flush()
        } catch (e: java.io.IOException) {
            // A reader that went away (`| head -1`) is not an error, as in Python; a full or
            // closed standard output is.
            if (e.message?.contains("Broken pipe") != true) {
                writeError("cinematic: cannot write the answer to standard output: ${e.message}\n")
                exit = EXIT_FAILED
            }
        }
    }
    writeError(err)
    exitProcess(exit)
}

private fun writeError(text: String) {
    if (text.length == 0) return
    try {
        FileOutputStream(FileDescriptor.err).apply { write(text.toByteArray(Charsets.UTF_8)); flush() }
    } catch (e: java.io.IOException) {
        // a closed or full stderr is ignored, as in Python
    }
}
