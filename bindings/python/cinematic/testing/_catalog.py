"""The scripted host catalog of a test runtime: :class:`TestCatalog` and the
:class:`CatalogRequest` records of what it received."""

from __future__ import annotations

import copy
import json
import threading
from typing import Any, Dict, List, Mapping, Optional, Protocol, Sequence, Tuple

from ..runtime import Runtime
from ._failure import TestStoreFailure

__all__ = ["TestCatalog", "CatalogRequest", "CatalogHost"]


class CatalogHost(Protocol):
    """What a :class:`TestCatalog` needs of its runtime (a :class:`~cinematic.testing.TestRuntime`):
    the wait bound, the manual clock's time and the runtime to answer on."""

    timeout: float
    now: int
    runtime: Runtime


def _matches(request: Mapping[str, Any], pattern: Mapping[str, Any]) -> bool:
    return all(request.get(key) == value for key, value in pattern.items())


class _Canned:
    def __init__(self, pattern: Dict[str, Any], answer: Optional[Dict[str, Any]], delay_ms: int, times: Optional[int]) -> None:
        self.pattern = pattern
        self.answer = answer  # None: hold until the test answers
        self.delay_ms = delay_ms
        self.times = times


class CatalogRequest:
    """A request the test catalog received: ``id``, ``request`` (the provider protocol's
    JSON), ``at`` (the manual clock's time when it arrived), ``answered``."""

    def __init__(self, request_id: int, request: Dict[str, Any], at: int) -> None:
        self.id = request_id
        self.request = request
        self.at = at
        self.answered = False
        self.cancelled = False
        self.due: Optional[int] = None  # a delayed answer's time
        self.answer: Optional[Dict[str, Any]] = None

    def __repr__(self) -> str:
        return f"#{self.id} {json.dumps(self.request)} at {self.at} ms"


