"""Shared fixtures: runtimes that always close, and a scripted host catalog (seed 004's
scripted repository: it records requests, holds answers back and ignores cancellation)."""

from __future__ import annotations

import json
import sys
import threading
from pathlib import Path
from typing import Any, Callable, Dict, Iterator, List, Optional, Tuple

import pytest

import cinematic
import cinematic._core
import cinematic.runtime
import cinematic.store

REPO = Path(__file__).resolve().parents[3]

sys.path.insert(0, str(REPO / "tools"))
import wirecheck  # noqa: E402  (tools/wirecheck.py: the schema validator every suite shares)


class WireViolations:
    """Every state, error envelope and provider request the binding receives during a test
    is validated against schema/cinematic.schema.json; violations fail the test."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.found: List[str] = []
        self.checked = 0

    def check(self, kind: str, raw: Any, feature: Optional[str] = None, child: bool = False) -> None:
        if raw is None:
            return
        value = json.loads(raw) if isinstance(raw, (bytes, str)) else raw
        if child and feature == "detail" and kind == "state":
            # The app's shown Detail (a child handle): an open Detail, or null when none is.
            if value is None:
                return
            error = next(iter(wirecheck.validator("appDetailState").iter_errors(value)), None)
            problem = None if error is None else f"appDetailState: {error.message[:300]}"
        elif child and kind == "patched":
            return  # a child's patches: checked through the state they rebuild
        else:
            problem = wirecheck.validate(kind, value, feature)
        with self.lock:
            self.checked += 1
            if problem is not None:
                self.found.append(f"{kind} ({feature}): {problem}: {str(value)[:300]}")


VIOLATIONS = WireViolations()


@pytest.fixture(autouse=True)
def validate_everything_received(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    deliver = cinematic.store.Store._deliver
    state_json = cinematic.store.Store.state_json.fget
    on_request = cinematic.runtime.Runtime._on_request
    error_for_status = cinematic._core.error_for_status

    def checked_deliver(store: cinematic.Store, raw: bytes) -> None:
        child = store.parent is not None
        if not store.runtime.patches:
            VIOLATIONS.check("state", raw, store.feature, child)
            deliver(store, raw)
            return
        # Patch mode: the envelope, then the state it rebuilt.
        VIOLATIONS.check("patched", raw, store.feature, child)
        deliver(store, raw)
        VIOLATIONS.check("state", store.delivered_state, store.feature, child)

    def checked_state_json(store: cinematic.Store) -> str:
        text: str = state_json(store)
        VIOLATIONS.check("state", text, store.feature, store.parent is not None)
        return text

    def checked_request(runtime: cinematic.Runtime, request_id: int, raw: Optional[bytes]) -> None:
        VIOLATIONS.check("request", raw)
        on_request(runtime, request_id, raw)

    def checked_error(status: int, name: str, envelope: Optional[str], function: str) -> Any:
        VIOLATIONS.check("envelope", envelope)
        return error_for_status(status, name, envelope, function)

    monkeypatch.setattr(cinematic.store.Store, "_deliver", checked_deliver)
    monkeypatch.setattr(cinematic.store.Store, "state_json", property(checked_state_json))
    monkeypatch.setattr(cinematic.runtime.Runtime, "_on_request", checked_request)
    monkeypatch.setattr(cinematic._core, "error_for_status", checked_error)
    with VIOLATIONS.lock:
        VIOLATIONS.found.clear()
    yield
    with VIOLATIONS.lock:
        found = list(VIOLATIONS.found)
    assert not found, "received JSON that the schema does not allow:\n" + "\n".join(found[:5])


def pytest_terminal_summary(terminalreporter: Any) -> None:
    terminalreporter.write_line(f"schema validation: {VIOLATIONS.checked} states, envelopes and requests checked")

#: The suites written before the offline cache test what a provider itself answers, so their
#: host runtimes have no cache (the shared default one would serve one test's answers to
#: another); test_offline_cache.py tests the cache.
HOST_CONFIG: Dict[str, Any] = {"clock": "manual", "catalog": "host", "offlineCache": False}


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


def search_state(query: str, results: Optional[Dict[str, Any]] = None, **paging: Any) -> Dict[str, Any]:
    """A whole search state: `results` (idle by default) and the paging flags (defaults:
    nothing loaded)."""
    return {"query": query, "results": results or {"phase": "idle"}, "pagesLoaded": 0, "isExhausted": False,
            "isLoadingMore": False, "loadMoreError": None, "hint": None, **paging}


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
    samples = {feature.name: feature.sample_args for feature in cinematic.FEATURES}
    with cinematic.Runtime({"catalog": "host"}) as runtime:
        for name in names:
            try:
                runtime.open_store(name, samples.get(name)).close()
            except cinematic.UnknownFeatureError:
                missing.append(name)
    return missing
