"""The catalog server's failure switches: :class:`Settings` (latency, failing, failing every
Nth request), changeable while running through ``POST /_control`` bodies (:func:`parse_control`)."""

from __future__ import annotations

import json
import math
import threading
from typing import Any, Dict, Optional

__all__ = ["Settings", "BadControl", "parse_control", "CONTROL_KEYS", "MAX_LATENCY_MS", "MAX_CONTROL_BODY"]

#: What POST /_control accepts: each key's check (a message when the value is refused).
MAX_LATENCY_MS = 600_000
MAX_CONTROL_BODY = 4096


def _count(name: str, maximum: int) -> Any:
    def check(value: Any) -> Optional[str]:
        if type(value) is not int or not 0 <= value <= maximum:
            return f"{name} must be an integer from 0 to {maximum}, not {json.dumps(value)[:40]}"
        return None
    return check


CONTROL_KEYS = {
    "latencyMs": _count("latencyMs", MAX_LATENCY_MS),
    "fail": lambda value: None if type(value) is bool else f"fail must be true or false, not {json.dumps(value)[:40]}",
    "failEvery": _count("failEvery", 1_000_000),
}


class BadControl(Exception):
    """A POST /_control body that is refused: ``status`` (400 or 413) and why."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"{text[:40]} is out of range")
    return value


def parse_control(raw: bytes) -> Dict[str, Any]:
    """The switches a POST /_control body sets (an empty body sets none); raises BadControl."""
    if not raw.strip():
        return {}
    try:
        body = json.loads(raw.decode("utf-8"), parse_constant=_no_constant, parse_float=_finite)
    except UnicodeDecodeError:
        raise BadControl(400, "the body is not UTF-8") from None
    except RecursionError:
        raise BadControl(400, "the body nests too deep") from None
    except ValueError as error:
        raise BadControl(400, f"the body is not JSON: {error}") from None
    if type(body) is not dict:
        raise BadControl(400, "the body must be a JSON object such as {\"latencyMs\": 500, \"fail\": false}")
    for key, value in body.items():
        check = CONTROL_KEYS.get(key)
        if check is None:
            raise BadControl(400, f"unknown key {json.dumps(key)[:40]} (known: {', '.join(sorted(CONTROL_KEYS))})")
        problem = check(value)
        if problem is not None:
            raise BadControl(400, problem)
    return body


class Settings:
    """The failure switches, changeable while running."""

    def __init__(self, latency_ms: int, fail: bool, fail_every: int) -> None:
        self.lock = threading.Lock()
        self.latency_ms = latency_ms
        self.fail = fail
        self.fail_every = fail_every
        self.requests = 0

