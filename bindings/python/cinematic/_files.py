"""The one way the package and its example apps read a file: every file is hostile until
proven ours (the design's rules for every surface).

- :func:`open_regular` opens only a regular file, without blocking (``O_RDONLY |
  O_NONBLOCK | O_CLOEXEC | O_NOCTTY``, and ``O_NOFOLLOW`` when symbolic links are not
  followed): the path is looked at before it is opened (a FIFO or a device is never opened)
  and the descriptor again after (what was opened is what is read). A FIFO, a device, a
  directory, a socket (or a symbolic link, when not followed) is :class:`RefusedFile`,
  naming the kind: a status, never a hang.
- :func:`read_regular` reads one whole, refusing it before reading when it is larger than
  ``max_bytes`` (and while reading when it grows past that); interrupted and short reads are
  retried.
- :func:`parse_json` takes the bytes as strict JSON: UTF-8, finite numbers, integers within
  64 bits, no lone surrogate, nested at most ``max_depth`` levels (the innermost value counts
  as a level, as in the library). Anything else is :class:`RefusedFile`, never a
  ``RecursionError``, ``UnicodeDecodeError`` or ``OverflowError``.
- :func:`read_json` is the three together.

A file that cannot be opened at all (missing, no permission) raises the ``OSError`` of
``open(2)`` (``FileNotFoundError`` when it does not exist).
"""

from __future__ import annotations

import errno
import json
import math
import os
import re
import stat
from typing import Any, Callable, List, NoReturn, Optional, Tuple

__all__ = ["MAX_DEPTH", "RefusedFile", "kind_of", "open_regular", "read_regular", "check_value", "parse_json",
           "read_json", "write_owned"]

