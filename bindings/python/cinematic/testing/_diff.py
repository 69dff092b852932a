"""Readable differences between two JSON values, naming members and list positions."""

from __future__ import annotations

import json
from typing import Any, List

__all__ = ["diff", "format_diff", "MISSING", "ANY"]


class _Missing:
    def __repr__(self) -> str:
        return "(absent)"


#: Stands for a member one side does not have.
MISSING: Any = _Missing()


class _Any:
    """Equal to every value: for a member whose exact value the test does not pin down (a
    library's wording of an error message)."""

    def __eq__(self, other: object) -> bool:
        return other is not MISSING

    def __ne__(self, other: object) -> bool:
        return other is MISSING

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return "ANY"

    def __deepcopy__(self, memo: Any) -> "_Any":
        return self


#: Matches any value in an expected state: ``{"error": {"code": "invalidResponse", "message": ANY}}``.
ANY: Any = _Any()


def _show(value: Any, limit: int = 120) -> str:
    if value is MISSING:
        return "(absent)"
    if value is ANY:
        return "ANY"
    text = json.dumps(value, ensure_ascii=False, sort_keys=False)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _join(path: str, key: str) -> str:
    return key if not path else f"{path}.{key}"


def diff(expected: Any, actual: Any, path: str = "") -> List[str]:
    """The differences between ``expected`` and ``actual``, one line each, deepest first where
    the two share a shape: ``results.value[2].title: expected "Dune", actual "Dune II"``.
    Empty when they are equal."""
    if expected is ANY:
        return [] if actual is not MISSING else [f"{path or '(state)'}: expected a value, actual (absent)"]
    if expected == actual and type(expected) is type(actual):
        return []
    if isinstance(expected, dict) and isinstance(actual, dict):
        lines: List[str] = []
        for key in list(expected) + [k for k in actual if k not in expected]:
            lines += diff(expected.get(key, MISSING), actual.get(key, MISSING), _join(path, key))
        return lines
    if isinstance(expected, list) and isinstance(actual, list):
        lines = []
        for index in range(max(len(expected), len(actual))):
            e = expected[index] if index < len(expected) else MISSING
            a = actual[index] if index < len(actual) else MISSING
            lines += diff(e, a, f"{path}[{index}]")
        if len(expected) != len(actual):
            lines.append(f"{path or '(state)'}: expected {len(expected)} items, actual {len(actual)}")
        return lines
    if isinstance(expected, bool) is not isinstance(actual, bool) or expected != actual:
        return [f"{path or '(state)'}: expected {_show(expected)}, actual {_show(actual)}"]
    return []


def format_diff(expected: Any, actual: Any, indent: str = "  ") -> str:
    """:func:`diff` as an indented block (at most 40 lines)."""
    lines = diff(expected, actual)
    if len(lines) > 40:
        lines = lines[:40] + [f"… and {len(lines) - 40} more differences"]
    return "\n".join(indent + line for line in lines)
