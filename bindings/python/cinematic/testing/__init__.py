"""Exhaustive, deterministic tests of any store: :class:`TestStore` (docs/testing.md).

A :class:`TestStore` opens one feature's store on a runtime built for tests: a manual clock
that only :meth:`TestStore.advance` moves, a host catalog whose answers the test scripts
(:class:`TestCatalog`: canned answers, failures, answers delayed on the manual clock, or
held until the test answers), in-memory favorites, and the debug history on. Every step
asserts exactly what changed::

    from cinematic.testing import TestStore, movie

    with TestStore("search") as store:
        store.catalog.search("dune", [movie(15249, "Dune", 1984)])
        store.send({"type": "queryChanged", "query": "dune"}, {"query": "dune"})
        store.advance(250)
        store.receive("searchNow", {"results": {"phase": "loading", "query": "dune"}})
        store.receive("resultsLoaded", lambda s: s.update(
            results={"phase": "loaded", "query": "dune", "source": "live",
                     "value": [movie(15249, "Dune", 1984, full=True)]},
            pagesLoaded=1, isExhausted=True))
    # leaving the block calls finish(): no effect may still run, every effect result was received

- :meth:`TestStore.send` sends a host intent and asserts the state after it: the expected
  state is the previous one with ``changes`` applied (a partial dict of top-level members, or
  a function that mutates a copy of the expected state); any other difference fails with a
  diff naming members and list positions.
- :meth:`TestStore.receive` asserts the next intent an effect fed back (an internal intent
  such as ``resultsLoaded``, read from the store's history) and the state after it.
- :meth:`TestStore.finish` fails while effects still run or fed-back intents were not
  received.

Exhaustive by default. ``TestStore(..., exhaustive=False)`` checks only what a step names:
``send``/``receive`` compare only the members in ``changes`` (the expected state then
follows the actual one), ``receive`` skips fed-back intents of other types, and ``finish``
neither requires every intent received nor every effect finished.

Several stores sharing one runtime (so one clock, one catalog and one favorites database):
``rt = TestRuntime(); search = rt.store("search"); detail = rt.store("detail", {"movieId": 1})``.
"""

from __future__ import annotations

import copy
import json
import re
import threading
import time
from typing import Any, Callable, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union, cast

from ..runtime import Runtime
from ..store import Store
from ._diff import ANY, diff, format_diff

__all__ = [
    "TestStore",
    "TestRuntime",
    "TestCatalog",
    "TestStoreFailure",
    "ANY",
    "Changes",
    "movie",
    "movie_detail",
    "diff",
    "format_diff",
]

State = Dict[str, Any]
#: What a step changes: a partial dict of top-level state members (replaced whole), or a
#: function that mutates (a deep copy of) the expected state in place; None: nothing changes.
Changes = Union[None, Mapping[str, Any], Callable[[State], Any]]

#: History entries each test store keeps (the header's maximum is 100000).
HISTORY = 10_000


class TestStoreFailure(AssertionError):
    """A TestStore expectation that did not hold; the message says what and shows the diff."""

    __test__ = False  # not a pytest test class


def movie(id: int, title: str, year: int = 0, *, full: bool = False, **members: Any) -> Dict[str, Any]:
    """A movie as a provider answers it (``{"id", "title", "year", ...}``), or with ``full``
    as a state shows it (every member, defaults filled in: runtime 0, rating 0, votes 0,
    genres [], mpaa None)."""
    value: Dict[str, Any] = {"id": id, "title": title, "year": year}
    if full:
        value.update({"runtime": 0, "rating": 0, "votes": 0, "genres": [], "mpaa": None})
    value.update(members)
    return value


def movie_detail(id: int, title: str, year: int = 0, *, full: bool = False, **members: Any) -> Dict[str, Any]:
    """A movie's detail as a provider answers it, or with ``full`` as a state shows it
    (budget None, ratingDistribution [] added to :func:`movie`'s defaults)."""
    value = movie(id, title, year, full=full, **members)
    if full:
        value.setdefault("budget", None)
        value.setdefault("ratingDistribution", [])
    return value


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

    def __init__(self, runtime: "TestRuntime") -> None:
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