#: How deep a JSON document we read may nest (what the package reads nests a dozen levels).
MAX_DEPTH = 64
#: The JSON integers we accept: those the library writes (64 bits, signed or not).
_INT_RANGE = (-(1 << 63), (1 << 64) - 1)
_SURROGATE = re.compile("[\ud800-\udfff]")
#: What a JSON text needs for a lone surrogate in its value: an escape of one.
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
#: What a JSON text needs for a number out of range: 19 digits in a row, or an exponent.
_RISKY_NUMBER = re.compile(r"[0-9]{19}|[0-9][eE]")
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_EMPTY_PAIR = re.compile(r"\[\]|\{\}")
_KINDS: Tuple[Tuple[Callable[[int], bool], str], ...] = (
    (stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"), (stat.S_ISLNK, "a symbolic link"))


class RefusedFile(ValueError):
    """A file a reader refuses: not a regular file, too large, not UTF-8, not JSON, nested too
    deep, a number out of range. ``str()`` is one line saying why ("it is a FIFO, not a regular
    file"); ``reason`` is that line without the position; ``line`` and ``column`` (1-based) say
    where in the text the problem is, when it is at one place."""

    def __init__(self, reason: str, line: Optional[int] = None, column: Optional[int] = None) -> None:
        self.reason = reason
        self.line = line
        self.column = column
        where = f" (line {line}, column {column})" if line is not None and column is not None else ""
        super().__init__(reason + where)


def kind_of(mode: int) -> str:
    """What a file of ``st_mode`` is, as a message names it: "a FIFO", "a directory", ..."""
    if stat.S_ISREG(mode):
        return "a regular file"
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


def _refuse_kind(mode: int) -> NoReturn:
    raise RefusedFile(f"it is {kind_of(mode)}, not a regular file")


def open_regular(path: "os.PathLike[str] | str", *, follow_symlinks: bool = True) -> int:
    """A read-only, non-blocking descriptor of the regular file at ``path`` (the caller closes
    it). Raises :class:`RefusedFile` for anything else, naming the kind (a symbolic link too
    when ``follow_symlinks`` is False: then it is never followed), and the ``OSError`` of
    ``open(2)`` when it cannot be opened (``FileNotFoundError`` when it does not exist)."""
    # Looked at before opening: opening a device (or a FIFO) can do things of its own.
    mode = os.stat(path, follow_symlinks=follow_symlinks).st_mode
    if not stat.S_ISREG(mode):
        _refuse_kind(mode)
    flags = os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC | os.O_NOCTTY
    try:
        fd = os.open(path, flags if follow_symlinks else flags | os.O_NOFOLLOW)
    except OSError as error:
        if error.errno == errno.ELOOP and not follow_symlinks:  # replaced by a link meanwhile
            raise RefusedFile("it is a symbolic link, not a regular file") from None
        raise
    try:
        mode = os.fstat(fd).st_mode   # what was opened, whatever the path says now
        if not stat.S_ISREG(mode):
            _refuse_kind(mode)
    except BaseException:
        os.close(fd)
        raise
    return fd


def read_regular(fd: int, max_bytes: int) -> bytes:
    """The whole content of the regular file open on ``fd``, from where its offset is. Raises
    :class:`RefusedFile` when it is larger than ``max_bytes`` (looked at before reading) or
    grows past it while being read."""
    size = os.fstat(fd).st_size
    if size > max_bytes:
        raise RefusedFile(f"it is larger than {max_bytes} bytes ({size} bytes)")
    chunks: List[bytes] = []
    total = 0
    while True:
        try:
            chunk = os.read(fd, min(max_bytes + 1 - total, 1 << 20))
        except InterruptedError:
            continue
        except BlockingIOError:
            raise RefusedFile("it cannot be read without waiting") from None
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)
        total += len(chunk)
        if total > max_bytes:
            raise RefusedFile(f"it grew larger than {max_bytes} bytes while it was read")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise RefusedFile(f"the number {text[:40]} is out of range")
    return value


def _bounded(text: str) -> int:
    if len(text) > 21 or not _INT_RANGE[0] <= int(text) <= _INT_RANGE[1]:
        raise RefusedFile(f"the integer {text[:40]}{'...' if len(text) > 40 else ''} is out of range (64 bits)")
    return int(text)


def _constant(text: str) -> Any:
    raise RefusedFile(f"{text} is not a JSON number")


def check_value(value: Any, max_depth: int = MAX_DEPTH) -> None:
    """Raises :class:`RefusedFile` unless ``value`` is what :func:`parse_json` gives: dicts
    with string keys, lists, strings without lone surrogates (from ``\\ud800`` escapes: not
    text), finite floats, integers within 64 bits, booleans and None, nested at most
    ``max_depth`` levels. Walks level by level, without recursion."""
    level: List[Any] = [value]
    depth = 1
    while level:
        if depth > max_depth:
            raise RefusedFile(f"it nests deeper than {max_depth} levels")
        inner: List[Any] = []
        for item in level:
            if isinstance(item, str):
                if not item.isascii() and _SURROGATE.search(item):
                    raise RefusedFile("a string holds a lone surrogate (\\ud800 to \\udfff): it is not text")
            elif isinstance(item, dict):
                for key in item:
                    if not isinstance(key, str):
                        raise RefusedFile(f"an object key is not a string but {type(key).__name__}")
                    inner.append(key)
                inner.extend(item.values())
            elif isinstance(item, list):
                inner.extend(item)
            elif isinstance(item, bool) or item is None:
                pass
            elif isinstance(item, int):
                if not _INT_RANGE[0] <= item <= _INT_RANGE[1]:
                    raise RefusedFile("an integer is out of range (64 bits)")
            elif isinstance(item, float):
                if not math.isfinite(item):
                    raise RefusedFile(f"the number {item} is out of range")
            else:
                raise RefusedFile(f"a value is not JSON but {type(item).__name__}")
        level = inner
        depth += 1


#: Decoders of strict JSON: one checking every number, one for texts whose numbers are safe.
_CHECKING_NUMBERS = json.JSONDecoder(parse_float=_finite, parse_int=_bounded, parse_constant=_constant)
_DECODER = json.JSONDecoder(parse_constant=_constant)


def _nesting(text: str, deeper_than: int) -> int:
    """How many arrays and objects ``text`` (JSON that parsed) nests, counted up to
    ``deeper_than + 1``: its strings blanked, the rest cut to its brackets, then one level of
    innermost empty pairs removed per round (each round one pass in C)."""
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text))
    rounds = 0
    while brackets and rounds <= deeper_than:
        brackets = _EMPTY_PAIR.sub("", brackets)
        rounds += 1
    return rounds


