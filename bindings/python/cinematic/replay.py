"""Replaying a recorded session: ``python -m cinematic.replay PATH``.

A runtime opened with ``{"record": PATH}`` writes the session to PATH (one JSON object per
line; see ``docs/wire.md``, "Recordings"). :func:`replay` runs that recording in a fresh
runtime with the manual clock, answering every catalog and favorites request from the
recording, and checks that every state matches::

    from cinematic.replay import replay

    report = replay("session.jsonl")
    if not report["matched"]:
        print(report["divergence"])

From the shell, ``python -m cinematic.replay PATH`` exits 0 when every state matches, 1 on a
divergence (printing the first: the intent, the expected and the actual state) and 2 when the
recording cannot be read. ``build/bin/cinematic-replay PATH`` is the same tool in C.
"""

from __future__ import annotations

import argparse
import ctypes
import json
import os
import sys
from typing import Optional, Sequence, TextIO

from . import _native, wire
from ._core import check, take_string
from .errors import CinematicError

__all__ = ["replay", "main", "EXIT_MATCHED", "EXIT_DIVERGED", "EXIT_ERROR"]

#: Every state matched.
EXIT_MATCHED = 0
#: A state differed (or one side lacks a state the other has).
EXIT_DIVERGED = 1
#: The recording could not be read, or the command line is wrong.
EXIT_ERROR = 2


def replay(path: "os.PathLike[str] | str") -> wire.ReplayReport:
    """Replays the recording at ``path`` (``cinematic_replay``) and returns the report:
    ``{"matched": True, "lines": 42, "stores": 3, "states": 17}``, or ``{"matched": False,
    "states": 5, "divergence": {"line", "store", "feature", "index", "intent",
    "replayedIntent", "expected", "actual"}}`` at the first divergent state in file order.

    Blocks until the replay ends. Raises CinematicIOError (cannot read ``path``), JSONError /
    InvalidError (a malformed recording; the message names the line), TooLargeError.
    """
    matched = ctypes.c_int(0)
    out = ctypes.c_void_p()
    check(_native.lib().cinematic_replay(os.fsencode(path), ctypes.byref(matched), ctypes.byref(out)),
          "cinematic_replay")
    report: wire.ReplayReport = json.loads(take_string(out))
    return report


def describe(report: wire.ReplayReport) -> str:
    """A readable account of a report (what the command prints)."""
    if report["matched"]:
        return (f"replay matched: {report['states']} states of {report.get('stores', 0)} stores, "
                f"{report.get('lines', 0)} lines")
    divergence = report.get("divergence")
    if divergence is None:  # pragma: no cover - the library always names the divergence
        return "replay diverged"
    where = f"at line {divergence['line']}" if divergence["line"] is not None else "after the last recorded state"
    return "\n".join([
        f"replay diverged {where}: {divergence['feature']} store {divergence['store']}, "
        f"state {divergence['index']} ({report['states']} states matched before)",
        f"  intent:   {json.dumps(divergence['intent'])}",
        f"  replayed: {json.dumps(divergence['replayedIntent'])}",
        f"  expected: {json.dumps(divergence['expected'])}",
        f"  actual:   {json.dumps(divergence['actual'])}",
    ])


def main(argv: Optional[Sequence[str]] = None, out: Optional[TextIO] = None, err: Optional[TextIO] = None) -> int:
    """Runs ``python -m cinematic.replay`` with ``argv`` (default ``sys.argv[1:]``), writing
    to ``out`` and ``err`` (default: the current ``sys.stdout`` and ``sys.stderr``); returns
    the exit status."""
    out = out or sys.stdout
    err = err or sys.stderr
    parser = argparse.ArgumentParser(prog="python -m cinematic.replay",
                                     description="Replays a recorded cinematic session and checks every state.")
    parser.add_argument("path", help="a recording (runtime config \"record\")")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:
        return EXIT_ERROR if exit_.code else EXIT_MATCHED
    try:
        report = replay(args.path)
    except (CinematicError, _native.LibraryNotFoundError) as error:
        err.write(f"cinematic.replay: {error}\n")
        return EXIT_ERROR
    out.write((json.dumps(report) if args.json else describe(report)) + "\n")
    return EXIT_MATCHED if report["matched"] else EXIT_DIVERGED


if __name__ == "__main__":
    sys.exit(main())
