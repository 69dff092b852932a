"""The ``cinematic`` command: search, discover and look up movies from a shell.

::

    cinematic search dune             # the first page of results, best first
    cinematic search dune --json      # the results as a JSON array of movies
    cinematic discover --section topRated
    cinematic detail 15249

Exit status: 0 when the command answered (a search may find nothing), 1 when the library
reported a failure (for example a movie id that is not in the catalog: ``notFound``),
2 for bad usage (unknown command or section, a query under 2 or over 256 characters), 3 when the
library cannot be loaded or opened (the message says where it was looked for).
"""

import argparse
import json
import sys
from typing import Any, Dict, List, Optional, Sequence, TextIO

from . import wire
from .errors import CinematicError, InvalidError
from ._native import LibraryNotFoundError
from .runtime import Runtime

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2
EXIT_NO_LIBRARY = 3



class _Failed(Exception):
    """The library answered with a failure phase."""


#: The exit status of each failure, first match wins (InvalidError is a CinematicError).
_EXIT_STATUS_OF = (
    (LibraryNotFoundError, EXIT_NO_LIBRARY),
    (InvalidError, EXIT_USAGE),
    (CinematicError, EXIT_FAILED),
    (_Failed, EXIT_FAILED),
)

#: How long a command waits for the library's answer, in seconds.
TIMEOUT = 30.0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="cinematic",
        description="Search, discover and look up movies in the Cinematic catalog (58,788 films).",
        epilog="Exit status: 0 answered, 1 the library reported a failure (e.g. notFound), "
        "2 bad usage, 3 the library could not be loaded.",
    )
    parser.add_argument("--version", action="version", version=f"cinematic {wire.VERSION}")
    parser.add_argument("--json", action="store_true", help="print the answer as JSON")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    search = commands.add_parser("search", help="search titles (typos, numerals and years are understood)")
    search.add_argument("query", nargs="+", help="what to search for, e.g. godfather 2")
    search.add_argument("--pages", type=int, default=1, metavar="N", help="pages of 20 results to show (default 1)")
    discover = commands.add_parser("discover", help="a browsing section")
    discover.add_argument("--section", choices=wire.SECTION_ID_VALUES, default="popular", help="default: popular")
    detail = commands.add_parser("detail", help="one movie by its id")
    detail.add_argument("movie_id", type=int, metavar="ID", help="the movie's id, e.g. 15249")
    for sub in (search, discover, detail):
        sub.add_argument("--json", action="store_true", default=argparse.SUPPRESS, help="print the answer as JSON")
    return parser


def _line(movie: Dict[str, Any]) -> str:
    return f"{movie['id']:>6}  {movie['title']} ({movie['year']})  {movie['rating']:.1f}/10, {movie['votes']:,} votes"


def _phase_value(phase: Dict[str, Any]) -> Any:
    if phase["phase"] == "failed":
        error = phase["error"]
        raise _Failed(f"{error['code']}: {error.get('message', '')}".rstrip(": "))
    return phase.get("value")


def _print_json(value: Any, out: TextIO) -> None:
    json.dump(value, out, ensure_ascii=False)
    out.write("\n")


def _search(runtime: Runtime, query: str, pages: int, out: TextIO, as_json: bool) -> None:
    with runtime.search() as store:
        store.query_changed(query)
        store.submit()
        # `submitted` reduces synchronously: a searchable query is loading now; a short one idle.
        state = store.wait_for(lambda s: s["results"]["phase"] != "loading", timeout=TIMEOUT)
        movies: List[Dict[str, Any]] = list(_phase_value(state["results"]) or [])
        while state["results"]["phase"] == "loaded" and state["pagesLoaded"] < pages and not state["isExhausted"]:
            wanted = state["pagesLoaded"] + 1
            store.load_more()
            state = store.wait_for(lambda s: s["pagesLoaded"] >= wanted or s["loadMoreError"] is not None, timeout=TIMEOUT)
            if state["loadMoreError"] is not None:
                raise _Failed(state["loadMoreError"]["code"])
            movies = list(_phase_value(state["results"]) or [])
    if as_json:
        _print_json(movies, out)
    elif not movies:
        out.write(f"no movies match {query!r}\n")
    else:
        out.writelines(_line(movie) + "\n" for movie in movies)


def _discover(runtime: Runtime, section_id: str, out: TextIO, as_json: bool) -> None:
    with runtime.discover() as store:
        store.task()

        def section_of(state: Dict[str, Any]) -> Dict[str, Any]:
            return next(s for s in state["sections"] if s["section"] == section_id)

        state = store.wait_for(lambda s: section_of(s)["movies"]["phase"] in ("loaded", "failed"), timeout=TIMEOUT)
        section = section_of(state)
        movies = list(_phase_value(section["movies"]) or [])
    if as_json:
        _print_json(movies, out)
    else:
        out.write(f"{section['title']}\n")
        out.writelines(_line(movie) + "\n" for movie in movies)


def _detail(runtime: Runtime, movie_id: int, out: TextIO, as_json: bool) -> None:
    with runtime.detail(movie_id) as store:
        store.task()
        state = store.wait_for(lambda s: s["detail"]["phase"] in ("loaded", "failed"), timeout=TIMEOUT)
        movie = _phase_value(state["detail"])
    if as_json:
        _print_json(movie, out)
        return
    out.write(f"{movie['title']} ({movie['year']})\n")
    out.write(f"  {', '.join(movie['genres']) or 'no genre'}; {movie['runtime']} min; MPAA {movie['mpaa'] or 'unknown'}\n")
    out.write(f"  rated {movie['rating']:.1f}/10 by {movie['votes']:,} IMDb users\n")
    if movie.get("budget"):
        out.write(f"  budget ${movie['budget']:,}\n")


def main(argv: Optional[Sequence[str]] = None, out: TextIO = sys.stdout, err: TextIO = sys.stderr) -> int:
    """Runs the command line ``argv`` (default: ``sys.argv[1:]``); returns the exit status."""
    try:
        args = _parser().parse_args(argv)
    except SystemExit as exit_:  # argparse: --help, --version (0) or a usage error (2)
        return int(exit_.code or 0)
    if args.command == "search" and len(" ".join(args.query).strip()) < 2:
        err.write("cinematic: a search needs at least 2 characters\n")
        return EXIT_USAGE
    try:
        with Runtime() as runtime:
            if args.command == "search":
                _search(runtime, " ".join(args.query), max(1, args.pages), out, args.json)
            elif args.command == "discover":
                _discover(runtime, args.section, out, args.json)
            else:
                _detail(runtime, args.movie_id, out, args.json)
    except BrokenPipeError:  # `cinematic search x | head`
        return EXIT_OK
    except (LibraryNotFoundError, _Failed, CinematicError) as error:
        err.write(f"cinematic: {error}\n")
        return next(status for kind, status in _EXIT_STATUS_OF if isinstance(error, kind))
    return EXIT_OK

