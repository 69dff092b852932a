"""The ``cinematic`` command: search, discover and look up movies from a shell.

::

    cinematic search dune             # the first page of results, best first
    cinematic search dune --json      # the results as a JSON array of movies
    cinematic search love --pages 2   # the first two pages

A search also says, on standard error (text output only, so that standard output holds the
results alone): what the catalog cannot answer in the query (``tom hanks``: the catalog has
no people; ``horror``: it has no such genre), and, when more results exist than were shown,
the command that shows them (``--pages N``).
    cinematic discover top_rated      # or topRated, toprated, --section topRated
    cinematic detail 15249

Exit status (also in ``cinematic --help``):

- 0: the command answered (a search may find nothing). Also when the reader of a pipe went
  away early (``cinematic search love | head -1``): nothing more is written, no message.
- 1: the command failed: the library reported a failure (for example a movie id that is not
  in the catalog: ``notFound``), or the answer could not be written (standard output closed,
  as with ``>&-``, or full, as ``/dev/full`` is).
- 2: bad usage: an unknown command or section, a query under 2 or over 256 characters, an ID
  or ``--pages`` that is not a whole number in ASCII digits within its range (IDs: 1 to
  9223372036854775807; pages: 1 to 1000), an argument that is not valid UTF-8.
- 3: the library cannot be loaded or opened (the message says where it was looked for).
- 130: interrupted (Ctrl-C).

Every status but 0 comes with a one-line message on standard error (``cinematic: ...``);
there is never a traceback.
"""

import argparse
import contextlib
import io
import json
import os
import re
import shlex
import sys
from typing import Any, Callable, Dict, List, Mapping, NamedTuple, Optional, Sequence, TextIO

from . import wire
from .errors import CinematicError, InvalidError
from ._native import LibraryNotFoundError
from .runtime import Runtime

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2
EXIT_NO_LIBRARY = 3
EXIT_INTERRUPTED = 130

#: The largest movie ID (IDs are 64-bit on the wire) and the most pages a search may load.
MAX_ID = 2 ** 63 - 1
MAX_PAGES = 1000

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

_EPILOG = """exit status:
  0    answered (a search may find nothing; also when a pipe's reader went away early)
  1    failed: the library reported a failure (e.g. notFound), or the answer could not be
       written (standard output closed or full)
  2    bad usage (unknown command or section, a query under 2 or over 256 characters, an ID
       or --pages not a whole number in ASCII digits within range, an argument not UTF-8)
  3    the library could not be loaded
  130  interrupted"""


def _whole_number(low: int, high: int) -> Callable[[str], int]:
    """An argparse type: ASCII digits only (int() also takes "\u0663", "+3", " 3" and "1_0"),
    from ``low`` to ``high``."""
    def parse(text: str) -> int:
        if re.fullmatch(r"[0-9]{1,20}", text) is None or not low <= int(text) <= high:
            raise argparse.ArgumentTypeError(f"must be a whole number from {low} to {high} in ASCII digits, not {text!r}")
        return int(text)
    return parse


def _section_key(text: str) -> str:
    return re.sub(r"[_\-\s]", "", text).lower()


#: Each section by its key: lowercase, without _ or - ("top_rated", "TopRated" and "toprated"
#: are topRated).
_SECTIONS = {_section_key(section): section for section in wire.SECTION_ID_VALUES}


def _section(text: str) -> str:
    """An argparse type: a Discover section in any spelling people type."""
    section = _SECTIONS.get(_section_key(text))
    if section is None:
        raise argparse.ArgumentTypeError(f"unknown section {text!r} (choose from {', '.join(wire.SECTION_ID_VALUES)})")
    return section


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="cinematic",
        description="Search, discover and look up movies in the Cinematic catalog (58,788 films).",
        epilog=_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"cinematic {wire.VERSION}")
    parser.add_argument("--json", action="store_true", help="print the answer as JSON")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    search = commands.add_parser(
        "search", help="search titles (typos, numerals, years, decades and genres are understood: 1994, 90s comedy); "
                       "standard error says what the catalog cannot answer (people, genres it lacks) and when more "
                       "results exist")
    search.add_argument("query", nargs="+", help="what to search for, e.g. godfather 2")
    search.add_argument("--pages", type=_whole_number(1, MAX_PAGES), default=1, metavar="N",
                        help=f"pages of 20 results to show (default 1, at most {MAX_PAGES})")
    discover = commands.add_parser("discover", help="a browsing section")
    discover.add_argument("section", nargs="?", type=_section, metavar="SECTION",
                          help=f"{', '.join(wire.SECTION_ID_VALUES)} (default: popular); "
                               "any case, with or without _ or - (top_rated)")
    discover.add_argument("--section", dest="section_option", type=_section, metavar="SECTION",
                          help="the same as SECTION")
    detail = commands.add_parser("detail", help="one movie by its id")
    detail.add_argument("movie_id", type=_whole_number(1, MAX_ID), metavar="ID", help="the movie's id, e.g. 15249")
    for sub in (search, discover, detail):
        sub.add_argument("--json", action="store_true", default=argparse.SUPPRESS, help="print the answer as JSON")
    return parser