def parse_json(data: bytes, max_depth: int = MAX_DEPTH) -> Any:
    """``data`` as strict JSON (see the module): raises :class:`RefusedFile` for bytes that are
    not UTF-8, text that is not JSON, a non-finite number (``NaN``, ``1e999``), an integer
    outside 64 bits, a lone surrogate, or nesting deeper than ``max_depth``.

    The common case costs little beyond ``json.loads``: numbers are checked one by one only
    when the text has a long digit run or an exponent, strings only when it has a surrogate
    escape, the whole value (:func:`check_value`) only when it nests close to the limit."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise RefusedFile(f"it is not UTF-8 (byte {error.start})") from None
    if text.startswith("\ufeff"):
        raise RefusedFile("it is not JSON: it starts with a byte order mark", 1, 1)
    try:
        value = (_CHECKING_NUMBERS if _RISKY_NUMBER.search(text) else _DECODER).decode(text)
    except RefusedFile:
        raise
    except RecursionError:
        raise RefusedFile(f"it nests deeper than {max_depth} levels") from None
    except json.JSONDecodeError as error:
        raise RefusedFile(f"it is not JSON: {error.msg}", error.lineno, error.colno) from None
    except ValueError as error:
        raise RefusedFile(f"it is not JSON: {error}") from None
    # n arrays and objects nest at most n + 1 levels (a value inside the innermost); they
    # cannot nest deeper than there are opening brackets.
    opening = text.count("[") + text.count("{")
    nesting = _nesting(text, max_depth) if opening >= max_depth else opening
    if nesting > max_depth:
        raise RefusedFile(f"it nests deeper than {max_depth} levels")
    if nesting == max_depth or _SURROGATE_ESCAPE.search(text):
        check_value(value, max_depth)
    return value


def read_json(path: "os.PathLike[str] | str", max_bytes: int, *, max_depth: int = MAX_DEPTH,
              follow_symlinks: bool = True) -> Any:
    """The JSON document in the regular file at ``path``: :func:`open_regular`,
    :func:`read_regular` and :func:`parse_json` (raising what they raise)."""
    fd = open_regular(path, follow_symlinks=follow_symlinks)
    try:
        data = read_regular(fd, max_bytes)
    finally:
        os.close(fd)
    return parse_json(data, max_depth)


def write_owned(path: "os.PathLike[str] | str", data: bytes, is_ours: Callable[[bytes], bool]) -> None:
    """Writes ``data`` as the whole file at ``path`` under the library's files rule: only
    nothing, an empty regular file or one ``is_ours`` proves ours from its first 100 bytes is
    replaced (never a symbolic link, a FIFO, a device, another program's file: RefusedFile,
    left unchanged); the bytes go to a new temporary file beside it (created exclusively),
    are flushed, and take its place by a rename (over nothing: a link, which never replaces)."""
    target = os.fspath(path)

    def existing() -> Optional[bytes]:
        try:
            fd = open_regular(target, follow_symlinks=False)
        except FileNotFoundError:
            return None
        try:
            return os.pread(fd, 100, 0)
        finally:
            os.close(fd)

    found = existing()
    if found and not is_ours(found):
        raise RefusedFile("it is not a file this tool wrote; it was left unchanged")
    folder, name = os.path.split(os.path.abspath(target))
    temporary = os.path.join(folder, f".{name}.tmp-{os.getpid()}-{os.urandom(4).hex()}")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        again = existing()   # checked again at the moment of writing
        if again and not is_ours(again):
            raise RefusedFile("it is not a file this tool wrote; it was left unchanged")
        if again is None:
            os.link(temporary, target)   # never replaces: a file that appeared meanwhile stays
        else:
            os.replace(temporary, target)
    finally:
        if os.path.lexists(temporary):
            os.unlink(temporary)
