"""A recording as :mod:`cinematic.testing.from_recording` reads it: every file is hostile
until proven ours, and data never becomes code.

:func:`read` reads the file through :mod:`cinematic._files` (a regular file only, at most
:data:`MAX_BYTES`, each line strict JSON nested at most 64 levels); a last line cut short (a
writer killed mid-line) is left out. :func:`check` then holds every line to what the library
writes (docs/wire.md, Recordings): the first line is the session, each line of a known event
has the members the generator uses, of their types: counts and times are integers (times:
finite numbers) in range, never booleans or strings; a feature is one of the schema's; a
catalog request has only the members the provider protocol defines. Anything else is a
:class:`RecordingError` naming the line.
"""

from __future__ import annotations

import keyword
import math
import os
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple

from .. import wire
from .._files import RefusedFile, check_value, open_regular, read_regular, parse_json

__all__ = ["MAX_BYTES", "CATALOG_OPS", "REQUEST_KEYS", "ParsedLines", "RecordingError", "read", "check"]

#: The largest recording read (a long session of the terminal app is a few megabytes).
MAX_BYTES = 32 << 20
#: The catalog's request ops (favorites requests are answered by the test's own database).
CATALOG_OPS = ("search", "discover", "movie")
#: The members of each catalog request (the schema's provider requests): the only keyword
#: names a generated ``rt.catalog.wait_for(...)`` is given.
REQUEST_KEYS: Dict[str, Tuple[str, ...]] = {
    "search": tuple(wire.SearchRequest.__annotations__),
    "discover": tuple(wire.DiscoverRequest.__annotations__),
    "movie": tuple(wire.MovieRequest.__annotations__),
}
_LARGEST = (1 << 63) - 1
_MAX_TIME = 1 << 53       # milliseconds: exact as a JSON real number
_MAX_MS = (1 << 31) - 1   # a debounce or a deadline


class ParsedLines(List[Any]):
    """Lines :func:`read` parsed with :func:`~cinematic._files.parse_json`: their values are
    JSON values already checked (:func:`check` does not walk them again)."""


class RecordingError(ValueError):
    """A file that is not a recording the library could have written: ``str()`` is one line,
    ``"line N: what is wrong"`` (``line`` is None for what is wrong with the whole file)."""

    def __init__(self, line: Optional[int], problem: str) -> None:
        self.line = line
        self.problem = problem
        super().__init__(problem if line is None else f"line {line}: {problem}")


def _shown(value: Any) -> str:
    """A value as an error message shows it: its JSON kind, or a short repr."""
    if isinstance(value, bool) or value is None:
        return repr(value).lower() if value is not None else "null"
    if isinstance(value, int):
        return str(value) if abs(value) <= _LARGEST * 2 else "a huge integer"
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, str):
        return repr(value[:40] + ("..." if len(value) > 40 else ""))
    if isinstance(value, dict):
        return "an object"
    return "an array" if isinstance(value, list) else type(value).__name__


#: A check: None when the value is right, else what is wrong with it.
Check = Callable[[Any], Optional[str]]


def _whole(low: int, high: int) -> Check:
    def check(value: Any) -> Optional[str]:
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            return f"must be an integer from {low} to {high}, not {_shown(value)}"
        return None
    return check


def _time(value: Any) -> Optional[str]:
    if (isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value)
            or not 0 <= value <= _MAX_TIME):
        return f"must be a number of milliseconds from 0 to {_MAX_TIME}, not {_shown(value)}"
    return None


def _of(kind: type, name: str) -> Check:
    def check(value: Any) -> Optional[str]:
        return None if isinstance(value, kind) else f"must be {name}, not {_shown(value)}"
    return check


def _object_or_null(value: Any) -> Optional[str]:
    return None if value is None or isinstance(value, dict) else f"must be an object or null, not {_shown(value)}"


def _one_of(*choices: str) -> Check:
    def check(value: Any) -> Optional[str]:
        if isinstance(value, str) and value in choices and value.isidentifier() and not keyword.iskeyword(value):
            return None
        return f"must be one of {', '.join(choices)}, not {_shown(value)}"
    return check


def _members(**checks: Tuple[bool, Check]) -> Check:
    """An object whose members named here pass their checks (True: the member is required)."""
    def check(value: Any) -> Optional[str]:
        if not isinstance(value, dict):
            return f"must be an object, not {_shown(value)}"
        for name, (required, member_check) in checks.items():
            if name not in value:
                if required:
                    return f"has no {name!r} member"
                continue
            problem = member_check(value[name])
            if problem is not None:
                return f"member {name!r} {problem}"
        return None
    return check