class TestCatalog:
    """The host catalog of a :class:`TestRuntime`, scripted by the test.

    Register answers before the request comes (the first registration that matches wins, in
    the order they were made; ``times`` limits how often one is used)::

        catalog.search("dune", [movie(15249, "Dune", 1984)])          # at once
        catalog.search("du", [movie(1, "Duck Soup")], delay_ms=400)   # 400 ms (manual clock) after the request
        catalog.search("dun", error=("network", "timed out"))         # a failure
        catalog.hold(op="search", query="d")                          # held: catalog.respond(...) later
        catalog.answer({"op": "discover", "section": "comedy", "page": 2}, {"movies": []})

    A request no registration matches is held, like :meth:`hold`: answer it with
    :meth:`respond`, or leave it to make :meth:`TestStore.finish` fail. Cancellations
    (``{"op": "cancel"}``) are recorded (:attr:`cancelled`) and otherwise ignored, as many
    network layers do, so a late answer really arrives late.
    """

    __test__ = False

    def __init__(self, runtime: CatalogHost) -> None:
        self._runtime = runtime
        self._lock = threading.Condition()
        self._canned: List[_Canned] = []
        self.requests: List[CatalogRequest] = []
        #: The ids of the requests the library cancelled, in order.
        self.cancelled: List[int] = []

    # ------------------------------------------------------------------ scripting

    def answer(self, pattern: Mapping[str, Any], answer: Optional[Mapping[str, Any]], *,
               delay_ms: int = 0, times: Optional[int] = None) -> "TestCatalog":
        """Answers requests whose members include ``pattern`` with ``answer`` (the provider
        protocol's JSON: ``{"movies": [...]}``, ``{"movie": {...}}``, ``{"error": {...}}``;
        None holds them), ``delay_ms`` after they arrive on the manual clock."""
        with self._lock:
            self._canned.append(_Canned(dict(pattern), None if answer is None else dict(answer), int(delay_ms), times))
        return self

    def search(self, query: str, movies: Optional[Sequence[Mapping[str, Any]]] = None, *, page: Optional[int] = None,
               error: Optional[Tuple[str, str]] = None, delay_ms: int = 0, times: Optional[int] = None) -> "TestCatalog":
        """Answers the search for ``query`` (every page, or ``page``) with ``movies`` or an ``error``
        (code, message)."""
        pattern: Dict[str, Any] = {"op": "search", "query": query}
        if page is not None:
            pattern["page"] = page
        return self.answer(pattern, _answer(movies, error, "movies"), delay_ms=delay_ms, times=times)

    def discover(self, section: str, movies: Optional[Sequence[Mapping[str, Any]]] = None, *, page: Optional[int] = None,
                 error: Optional[Tuple[str, str]] = None, delay_ms: int = 0, times: Optional[int] = None) -> "TestCatalog":
        """Answers Discover's ``section`` (every page, or ``page``) with ``movies`` or an ``error``."""
        pattern: Dict[str, Any] = {"op": "discover", "section": section}
        if page is not None:
            pattern["page"] = page
        return self.answer(pattern, _answer(movies, error, "movies"), delay_ms=delay_ms, times=times)

    def movie(self, movie_id: int, detail: Optional[Mapping[str, Any]] = None, *,
              error: Optional[Tuple[str, str]] = None, delay_ms: int = 0, times: Optional[int] = None) -> "TestCatalog":
        """Answers the detail request for ``movie_id`` with ``detail`` or an ``error``."""
        return self.answer({"op": "movie", "id": movie_id}, _answer(detail, error, "movie"), delay_ms=delay_ms, times=times)

    def hold(self, **pattern: Any) -> "TestCatalog":
        """Holds requests matching ``pattern`` until the test answers them with :meth:`respond`."""
        return self.answer(pattern, None)

    # ------------------------------------------------------------------ answering by hand

    def wait_for(self, timeout: Optional[float] = None, count: int = 1, **pattern: Any) -> CatalogRequest:
        """The ``count``-th request matching ``pattern`` (waiting for it, bounded: effects ask
        from library threads)."""
        limit = self._runtime.timeout if timeout is None else timeout

        def found_one() -> Optional[CatalogRequest]:
            matching = [r for r in self.requests if _matches(r.request, pattern)]
            return matching[count - 1] if len(matching) >= count else None

        with self._lock:
            found = self._lock.wait_for(found_one, limit)
        if not found:
            raise TestStoreFailure(f"the catalog received no request matching {json.dumps(pattern)} within {limit} s; "
                                   f"requests: {self.requests}")
        return found

    def respond(self, answer: Mapping[str, Any], **pattern: Any) -> CatalogRequest:
        """Answers the first unanswered request matching ``pattern`` (waiting for it) with ``answer``."""
        with self._lock:
            def unanswered() -> Optional[CatalogRequest]:
                return next((r for r in self.requests if not r.answered and _matches(r.request, pattern)), None)
            request = self._lock.wait_for(unanswered, self._runtime.timeout)
            if request is None:
                raise TestStoreFailure(f"no unanswered catalog request matches {json.dumps(pattern)}; requests: {self.requests}")
            request.answered = True
        self._runtime.runtime.respond(request.id, dict(answer))
        return request

    @property
    def pending(self) -> List[CatalogRequest]:
        """The requests not answered yet (held, or delayed and not yet due)."""
        with self._lock:
            return [r for r in self.requests if not r.answered]

    def wait_cancelled(self, request: CatalogRequest, timeout: Optional[float] = None) -> None:
        """Waits (bounded) until the library cancelled ``request`` (``{"op": "cancel"}``)."""
        limit = self._runtime.timeout if timeout is None else timeout
        with self._lock:
            if not self._lock.wait_for(lambda: request.id in self.cancelled, limit):
                raise TestStoreFailure(f"the catalog request {request} was not cancelled within {limit} s")

    def count(self, **pattern: Any) -> int:
        """How many requests matching ``pattern`` arrived."""
        with self._lock:
            return sum(1 for r in self.requests if _matches(r.request, pattern))

    # ------------------------------------------------------------------ the provider

    def _provide(self, request_id: int, request: Dict[str, Any]) -> Optional[Dict[str, Any]]:
        now = self._runtime.now
        with self._lock:
            if request.get("op") == "cancel":
                self.cancelled.append(request_id)
                for r in self.requests:
                    if r.id == request_id:
                        r.cancelled = True
                self._lock.notify_all()
                return None
            record = CatalogRequest(request_id, request, now)
            self.requests.append(record)
            canned = next((c for c in self._canned if _matches(request, c.pattern) and c.times != 0), None)
            if canned is not None and canned.times is not None:
                canned.times -= 1
            answer = None
            if canned is not None and canned.answer is not None:
                if canned.delay_ms <= 0:
                    record.answered = True
                    answer = copy.deepcopy(canned.answer)
                else:
                    record.due = now + canned.delay_ms
                    record.answer = copy.deepcopy(canned.answer)
            self._lock.notify_all()
        return answer

    def _due(self, now: int) -> List[CatalogRequest]:
        with self._lock:
            due = [r for r in self.requests if not r.answered and r.due is not None and r.due <= now]
            for r in due:
                r.answered = True
            return sorted(due, key=lambda r: (r.due, r.id))


def _answer(value: Any, error: Optional[Tuple[str, str]], key: str) -> Optional[Dict[str, Any]]:
    if error is not None:
        code, message = error
        return {"error": {"code": code, "message": message}}
    if value is None:
        return {key: []} if key == "movies" else None
    return {key: [dict(m) for m in value] if key == "movies" else dict(value)}
