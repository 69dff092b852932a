@file:Suppress("UNCHECKED_CAST")

package cinematic.cli

import cinematic.CinematicException
import cinematic.Json
import cinematic.Runtime
import cinematic.WireVersion
import cinematic.openDetail
import cinematic.openDiscover
import cinematic.openSearch
import java.io.FileDescriptor
import java.io.FileOutputStream
import java.math.BigDecimal
import java.math.RoundingMode
import java.util.Locale
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
 * interrupted (see EPILOG).
 */

const val EXIT_OK = 0
const val EXIT_FAILED = 1
const val EXIT_USAGE = 2
const val EXIT_NO_LIBRARY = 3

/** The largest movie ID and the most pages a search may load (as in Python's cli.py). */
private const val MAX_ID = Long.MAX_VALUE
private const val MAX_PAGES = 1000
/** How long a command waits for the library's answer, in milliseconds. */
private const val TIMEOUT_MS = 30_000L

private val SECTIONS: List<String> = cinematic.SectionId.values

private const val MAIN_USAGE = "usage: cinematic [-h] [--version] [--json] COMMAND ..."
private const val SEARCH_USAGE = "usage: cinematic search [-h] [--pages N] [--json] query [query ...]"
private const val DISCOVER_USAGE = "usage: cinematic discover [-h] [--section SECTION] [--json] [SECTION]"
private const val DETAIL_USAGE = "usage: cinematic detail [-h] [--json] ID"

private const val EPILOG = """exit status:
  0    answered (a search may find nothing; also when a pipe's reader went away early)
  1    failed: the library reported a failure (e.g. notFound), or the answer could not be
       written (standard output closed or full)
  2    bad usage (unknown command or section, a query under 2 or over 256 characters, an ID
       or --pages not a whole number in ASCII digits within range, an argument not UTF-8)
  3    the library could not be loaded
  130  interrupted"""

private val MAIN_HELP = """$MAIN_USAGE

Search, discover and look up movies in the Cinematic catalog (58,788 films).

positional arguments:
  COMMAND
    search    search titles (typos, numerals, years, decades and genres are
              understood: 1994, 90s comedy)
    discover  a browsing section
    detail    one movie by its id

options:
  -h, --help  show this help message and exit
  --version   show program's version number and exit
  --json      print the answer as JSON

$EPILOG
"""

private val SEARCH_HELP = """$SEARCH_USAGE

positional arguments:
  query       what to search for, e.g. godfather 2

options:
  -h, --help  show this help message and exit
  --pages N   pages of 20 results to show (default 1, at most $MAX_PAGES)
  --json      print the answer as JSON
"""

private val DISCOVER_HELP = """$DISCOVER_USAGE

positional arguments:
  SECTION            popular, topRated, action, animation, comedy, drama,
                     documentary, romance, short (default: popular); any case,
                     with or without _ or - (top_rated)

options:
  -h, --help         show this help message and exit
  --section SECTION  the same as SECTION
  --json             print the answer as JSON
"""

/** A section's key: lowercase, without _, - or spaces ("top_rated" and "TopRated" are topRated). */
private fun sectionKey(text: String): String = text.replace(Regex("(?U)[_\\-\\s]"), "").toLowerCase(Locale.ROOT)

private val SECTIONS_BY_KEY: Map<String, String> = SECTIONS.associateBy { sectionKey(it) }

/** A Discover section in any spelling people type, or a usage error naming [argument]. */
private fun section(text: String, argument: String): String = SECTIONS_BY_KEY[sectionKey(text)]
    ?: throw usageError(DISCOVER_USAGE, "cinematic discover", "argument $argument: unknown section ${pyRepr(text)} " +
        "(choose from ${SECTIONS.joinToString(", ")})")

private val DETAIL_HELP = """$DETAIL_USAGE

positional arguments:
  ID          the movie's id, e.g. 15249

options:
  -h, --help  show this help message and exit
  --json      print the answer as JSON
"""

/** What the command line asked for. */
private class Command(val name: String) {
    var json = false
    val query = mutableListOf<String>()
    var pages = 1
    var section: String? = null          // the positional SECTION
    var sectionOption: String? = null    // --section
    var movieId = 0L
}

/** A finished run: a status, maybe text for stdout and for stderr. */
private class Exit(val status: Int, val out: String = "", val err: String = "") : Exception()

