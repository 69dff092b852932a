package cinematic.cli

/* The command line's texts: usage lines, help pages and the exit statuses, word for word as
 * argparse prints Python's cli.py. */

/** The largest movie ID and the most pages a search may load (as in Python's cli.py). */
internal const val MAX_ID = Long.MAX_VALUE
internal const val MAX_PAGES = 1000
/** How long a command waits for the library's answer, in milliseconds. */
internal const val TIMEOUT_MS = 30_000L

internal val SECTIONS: List<String> = cinematic.SectionId.values

internal const val MAIN_USAGE = "usage: cinematic [-h] [--version] [--json] COMMAND ..."
internal const val SEARCH_USAGE = "usage: cinematic search [-h] [--pages N] [--json] query [query ...]"
internal const val DISCOVER_USAGE = "usage: cinematic discover [-h] [--section SECTION] [--json] [SECTION]"
internal const val DETAIL_USAGE = "usage: cinematic detail [-h] [--json] ID"

internal const val EPILOG = """exit status:
  0    answered (a search may find nothing; also when a pipe's reader went away early)
  1    failed: the library reported a failure (e.g. notFound), or the answer could not be
       written (standard output closed or full)
  2    bad usage (unknown command or section, a query under 2 or over 256 characters, an ID
       or --pages not a whole number in ASCII digits within range, an argument not UTF-8)
  3    the library could not be loaded
  130  interrupted"""

internal val MAIN_HELP = """$MAIN_USAGE

Search, discover and look up movies in the Cinematic catalog (58,788 films).

positional arguments:
  COMMAND
    search    search titles (typos, numerals, years, decades and genres are
              understood: 1994, 90s comedy); standard error says what the
              catalog cannot answer (people, genres it lacks) and when more
              results exist
    discover  a browsing section
    detail    one movie by its id

options:
  -h, --help  show this help message and exit
  --version   show program's version number and exit
  --json      print the answer as JSON

$EPILOG
"""

internal val SEARCH_HELP = """$SEARCH_USAGE

positional arguments:
  query       what to search for, e.g. godfather 2

options:
  -h, --help  show this help message and exit
  --pages N   pages of 20 results to show (default 1, at most $MAX_PAGES)
  --json      print the answer as JSON
"""

internal val DISCOVER_HELP = """$DISCOVER_USAGE

positional arguments:
  SECTION            popular, topRated, action, animation, comedy, drama,
                     documentary, romance, short (default: popular); any case,
                     with or without _ or - (top_rated)

options:
  -h, --help         show this help message and exit
  --section SECTION  the same as SECTION
  --json             print the answer as JSON
"""


internal val DETAIL_HELP = """$DETAIL_USAGE

positional arguments:
  ID          the movie's id, e.g. 15249

options:
  -h, --help  show this help message and exit
  --json      print the answer as JSON
"""