_INTENT_LINE = re.compile(r"^\[\d+ ms\] (\w+)#(\d+) intent ")
_EFFECT_LINE = re.compile(r'^\[\d+ ms\] (\w+)#(\d+) effect (started|cancelled|finished) (?:"(.*)"|\(anonymous\)) \(#(\d+)\)$')


class TestRuntime:
    """A runtime for tests: manual clock, a :class:`TestCatalog`, in-memory favorites,
    history on, no offline cache. Open stores with :meth:`store`; :meth:`advance` moves the
    clock for all of them; :meth:`finish` finishes each and closes the runtime.

    ``config`` adds or overrides runtime config keys (e.g. ``{"search": {"debounceMs": 100}}``,
    ``{"record": path}``). ``timeout`` bounds every wait (seconds): for an effect's result
    to arrive, for a request to reach the catalog, for effects to finish. It only bounds how
    long a failing test takes to say so (a passing one never waits it out), so the default,
    20 s, is generous: a loaded CI machine took over 5 s to hand a request over.
    """

    __test__ = False

    def __init__(self, config: Optional[Mapping[str, Any]] = None, *, exhaustive: bool = True, timeout: float = 20.0) -> None:
        settings: Dict[str, Any] = {"clock": "manual", "catalog": "host", "favorites": ":memory:",
                                    "offlineCache": False, "history": HISTORY}
        settings.update(config or {})
        self.exhaustive = exhaustive
        self.timeout = timeout
        #: The manual clock's time in milliseconds (the sum of :meth:`advance` calls).
        self.now = 0
        self.runtime = Runtime(settings)
        self.catalog = TestCatalog(self)
        self.stores: List["TestStore"] = []
        self._log = threading.Condition()
        self._log_lines: List[str] = []
        #: effect number -> (feature, store serial, effect id) of effects started and not ended.
        self._running: Dict[Tuple[int, int], Tuple[str, Optional[str]]] = {}
        self.runtime.set_logger(self._on_log)
        self.runtime.set_provider(self.catalog._provide)
        self._closed = False

    def __enter__(self) -> "TestRuntime":
        return self

    def __exit__(self, kind: Any, *rest: Any) -> None:
        if kind is None:
            self.finish()
        else:
            self.close()

    def store(self, feature: str, args: Optional[Mapping[str, Any]] = None, *, exhaustive: Optional[bool] = None) -> "TestStore":
        """Opens a :class:`TestStore` of ``feature`` on this runtime."""
        return TestStore(feature, args, runtime=self, exhaustive=self.exhaustive if exhaustive is None else exhaustive)

    def advance(self, ms: int) -> None:
        """Moves the manual clock ``ms`` forward (waking debounces and other sleeps), then gives
        the catalog's delayed answers that fell due, in order of their due time."""
        if ms < 0:
            raise ValueError("advance takes a non-negative number of milliseconds")
        self.runtime.advance_clock(int(ms))
        self.now += int(ms)
        for request in self.catalog._due(self.now):
            assert request.answer is not None
            self.runtime.respond(request.id, request.answer)

    # ------------------------------------------------------------------ the log

    def _on_log(self, line: str) -> None:
        with self._log:
            self._log_lines.append(line)
            effect = _EFFECT_LINE.match(line)
            if effect:
                feature, serial, what, name, number = effect.groups()
                key = (int(serial), int(number))
                if what == "started":
                    self._running[key] = (feature, name)
                else:
                    self._running.pop(key, None)
            self._log.notify_all()

    def running_effects(self, serial: Optional[int] = None) -> List[str]:
        """The ids of the effects the log says are running (of one store, by its serial)."""
        with self._log:
            return [f"{name or '(anonymous)'}" for (s, _), (_, name) in sorted(self._running.items())
                    if serial is None or s == serial]

    def _wait(self, condition: Callable[[], Any], timeout: float) -> Any:
        """Waits (bounded) until ``condition()`` is truthy, woken by every log line (each
        reduced intent and each effect's start and end is logged) and re-checking every 10 ms
        for what the log does not announce (an effect's bookkeeping after its last line)."""
        deadline = time.monotonic() + timeout
        while True:
            value = condition()
            if value:
                return value
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return value
            with self._log:
                self._log.wait(min(remaining, 0.01))

    # ------------------------------------------------------------------ the end

    def finish(self) -> None:
        """Finishes every store (:meth:`TestStore.finish`), then closes the runtime."""
        try:
            for store in list(self.stores):
                if not store._finished:
                    store.finish()
        finally:
            self.close()

    def close(self) -> None:
        """Closes the runtime without checking anything."""
        if not self._closed:
            self._closed = True
            self.runtime.close()


