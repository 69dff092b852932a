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

import contextlib
import io
import os
import sys
from typing import List, Optional, Sequence, TextIO

from ._cli_commands import TIMEOUT, Failed, detail, discover, search  # (TIMEOUT, MAX_ID, MAX_PAGES:
from ._cli_parser import MAX_ID, MAX_PAGES                             # importable here as before)
from ._cli_parser import parser as _parser
from ._native import LibraryNotFoundError
from .errors import CinematicError, InvalidError
from .runtime import Runtime

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2
EXIT_NO_LIBRARY = 3
EXIT_INTERRUPTED = 130

#: The exit status of each failure, first match wins (InvalidError is a CinematicError).
_EXIT_STATUS_OF = (
    (LibraryNotFoundError, EXIT_NO_LIBRARY),
    (InvalidError, EXIT_USAGE),
    (CinematicError, EXIT_FAILED),
    (Failed, EXIT_FAILED),
)


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
                answer = search(runtime, args.query, args.pages, args.json)
            elif args.command == "discover":
                answer = discover(runtime, args.section, args.json)
            else:
                answer = detail(runtime, args.movie_id, args.json)
    except (LibraryNotFoundError, Failed, CinematicError) as error:
        io_.say(f"cinematic: {error}\n")
        return next(status for kind, status in _EXIT_STATUS_OF if isinstance(error, kind))
    io_.say(answer.before)
    status = io_.write(answer.text)
    if status == EXIT_OK:
        io_.say(answer.after)
    return status
