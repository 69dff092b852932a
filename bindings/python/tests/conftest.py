"""Shared fixtures: runtimes that always close, and a scripted host catalog (seed 004's
scripted repository: it records requests, holds answers back and ignores cancellation)."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any, Callable, Dict, Iterator, List, Optional, Tuple

import pytest

import cinematic

REPO = Path(__file__).resolve().parents[3]

HOST_CONFIG: Dict[str, Any] = {"clock": "manual", "catalog": "host"}


class ScriptedCatalog:
    """A catalog provider for ``{"catalog": "host"}`` runtimes.

    Every request (cancellations included) is recorded. By default answers are held back:
    the test answers with ``runtime.respond`` whenever it likes (cancellations are ignored,
    as many network layers do). With ``auto`` set, ``auto(request)`` returns the answer and
    the provider gives it at once (by returning it from the callback).
    """

    def __init__(self, auto: Optional[Callable[[Dict[str, Any]], Optional[Dict[str, Any]]]] = None) -> None:
        self.auto = auto
        self.calls: List[Tuple[int, Dict[str, Any]]] = []
        self.threads: List[int] = []
        self._condition = threading.Condition()

    def __call__(self, request_id: int, request: Dict[str, Any]) -> Optional[Dict[str, Any]]:
        with self._condition:
            self.calls.append((request_id, request))
            self.threads.append(threading.get_ident())
            self._condition.notify_all()
        if self.auto is not None and request.get("op") != "cancel":
            return self.auto(request)
        return None

    def requests(self, op: str = "search") -> List[Tuple[int, Dict[str, Any]]]:
        """The recorded requests whose ``op`` is ``op``, in order."""
        with self._condition:
            return [(rid, req) for rid, req in self.calls if req.get("op") == op]

    def count(self, op: str = "search") -> int:
        return len(self.requests(op))

    def wait_for(self, op: str, count: int, timeout: float = 5.0) -> List[Tuple[int, Dict[str, Any]]]:
        """Blocks (bounded, on a condition variable: no polling) until ``count`` requests of
        ``op`` arrived; returns them. Fails the test on timeout."""
        with self._condition:
            ok = self._condition.wait_for(
                lambda: sum(1 for _, r in self.calls if r.get("op") == op) >= count, timeout)
        assert ok, f"expected {count} {op!r} requests within {timeout} s, got {self.calls}"
        return self.requests(op)


def echo_movies(request: Dict[str, Any]) -> Dict[str, Any]:
    """An auto answer: one movie titled like the query."""
    return {"movies": [{"id": 1, "title": request.get("query", "?"), "year": 2000}]}


@pytest.fixture
def runtimes() -> Iterator[Callable[..., cinematic.Runtime]]:
    """A factory of runtimes that are all closed at the end of the test."""
    opened: List[cinematic.Runtime] = []

    def make(config: Optional[Dict[str, Any]] = None, **options: Any) -> cinematic.Runtime:
        runtime = cinematic.Runtime(config, **options)
        opened.append(runtime)
        return runtime

    yield make
    for runtime in opened:
        try:
            runtime.close()
        except Exception:
            pass


@pytest.fixture
def host() -> Iterator[Tuple[cinematic.Runtime, ScriptedCatalog]]:
    """A manual-clock runtime with a host catalog whose provider holds answers back."""
    runtime = cinematic.Runtime(HOST_CONFIG)
    catalog = ScriptedCatalog()
    runtime.set_provider(catalog)
    try:
        yield runtime, catalog
    finally:
        runtime.close()


@pytest.fixture
def embedded() -> Iterator[cinematic.Runtime]:
    """A runtime on the embedded catalog (system clock, immediate delivery)."""
    runtime = cinematic.Runtime()
    try:
        yield runtime
    finally:
        runtime.close()


def features_missing(*names: str) -> List[str]:
    """The features among ``names`` the loaded library does not have (yet)."""
    missing = []
    with cinematic.Runtime({"catalog": "host"}) as runtime:
        for name in names:
            args = {"movieId": 15249} if name == "detail" else None
            try:
                runtime.open_store(name, args).close()
            except cinematic.UnknownFeatureError:
                missing.append(name)
    return missing