def _line(movie: Dict[str, Any]) -> str:
    return f"{movie['id']:>6}  {movie['title']} ({movie['year']})  {movie['rating']:.1f}/10, {movie['votes']:,} votes"


def _phase_value(phase: Mapping[str, Any]) -> Any:
    if phase["phase"] == "failed":
        error = phase["error"]
        raise _Failed(f"{error['code']}: {error.get('message', '')}".rstrip(": "))
    return phase.get("value")


def _json_text(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False) + "\n"


class _Answer(NamedTuple):
    """What a command writes: the answer (standard output) and notes on standard error,
    before it (a search's hint) and after it (more results exist)."""
    text: str
    before: str = ""
    after: str = ""


def _search(runtime: Runtime, words: List[str], pages: int, as_json: bool) -> _Answer:
    query = " ".join(words)
    with runtime.search() as store:
        store.query_changed(query)
        store.submitted()
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
        return _Answer(_json_text(movies))
    # What the catalog cannot answer ("tom hanks": no people), then whether more results exist.
    found = state.get("hint")
    hint = f"note: {found['text']}\n" if found is not None else ""
    if not movies:
        return _Answer(f"no movies match {query!r}\n", hint)
    more = ""
    if state["results"]["phase"] == "loaded" and not state["isExhausted"]:
        command = shlex.join(["cinematic", "search", *words, "--pages", str(state["pagesLoaded"] + 1)])
        more = f"{len(movies)} shown, more match: {command}\n"
    return _Answer("".join(_line(movie) + "\n" for movie in movies), hint, more)


def _discover(runtime: Runtime, section_id: str, as_json: bool) -> _Answer:
    with runtime.discover() as store:
        store.task()

        def section_of(state: wire.DiscoverState) -> wire.DiscoverSection:
            return next(s for s in state["sections"] if s["section"] == section_id)

        state = store.wait_for(lambda s: section_of(s)["movies"]["phase"] in ("loaded", "failed"), timeout=TIMEOUT)
        section = section_of(state)
        movies = list(_phase_value(section["movies"]) or [])
    if as_json:
        return _Answer(_json_text(movies))
    return _Answer(f"{section['title']}\n" + "".join(_line(movie) + "\n" for movie in movies))


def _detail(runtime: Runtime, movie_id: int, as_json: bool) -> _Answer:
    with runtime.detail(movie_id) as store:
        store.task()
        state = store.wait_for(lambda s: s["detail"]["phase"] in ("loaded", "failed"), timeout=TIMEOUT)
        movie = _phase_value(state["detail"])
    if as_json:
        return _Answer(_json_text(movie))
    text = (f"{movie['title']} ({movie['year']})\n"
            f"  {', '.join(movie['genres']) or 'no genre'}; {movie['runtime']} min; MPAA {movie['mpaa'] or 'unknown'}\n"
            f"  rated {movie['rating']:.1f}/10 by {movie['votes']:,} IMDb users\n")
    if movie.get("budget"):
        text += f"  budget ${movie['budget']:,}\n"
    return _Answer(text)