def _request(value: Any) -> Optional[str]:
    problem = _members(op=(True, _of(str, "a string")))(value)
    if problem is not None or value["op"] not in CATALOG_OPS:
        return problem
    known = REQUEST_KEYS[value["op"]]
    for key in value:
        if key not in known or not key.isidentifier() or keyword.iskeyword(key):
            return f"has the member {_shown(key)}, which a {value['op']} request does not have ({', '.join(known)})"
    return None


_COUNT = _whole(0, _LARGEST)
_TEXT = _of(str, "a string")
_BOOL = _of(bool, "true or false")
_OBJECT = _of(dict, "an object")
_CONFIG = _members(search=(False, _members(debounceMs=(False, _whole(0, _MAX_MS)))),
                   requestDeadlineMs=(False, _whole(0, _MAX_MS)), clock=(False, _TEXT),
                   catalog=(False, lambda v: None if isinstance(v, (str, dict)) else f"must be a string or an object, not {_shown(v)}"))
_STORE = {"store": (True, _COUNT)}
_STEP = {"store": (True, _COUNT), "sequence": (True, _COUNT)}
#: The members each known event's lines must have (True) or may have, and their checks.
EVENTS: Mapping[str, Dict[str, Tuple[bool, Check]]] = {
    "session": {"library": (True, _TEXT), "config": (True, _CONFIG)},
    "open": {**_STORE, "feature": (True, _one_of(*wire.FEATURES)), "args": (False, _object_or_null)},
    "close": _STORE,
    "intent": {**_STEP, "host": (True, _BOOL), "intent": (True, _members(type=(True, _TEXT)))},
    "state": {**_STEP, "state": (True, _OBJECT)},
    "revert": _STEP,
    "advance": {"ms": (False, _COUNT)},
    "request": {"id": (True, _COUNT), "request": (True, _request)},
    "answer": {"id": (True, _COUNT), "answer": (False, _OBJECT), "source": (False, _one_of("live", "cache")),
               "cancelled": (False, _BOOL), "cachedAt": (False, _COUNT)},
    "observe": {"stream": (False, _COUNT)},
    "snapshot": {"stream": (False, _COUNT), "version": (False, _COUNT), "movies": (False, _of(list, "an array"))},
    "providerRequest": {"requestId": (True, _COUNT), "request": (False, _OBJECT)},
    "providerAnswer": {"requestId": (True, _COUNT), "answer": (False, _OBJECT), "dropped": (False, _BOOL)},
    "providerCancel": {"requestId": (False, _COUNT)},
    "end": {},
}


def check(lines: Sequence[Any]) -> None:
    """Raises :class:`RecordingError` for the first line (1-based) that is not what the library
    writes (see the module); lines of an event it does not know need only be objects with a
    string ``event`` (and a time, if they have one)."""
    for number, line in enumerate(lines, 1):
        try:
            if not isinstance(lines, ParsedLines):
                check_value(line)
        except RefusedFile as refused:
            raise RecordingError(number, refused.reason) from None
        if not isinstance(line, dict):
            raise RecordingError(number, f"a line must be a JSON object, not {_shown(line)}")
        event = line.get("event")
        if not isinstance(event, str):
            raise RecordingError(number, f"member 'event' must be a string, not {_shown(event)}")
        if (number == 1) != (event == "session"):
            raise RecordingError(number, "not a recording: its first line is a session line, and only its first"
                                 f" (this one is {_shown(event)})")
        known = EVENTS.get(event)
        problem = _members(t=(known is not None, _time), **(known or {}))(line)
        if problem is not None:
            raise RecordingError(number, f"{event} line: {problem}")
    if not lines:
        raise RecordingError(1, "the file is empty: a recording starts with a session line")


def read(path: "os.PathLike[str] | str") -> ParsedLines:
    """The lines of the recording at ``path``, parsed (a last line cut short is left out; the
    lines are not :func:`check`-ed). Raises :class:`RecordingError` for a line that is not
    JSON, :class:`~cinematic._files.RefusedFile` for a file that is not a regular file or is
    larger than :data:`MAX_BYTES`, ``OSError`` when it cannot be opened."""
    fd = open_regular(path)
    try:
        data = read_regular(fd, MAX_BYTES)
    finally:
        os.close(fd)
    texts = data.split(b"\n")
    complete = texts[-1] == b""
    if complete:
        texts.pop()
    lines = ParsedLines()
    for number, text in enumerate(texts, 1):
        try:
            lines.append(parse_json(text))
        except RefusedFile as refused:
            if number == len(texts) > 1 and not complete:
                break  # the last line, cut short by a writer that was killed: left out
            column = f" (column {refused.column})" if refused.column is not None else ""
            raise RecordingError(number, refused.reason + column) from None
    return lines