private fun usageError(usage: String, prog: String, message: String) =
    Exit(EXIT_USAGE, err = "$usage\n$prog: error: $message\n")

/** Python's repr() of a string: quotes, escapes (as argparse shows values in its errors). */
internal fun pyRepr(text: String): String {
    val quote = if ('\'' in text && '"' !in text) '"' else '\''
    val out = StringBuilder().append(quote)
    var i = 0
    while (i < text.length) {
        val cp = text.codePointAt(i)
        i += Character.charCount(cp)
        when {
            cp == quote.toInt() || cp == '\\'.toInt() -> out.append('\\').appendCodePoint(cp)
            cp == '\n'.toInt() -> out.append("\\n")
            cp == '\r'.toInt() -> out.append("\\r")
            cp == '\t'.toInt() -> out.append("\\t")
            cp < 0x20 || cp in 0x7f..0xa0 || cp == 0xad -> out.append("\\x").append(String.format("%02x", cp))
            Character.getType(cp) == Character.UNASSIGNED.toInt() || Character.isISOControl(cp) ||
                cp in 0xd800..0xdfff -> out.append(if (cp > 0xffff) String.format("\\U%08x", cp) else String.format("\\u%04x", cp))
            else -> out.appendCodePoint(cp)
        }
    }
    return out.append(quote).toString()
}

/** An argparse type: ASCII digits only, from [low] to [high]; null when [text] is not one. */
private fun wholeNumber(text: String, low: Long, high: Long): Long? {
    if (!Regex("[0-9]{1,20}").matches(text)) return null
    val value = text.toBigInteger()
    return if (value >= low.toBigInteger() && value <= high.toBigInteger()) value.toLong() else null
}

private fun wholeNumberError(low: Long, high: Long, text: String) =
    "must be a whole number from $low to $high in ASCII digits, not ${pyRepr(text)}"

/** argparse: a long option may be abbreviated to a unique prefix. */
private fun longOption(arg: String, options: List<String>): String? {
    val name = arg.substringBefore('=')
    if (name in options) return name
    val matches = options.filter { it.startsWith(name) && name.length > 2 }
    return matches.singleOrNull()
}

/** argparse treats "-5" and "-.5" as positionals when no option looks like a number. */
private fun looksLikeOption(arg: String): Boolean =
    arg.startsWith("-") && arg != "-" && !Regex("^-\\d+$|^-\\d*\\.\\d+$").matches(arg)

/** Parses [args] as Python's argparse parser in cli.py does; throws [Exit] for help,
 * version and usage errors. */
private fun parse(args: List<String>): Command {
    var json = false
    var i = 0
    top@ while (i < args.size && looksLikeOption(args[i]) && args[i] != "--") {
        val arg = args[i]
        when (if (arg == "-h") "--help" else longOption(arg, listOf("--help", "--version", "--json"))) {
            "--help" -> throw Exit(EXIT_OK, out = MAIN_HELP)
            "--version" -> throw Exit(EXIT_OK, out = "cinematic ${WireVersion.VERSION}\n")
            "--json" -> json = true
            else -> break@top  // unknown: reported with the rest below
        }
        i++
    }
    val unknownBefore = mutableListOf<String>()
    while (i < args.size && looksLikeOption(args[i]) && args[i] != "--") unknownBefore += args[i++]
    if (i < args.size && args[i] == "--") i++
    if (i >= args.size) throw usageError(MAIN_USAGE, "cinematic", "the following arguments are required: COMMAND")
    val name = args[i]
    if (name !in listOf("search", "discover", "detail")) {
        throw usageError(MAIN_USAGE, "cinematic",
            "argument COMMAND: invalid choice: ${pyRepr(name)} (choose from 'search', 'discover', 'detail')")
    }
    val command = Command(name)
    command.json = json
    val extras = unknownBefore + parseCommand(command, args.drop(i + 1))
    if (extras.isNotEmpty()) throw usageError(MAIN_USAGE, "cinematic", "unrecognized arguments: ${extras.joinToString(" ")}")
    return command
}