class TestStore:
    """One store under test. See the module documentation.

    ``TestStore("search")`` makes its own :class:`TestRuntime` (closed by :meth:`finish`);
    ``TestStore("detail", {"movieId": 1}, runtime=rt)`` shares ``rt``. Use it as a context
    manager (leaving the block calls :meth:`finish`, or only closes when the block raised).

    Attributes: ``state`` (the expected state: a copy, as the assertions so far left it),
    ``store`` (the :class:`cinematic.Store` itself), ``catalog``, ``runtime``.
    """

    __test__ = False

    def __init__(self, feature: str, args: Optional[Mapping[str, Any]] = None, *, runtime: Optional[TestRuntime] = None,
                 exhaustive: bool = True, config: Optional[Mapping[str, Any]] = None, timeout: float = 20.0) -> None:
        self._owns_runtime = runtime is None
        self.test_runtime = runtime if runtime is not None else TestRuntime(config, exhaustive=exhaustive, timeout=timeout)
        self.exhaustive = exhaustive
        self.feature = feature
        self.store: Store[Any] = self.test_runtime.runtime.open_store(feature, dict(args) if args is not None else None)
        # The store's serial, as the log names it (`search#2`): handles are serial << 2 | kind.
        self.serial = int(self.store._handle) >> 2
        self._expected: State = json.loads(self.store.state_json)
        self._seen = 0  # the last history seq consumed by send/receive
        self._finished = False
        self.test_runtime.stores.append(self)

    # ------------------------------------------------------------------ conveniences

    def __enter__(self) -> "TestStore":
        return self

    def __exit__(self, kind: Any, *rest: Any) -> None:
        if kind is None:
            self.finish()
        else:
            self.close()

    def __repr__(self) -> str:
        return f"<TestStore {self.feature!r}>"

    @property
    def catalog(self) -> TestCatalog:
        return self.test_runtime.catalog

    @property
    def runtime(self) -> Runtime:
        return self.test_runtime.runtime

    @property
    def state(self) -> State:
        """The expected state so far (a copy)."""
        return copy.deepcopy(self._expected)

    def advance(self, ms: int) -> None:
        """Moves the runtime's manual clock (see :meth:`TestRuntime.advance`)."""
        self.test_runtime.advance(ms)

    # ------------------------------------------------------------------ steps

    def send(self, intent: Mapping[str, Any], changes: Changes = None) -> None:
        """Sends the host ``intent`` and asserts the state after it: the expected state with
        ``changes`` applied. In exhaustive mode it first fails if fed-back intents are waiting
        to be received."""
        intent = dict(intent)
        if self.exhaustive:
            waiting = self._new_entries()
            if waiting:
                raise self._failure(f"send({_compact(intent)})",
                                    f"{len(waiting)} intent(s) fed back by effects must be received first: "
                                    + ", ".join(_compact(e["intent"]) for e in waiting))
        self.store.send(intent)
        entries = self._new_entries()
        mine = next((i for i, e in enumerate(entries) if e["intent"] == intent), None)
        if mine is None:
            raise self._failure(f"send({_compact(intent)})", "the intent is not in the store's history")
        if not self.exhaustive:
            self._expected = copy.deepcopy(self._state_before(entries[mine]))
        elif mine > 0:
            raise self._failure(f"send({_compact(intent)})",
                                f"{mine} intent(s) were fed back by effects while it was sent; receive them first: "
                                + ", ".join(_compact(e["intent"]) for e in entries[:mine]))
        self._seen = entries[mine]["seq"]
        self._check(f"send({_compact(intent)})", entries[mine], changes)

    def receive(self, intent: Union[str, Mapping[str, Any], Callable[[Mapping[str, Any]], bool]], changes: Changes = None,
                *, timeout: Optional[float] = None) -> Dict[str, Any]:
        """Asserts the next intent an effect fed back (waiting for it, bounded): ``intent`` is
        its type (``"resultsLoaded"``), the whole intent, or a predicate; then asserts the
        state after it like :meth:`send`. Non-exhaustive: skips fed-back intents that do not
        match. Returns the received intent."""
        what = intent if isinstance(intent, str) else (_compact(intent) if isinstance(intent, Mapping) else "(predicate)")
        label = f"receive({what})"
        limit = self.test_runtime.timeout if timeout is None else timeout

        def accepts(candidate: Mapping[str, Any]) -> bool:
            if isinstance(intent, str):
                return candidate.get("type") == intent
            if isinstance(intent, Mapping):
                return dict(candidate) == dict(intent)
            return bool(intent(candidate))

        def ready() -> Optional[List[Dict[str, Any]]]:
            entries = self._new_entries()
            if self.exhaustive:
                return entries or None
            return entries if any(accepts(e["intent"]) for e in entries) else None

        entries = self.test_runtime._wait(ready, limit)
        if not entries:
            running = self.test_runtime.running_effects(self.serial)
            raise self._failure(label, f"no intent was fed back within {limit} s; effects running: "
                                f"{running or 'none'}; catalog requests waiting: {self.catalog.pending or 'none'}")
        if self.exhaustive:
            entry = entries[0]
            if not accepts(entry["intent"]):
                raise self._failure(label, f"the next intent fed back was {_compact(entry['intent'])}")
        else:
            entry = next(e for e in entries if accepts(e["intent"]))
            self._expected = copy.deepcopy(self._state_before(entry))
        self._seen = entry["seq"]
        self._check(label, entry, changes)
        return dict(entry["intent"])

    def receive_all(self, intents: Iterable[Union[str, Mapping[str, Any]]], changes: Changes = None,
                    *, timeout: Optional[float] = None) -> List[Dict[str, Any]]:
        """Asserts that the next fed-back intents are exactly ``intents`` (types or whole
        intents) in any order, for effects that run concurrently (two sections loading, a
        save and the observation that sees it), and the state after the last of them: the
        expected state with ``changes`` applied. Returns them in the order they came."""
        wanted = list(intents)
        label = f"receive_all({', '.join(w if isinstance(w, str) else _compact(w) for w in wanted)})"
        limit = self.test_runtime.timeout if timeout is None else timeout
        entries = self.test_runtime._wait(lambda: (lambda e: e if len(e) >= len(wanted) else None)(self._new_entries()), limit)
        if not entries:
            got = self._new_entries()
            raise self._failure(label, f"{len(got)} of {len(wanted)} intents were fed back within {limit} s: "
                                + (", ".join(_compact(e["intent"]) for e in got) or "none")
                                + f"; effects running: {self.test_runtime.running_effects(self.serial) or 'none'}")
        taken = entries[:len(wanted)]
        left = list(wanted)
        for entry in taken:
            match = next((w for w in left if (entry["intent"].get("type") == w if isinstance(w, str) else entry["intent"] == dict(w))), None)
            if match is None:
                raise self._failure(label, f"fed back {_compact(entry['intent'])}, not one of the intents still expected")
            left.remove(match)
        self._seen = taken[-1]["seq"]
        self._check(label, taken[-1], changes)
        return [dict(e["intent"]) for e in taken]

    def revert(self, seq: int) -> None:
        """Time travel (:meth:`cinematic.Store.revert`): the expected state becomes the state
        after history entry ``seq``."""
        entry = next((e for e in self.store.history if e["seq"] == seq), None)
        if entry is None:
            raise self._failure(f"revert({seq})", "no such history entry")
        self.store.revert(seq)
        self._expected = copy.deepcopy(cast(State, entry["state"]))

    def expect_nothing_received(self) -> None:
        """Fails if an effect fed an intent back that was not received. (It does not wait:
        use it where nothing can arrive, e.g. before the manual clock reaches a debounce.)"""
        waiting = self._new_entries()
        if waiting:
            raise self._failure("expect_nothing_received()", f"{len(waiting)} intent(s) were fed back: "
                                + ", ".join(_compact(e["intent"]) for e in waiting))

    def skip_received(self) -> List[Dict[str, Any]]:
        """Takes every fed-back intent not received yet without asserting it (the expected
        state follows the actual one); returns them."""
        entries = self._new_entries()
        if entries:
            self._seen = entries[-1]["seq"]
            self._expected = copy.deepcopy(entries[-1]["state"])
        return [dict(e["intent"]) for e in entries]

    def finish(self, *, still_running: Iterable[str] = (), timeout: Optional[float] = None) -> None:
        """Fails if effects are still running (waiting, bounded, for those about to end) or
        fed-back intents were not received; then closes the store (and its own runtime).

        ``still_running`` names long-lived effects the test expects to be running (an
        observation such as ``"detail.favorites"``): they must be, and closing ends them.
        Non-exhaustive: only closes.
        """
        if self._finished:
            return
        self._finished = True
        limit = self.test_runtime.timeout if timeout is None else timeout
        try:
            if self.exhaustive:
                expected_running = sorted(still_running)

                def quiet() -> bool:
                    return (self.store.pending_effects == len(expected_running)
                            and sorted(self.test_runtime.running_effects(self.serial)) == expected_running)

                if not self.test_runtime._wait(quiet, limit if expected_running else min(limit, 1.0)):
                    running = self.test_runtime.running_effects(self.serial)
                    held = self.catalog.pending
                    raise self._failure("finish()", f"{self.store.pending_effects} effect(s) still running after "
                                        f"{limit if expected_running else min(limit, 1.0)} s: {running or '?'}"
                                        + (f" (expected only {expected_running})" if expected_running else "")
                                        + (f"; catalog requests waiting for an answer: {held}" if held else "")
                                        + "; advance the clock, answer the requests, or name long-lived effects"
                                          " in finish(still_running=...)")
                waiting = self._new_entries()
                if waiting:
                    raise self._failure("finish()", f"{len(waiting)} intent(s) fed back by effects were not received: "
                                        + ", ".join(_compact(e["intent"]) for e in waiting))
        finally:
            self.close()

    def close(self) -> None:
        """Closes the store (its own runtime too) without checking anything."""
        self._finished = True
        self.store.close()
        if self._owns_runtime:
            self.test_runtime.close()

    # ------------------------------------------------------------------ internals

    def _new_entries(self) -> List[Dict[str, Any]]:
        return [cast(Dict[str, Any], e) for e in self.store.history if e["seq"] > self._seen]

    def _state_before(self, entry: Mapping[str, Any]) -> State:
        earlier = [cast(Dict[str, Any], e) for e in self.store.history if e["seq"] < entry["seq"]]
        return cast(State, earlier[-1]["state"]) if earlier else self._expected

    def _check(self, label: str, entry: Mapping[str, Any], changes: Changes) -> None:
        actual: State = entry["state"]
        expected = copy.deepcopy(self._expected)
        named: Optional[List[str]] = None
        if callable(changes):
            before = copy.deepcopy(expected)
            result = changes(expected)
            if isinstance(result, dict) and result is not expected:
                expected = result  # a function returning the new state is fine too
            named = [k for k in set(before) | set(expected) if before.get(k) != expected.get(k)]
        elif changes is not None:
            unknown = [k for k in changes if k not in expected]
            if unknown:
                raise self._failure(label, f"{', '.join(unknown)}: not members of the {self.feature} state "
                                    f"(members: {', '.join(expected)})")
            expected.update(copy.deepcopy(dict(changes)))
            named = list(changes)
        if self.exhaustive:
            compared_expected, compared_actual = expected, actual
        else:
            keys = named or []
            compared_expected = {k: expected.get(k) for k in keys}
            compared_actual = {k: actual.get(k) for k in keys}
        if compared_expected != compared_actual:
            changed = entry.get("changed", [])
            unasserted = [k for k in changed if k not in (named or [])]
            hint = f"\n  members the intent changed: {', '.join(changed) or 'none'}"
            if self.exhaustive and unasserted:
                hint += f"; changed but not asserted: {', '.join(unasserted)}"
            raise self._failure(label, "the state differs from the expected one:\n"
                                + format_diff(compared_expected, compared_actual) + hint)
        self._expected = copy.deepcopy(actual)

    def _failure(self, label: str, message: str) -> TestStoreFailure:
        return TestStoreFailure(f"TestStore({self.feature}) {label}: {message}")


def _compact(value: Any) -> str:
    text = json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    return text if len(text) <= 160 else text[:159] + "…"

