"""The movie API's JSON as provider-protocol answers: values of the wrong type are refused
(a :class:`Failure` with code ``invalidResponse``), never coerced."""

from __future__ import annotations

import json
import math
from typing import Any, Dict, List, Mapping

__all__ = ["Answer", "Failure", "to_movie", "to_detail", "parse_body", "as_object", "as_list", "error_answer"]

#: A provider-protocol answer: ``{"movies": [...]}``, ``{"movie": {...}}`` or ``{"error": {...}}``.
Answer = Dict[str, Any]
_INT64 = (-(2 ** 63), 2 ** 63 - 1)


class Failure(ValueError):
    """An exchange failed with ``code`` (one of the closed set). A ValueError, which is what
    :func:`to_movie` and :func:`to_detail` raise for a value of the wrong type."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def _invalid(path: str, expected: str, value: Any) -> Failure:
    shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:40] + "..."
    return Failure("invalidResponse", f"{path}: expected {expected}, got {type(value).__name__} {shown}")


def _int(item: Mapping[str, Any], key: str, path: str, *, required: bool = False) -> int:
    value = item.get(key)
    if value is None and not required:
        return 0
    if type(value) is not int or not _INT64[0] <= value <= _INT64[1]:
        raise _invalid(f"{path}.{key}", "a 64-bit integer", value)
    return value


def _number(value: Any, path: str) -> float:
    if type(value) not in (int, float) or not math.isfinite(value):
        raise _invalid(path, "a finite number", value)
    return float(value)


def _text(value: Any, path: str) -> str:
    if type(value) is not str:
        raise _invalid(path, "a string", value)
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise _invalid(path, "a string of Unicode characters", value) from None
    return value


def as_list(value: Any, path: str) -> List[Any]:
    """``value`` if it is a list ([] for null), else a :class:`Failure` naming ``path``."""
    if value is None:
        return []
    if type(value) is not list:
        raise _invalid(path, "a list", value)
    return value


def as_object(value: Any, path: str) -> Mapping[str, Any]:
    """``value`` if it is a JSON object, else a :class:`Failure` naming ``path``."""
    if type(value) is not dict:
        raise _invalid(path, "an object", value)
    return value


def to_movie(item: Any, path: str = "movie") -> Answer:
    """One API movie as a provider-protocol movie. ``id`` and ``title`` are required; the other
    fields may be missing or null (0, [] or null). Raises ``ValueError`` (naming ``path`` and
    the field) for a value of the wrong type."""
    item = as_object(item, path)
    certification = item.get("certification")
    return {
        "id": _int(item, "id", path, required=True),
        "title": _text(item.get("title"), f"{path}.title"),
        "year": _int(item, "release_year", path),
        "runtime": _int(item, "runtime", path),
        "rating": 0.0 if item.get("vote_average") is None else _number(item["vote_average"], f"{path}.vote_average"),
        "votes": _int(item, "vote_count", path),
        "genres": [_text(g, f"{path}.genres[{i}]") for i, g in enumerate(as_list(item.get("genres"), f"{path}.genres"))],
        "mpaa": None if certification is None else _text(certification, f"{path}.certification"),
    }


def to_detail(item: Any, path: str = "movie") -> Answer:
    """One API movie detail as a provider-protocol detail (see :func:`to_movie`; ``budget``
    may be null, ``rating_distribution`` a list of numbers)."""
    movie = to_movie(item, path)
    distribution = as_list(item.get("rating_distribution"), f"{path}.rating_distribution")
    return {**movie, "budget": None if item.get("budget") is None else _int(item, "budget", path),
            "ratingDistribution": [_number(x, f"{path}.rating_distribution[{i}]") for i, x in enumerate(distribution)]}


def _refuse_constant(name: str) -> Any:
    raise Failure("invalidResponse", f"the body has {name}, which is not JSON")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise Failure("invalidResponse", f"the number {text[:40]} is out of range")
    return value


def parse_body(body: bytes) -> Any:
    """The body as JSON: strict UTF-8, finite numbers, no NaN or Infinity."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as error:
        raise Failure("invalidResponse", f"the body is not UTF-8 (byte {error.start})") from None
    try:
        return json.loads(text, parse_constant=_refuse_constant, parse_float=_finite_float)
    except Failure:
        raise
    except RecursionError:
        raise Failure("invalidResponse", "the body's JSON nests too deep") from None
    except ValueError as error:   # JSONDecodeError, or an integer of too many digits
        raise Failure("invalidResponse", f"the body is not JSON: {error}") from None


def error_answer(code: str, message: str) -> Answer:
    """The error answer of ``code`` (one of the closed set) with ``message``."""
    return {"error": {"code": code, "message": message}}