/** The subcommand's own arguments; returns those it does not know (argparse's extras). */
private fun parseCommand(command: Command, args: List<String>): List<String> {
    val (usage, help, options) = when (command.name) {
        "search" -> Triple(SEARCH_USAGE, SEARCH_HELP, listOf("--help", "--pages", "--json"))
        "discover" -> Triple(DISCOVER_USAGE, DISCOVER_HELP, listOf("--help", "--section", "--json"))
        else -> Triple(DETAIL_USAGE, DETAIL_HELP, listOf("--help", "--json"))
    }
    val prog = "cinematic ${command.name}"
    val extras = mutableListOf<String>()
    val positionals = mutableListOf<String>()
    var positionalRuns = 0
    var lastWasPositional = false
    var onlyPositionals = false
    var i = 0
    while (i < args.size) {
        val arg = args[i++]
        if (!onlyPositionals && arg == "--") {
            onlyPositionals = true
            continue
        }
        if (onlyPositionals || !looksLikeOption(arg)) {
            if (!lastWasPositional) positionalRuns++
            lastWasPositional = true
            // search takes the first run of words (nargs="+"), detail exactly one ID,
            // discover at most one SECTION (checked as it is read); the rest are extras.
            when {
                command.name == "search" && positionalRuns == 1 -> positionals += arg
                command.name == "detail" && positionals.isEmpty() -> positionals += arg
                command.name == "discover" && positionals.isEmpty() -> {
                    positionals += arg
                    command.section = section(arg, "SECTION")
                }
                else -> extras += arg
            }
            continue
        }
        lastWasPositional = false
        val option = if (arg == "-h") "--help" else longOption(arg, options)
        fun value(): String {
            if ('=' in arg) return arg.substringAfter('=')
            if (i >= args.size || looksLikeOption(args[i])) throw usageError(usage, prog, "argument $option: expected one argument")
            return args[i++]
        }
        when (option) {
            "--help" -> throw Exit(EXIT_OK, out = help)
            "--json" -> command.json = true
            "--pages" -> {
                val text = value()
                command.pages = wholeNumber(text, 1, MAX_PAGES.toLong())?.toInt()
                    ?: throw usageError(usage, prog, "argument --pages: ${wholeNumberError(1, MAX_PAGES.toLong(), text)}")
            }
            "--section" -> command.sectionOption = section(value(), "--section")
            else -> extras += arg
        }
    }
    when (command.name) {
        "search" -> {
            if (positionals.isEmpty()) throw usageError(usage, prog, "the following arguments are required: query")
            command.query += positionals
        }
        "detail" -> {
            val text = positionals.firstOrNull() ?: throw usageError(usage, prog, "the following arguments are required: ID")
            command.movieId = wholeNumber(text, 1, MAX_ID)
                ?: throw usageError(usage, prog, "argument ID: ${wholeNumberError(1, MAX_ID, text)}")
        }
    }
    return extras
}

// --------------------------------------------------------------------------------- output

/** Python's float repr (shortest round-trip digits; exponent below 1e-4 and from 1e16). */
internal fun pyFloat(value: Double): String {
    if (value == 0.0) return if (1.0 / value < 0) "-0.0" else "0.0"
    val decimal = BigDecimal(value.toString())
    val magnitude = Math.abs(value)
    if (magnitude >= 1e-4 && magnitude < 1e16) {
        val plain = decimal.stripTrailingZeros().toPlainString()
        return if ('.' in plain) plain else "$plain.0"
    }
    val digits = decimal.unscaledValue().abs().toString().trimEnd('0').ifEmpty { "0" }
    val exponent = decimal.precision() - decimal.scale() - 1
    val mantissa = if (digits.length > 1) digits[0] + "." + digits.substring(1) else digits
    val sign = if (value < 0) "-" else ""
    return "$sign${mantissa}e${if (exponent < 0) "-" else "+"}${String.format("%02d", Math.abs(exponent))}"
}

/** Python's `json.dumps(value, ensure_ascii=False)`: ", " and ": " separators. */
internal fun pyJson(value: Any?): String = StringBuilder().also { appendPyJson(it, value) }.toString()

private fun appendPyJson(out: StringBuilder, value: Any?) {
    when (value) {
        is Map<*, *> -> {
            out.append('{')
            value.entries.forEachIndexed { index, (k, v) ->
                if (index > 0) out.append(", ")
                out.append(Json.quote(k as String)).append(": ")
                appendPyJson(out, v)
            }
            out.append('}')
        }
        is List<*> -> {
            out.append('[')
            value.forEachIndexed { index, v -> if (index > 0) out.append(", "); appendPyJson(out, v) }
            out.append(']')
        }
        is Double -> out.append(pyFloat(value))
        is String -> out.append(Json.quote(value).replace("\u007f", "\\u007f"))
        else -> out.append(Json.write(value))
    }
}

