package cinematic.cli

import cinematic.WireVersion
import java.util.Locale

/* The command line read as Python's argparse reads cli.py's parser: abbreviations, extras,
 * "--", negative numbers as words, and the same error texts. */

/** A section's key: lowercase, without _, - or spaces ("top_rated" and "TopRated" are topRated). */
internal fun sectionKey(text: String): String = text.replace(Regex("(?U)[_\\-\\s]"), "").toLowerCase(Locale.ROOT)

internal val SECTIONS_BY_KEY: Map<String, String> = SECTIONS.associateBy { sectionKey(it) }

/** A Discover section in any spelling people type, or a usage error naming [argument]. */
internal fun section(text: String, argument: String): String = SECTIONS_BY_KEY[sectionKey(text)]
    ?: throw usageError(DISCOVER_USAGE, "cinematic discover", "argument $argument: unknown section ${pyRepr(text)} " +
        "(choose from ${SECTIONS.joinToString(", ")})")
/** What the command line asked for. */
internal class Command(val name: String) {
    var json = false
    val query = mutableListOf<String>()
    var pages = 1
    var section: String? = null          // the positional SECTION
    var sectionOption: String? = null    // --section
    var movieId = 0L
}

/** A finished run: a status, maybe text for stdout and for stderr. */
internal class Exit(val status: Int, val out: String = "", val err: String = "") : Exception()

internal fun usageError(usage: String, prog: String, message: String) =
    Exit(EXIT_USAGE, err = "$usage\n$prog: error: $message\n")

/** An argparse type: ASCII digits only, from [low] to [high]; null when [text] is not one. */
internal fun wholeNumber(text: String, low: Long, high: Long): Long? {
    if (!Regex("[0-9]{1,20}").matches(text)) return null
    val value = text.toBigInteger()
    return if (value >= low.toBigInteger() && value <= high.toBigInteger()) value.toLong() else null
}

internal fun wholeNumberError(low: Long, high: Long, text: String) =
    "must be a whole number from $low to $high in ASCII digits, not ${pyRepr(text)}"

/** argparse: a long option may be abbreviated to a unique prefix. */
internal fun longOption(arg: String, options: List<String>): String? {
    val name = arg.substringBefore('=')
    if (name in options) return name
    val matches = options.filter { it.startsWith(name) && name.length > 2 }
    return matches.singleOrNull()
}

/** argparse treats "-5" and "-.5" as positionals when no option looks like a number. */
internal fun looksLikeOption(arg: String): Boolean =
    arg.startsWith("-") && arg != "-" && !Regex("^-\\d+$|^-\\d*\\.\\d+$").matches(arg)

/** Parses [args] as Python's argparse parser in cli.py does; throws [Exit] for help,
 * version and usage errors. */
internal fun parse(args: List<String>): Command {
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
internal fun parseCommand(command: Command, args: List<String>): List<String> {
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