class _Output:
    """Standard output and error as the command uses them: writing never raises.

    ``out`` None means standard output is closed (Python sets ``sys.stdout`` to None when
    descriptor 1 was closed at start). A write that fails is reported once on ``err``; a
    broken pipe (the reader went away) is not an error and is not reported.
    """

    def __init__(self, out: Optional[TextIO], err: Optional[TextIO]) -> None:
        self.out, self.err = out, err

    def say(self, text: str) -> None:
        """Writes a message to standard error, if it can (a closed or full stderr is ignored)."""
        if self.err is None or not text:
            return
        try:
            self.err.write(text)
            self.err.flush()
        except (OSError, ValueError):
            pass

    def write(self, text: str) -> int:
        """Writes the answer and flushes it; returns the exit status that follows."""
        if not text:
            return EXIT_OK
        if self.out is None:
            self.say("cinematic: cannot write the answer: standard output is closed\n")
            return EXIT_FAILED
        try:
            self.out.write(text)
            self.out.flush()
            return EXIT_OK
        except BrokenPipeError:          # `cinematic search x | head`: the reader has all it wants
            self._discard_stdout()
            return EXIT_OK
        except (OSError, ValueError) as error:
            self._discard_stdout()
            reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
            self.say(f"cinematic: cannot write the answer to standard output: {reason}\n")
            return EXIT_FAILED

    def _discard_stdout(self) -> None:
        # What is left in sys.stdout's buffer would fail again (with a traceback) when Python
        # flushes it at exit: point descriptor 1 at /dev/null first.
        if self.out is not sys.stdout or self.out is None:
            return
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, self.out.fileno())
            os.close(devnull)
        except (OSError, ValueError):
            pass


def _not_utf8(argv: Sequence[str]) -> Optional[str]:
    """The first argument that is not valid UTF-8 (Python keeps such bytes as lone
    surrogates), shown with its bytes escaped; None when all are."""
    for arg in argv:
        try:
            arg.encode("utf-8")
        except UnicodeEncodeError:
            return repr(arg.encode("utf-8", "surrogateescape"))[2:-1]
    return None


def main(argv: Optional[Sequence[str]] = None, out: Optional[TextIO] = None, err: Optional[TextIO] = None) -> int:
    """Runs the command line ``argv`` (default: ``sys.argv[1:]``), writing to ``out`` and
    ``err`` (default: ``sys.stdout`` and ``sys.stderr``); returns the exit status (see the
    module's documentation). Never raises: every failure is a message on ``err`` and a status.

    Example::

        status = main(["detail", "15249"])   # prints Dune (1984) ..., returns 0
    """
    io_ = _Output(sys.stdout if out is None else out, sys.stderr if err is None else err)
    try:
        return _run(list(sys.argv[1:] if argv is None else argv), io_)
    except KeyboardInterrupt:
        io_.say("cinematic: interrupted\n")
        return EXIT_INTERRUPTED
    except Exception as error:   # a bug: still a message, not a traceback
        io_.say(f"cinematic: unexpected {type(error).__name__}: {error}\n")
        return EXIT_FAILED


def _run(argv: List[str], io_: _Output) -> int:
    bad = _not_utf8(argv)
    if bad is not None:
        io_.say(f"cinematic: an argument is not valid UTF-8: '{bad}'\n")
        return EXIT_USAGE
    # argparse prints help, the version and usage errors itself, to sys.stdout and sys.stderr:
    # catch them, to write them with the same care as the answer.
    printed, complaint = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stdout(printed), contextlib.redirect_stderr(complaint):
            args = _parser().parse_args(argv)
    except SystemExit as exit_:  # --help, --version (0) or a usage error (2)
        io_.say(complaint.getvalue())
        status = io_.write(printed.getvalue())
        return int(exit_.code or 0) or status
    if args.command == "search" and len(" ".join(args.query).strip()) < 2:
        io_.say("cinematic: a search needs at least 2 characters\n")
        return EXIT_USAGE
    if args.command == "discover":
        given = [s for s in (args.section, args.section_option) if s is not None]
        if len(set(given)) > 1:
            io_.say(f"cinematic: two sections given: {given[0]} and {given[1]}\n")
            return EXIT_USAGE
        args.section = given[0] if given else "popular"
    try:
        with Runtime() as runtime:
            if args.command == "search":
                answer = _search(runtime, args.query, args.pages, args.json)
            elif args.command == "discover":
                answer = _discover(runtime, args.section, args.json)
            else:
                answer = _detail(runtime, args.movie_id, args.json)
    except (LibraryNotFoundError, _Failed, CinematicError) as error:
        io_.say(f"cinematic: {error}\n")
        return next(status for kind, status in _EXIT_STATUS_OF if isinstance(error, kind))
    io_.say(answer.before)
    status = io_.write(answer.text)
    if status == EXIT_OK:
        io_.say(answer.after)
    return status