/** Python's str() of a wire value in an f-string ("None" for null). */
private fun pyStr(value: Any?): String = when (value) {
    null -> "None"
    is Double -> pyFloat(value)
    else -> value.toString()
}

/** Python's `f"{x:.1f}"`: round half to even on the binary value. */
private fun oneDecimal(value: Any?): String =
    BigDecimal((value as Number).toDouble()).setScale(1, RoundingMode.HALF_EVEN).toPlainString()

/** Python's `f"{n:,}"`. */
private fun grouped(value: Any?): String = String.format(Locale.US, "%,d", (value as Number).toLong())

private fun line(movie: Map<*, *>): String =
    String.format(Locale.US, "%6s", pyStr(movie["id"])) +
        "  ${pyStr(movie["title"])} (${pyStr(movie["year"])})  ${oneDecimal(movie["rating"])}/10, ${grouped(movie["votes"])} votes"

/** A failed phase's message, as Python's `_Failed` says it ("code: message"). */
private class Failed(message: String) : Exception(message)

private fun phaseValue(phase: Map<*, *>): Any? {
    if (phase["phase"] == "failed") {
        val error = phase["error"] as Map<*, *>
        throw Failed("${error["code"]}: ${error["message"] ?: ""}".trimEnd(':', ' '))
    }
    return phase["value"]
}

@Suppress("UNCHECKED_CAST")
private fun stateOf(json: String): Map<String, Any?> = Json.parse(json) as Map<String, Any?>

private fun search(runtime: Runtime, query: String, pages: Int, asJson: Boolean): String {
    val store = runtime.openSearch()
    var movies: List<Map<*, *>>
    try {
        store.queryChanged(query)
        store.submitted()
        store.settle(TIMEOUT_MS)
        var state = stateOf(store.stateJson)
        var results = state["results"] as Map<*, *>
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
    if (asJson) return pyJson(movies) + "\n"
    if (movies.isEmpty()) return "no movies match ${pyRepr(query)}\n"
    return movies.joinToString("") { line(it) + "\n" }
}

private fun discover(runtime: Runtime, sectionId: String, asJson: Boolean): String {
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
    if (asJson) return pyJson(movies) + "\n"
    return "${section["title"]}\n" + movies.joinToString("") { line(it) + "\n" }
}

/** The store's state once [done] holds for it (a Detail store never settles: it watches the
 * favorites); a [Failed] after [TIMEOUT_MS]. */
private fun waitFor(store: cinematic.Store<*>, done: (Map<String, Any?>) -> Boolean): Map<String, Any?> {
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

private fun detail(runtime: Runtime, movieId: Long, asJson: Boolean): String {
    val store = runtime.openDetail(movieId)
    val movie: Map<*, *>
    try {
        store.task()
        val state = waitFor(store) { (it["detail"] as Map<*, *>)["phase"] in listOf("loaded", "failed") }
        movie = phaseValue(state["detail"] as Map<*, *>) as Map<*, *>
    } finally {
        store.close()
    }
    if (asJson) return pyJson(movie) + "\n"
    val genres = (movie["genres"] as List<*>).joinToString(", ").ifEmpty { "no genre" }
    val mpaa = (movie["mpaa"] as String?)?.ifEmpty { null } ?: "unknown"
    var text = "${pyStr(movie["title"])} (${pyStr(movie["year"])})\n" +
        "  $genres; ${pyStr(movie["runtime"])} min; MPAA $mpaa\n" +
        "  rated ${oneDecimal(movie["rating"])}/10 by ${grouped(movie["votes"])} IMDb users\n"
    val budget = movie["budget"] as Long?
    if (budget != null && budget != 0L) text += "  budget \$${grouped(budget)}\n"
    return text
}

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
            val text = when (command.name) {
                "search" -> search(runtime, command.query.joinToString(" "), command.pages, command.json)
                "discover" -> discover(runtime, sections.firstOrNull() ?: "popular", command.json)
                else -> detail(runtime, command.movieId, command.json)
            }
            Triple(EXIT_OK, text, "")
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
