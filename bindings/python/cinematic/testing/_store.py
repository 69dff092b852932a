"""One store under test: :class:`TestStore`, whose steps assert exactly what changed
(see :mod:`cinematic.testing`)."""

from __future__ import annotations

import copy
import json
from typing import Any, Callable, Dict, Iterable, List, Mapping, Optional, Union, cast

from ..runtime import Runtime
from ..store import Store
from ._catalog import TestCatalog
from ._finishing import FinishesOnExit
from ._diff import format_diff
from ._failure import TestStoreFailure, compact
from ._runtime import TestRuntime

__all__ = ["TestStore", "Changes", "State"]

#: A state as the test sees it: the parsed JSON object.
State = Dict[str, Any]
#: State members derived from the others (schema "x-derived": the app's ``view``): a step
#: asserts them only when it names them, like TCA's computed properties.
DERIVED_MEMBERS = ("view",)

#: What a step changes: a partial dict of top-level state members (replaced whole), or a
#: function that mutates (a deep copy of) the expected state in place; None: nothing changes.
Changes = Union[None, Mapping[str, Any], Callable[[State], Any]]


class TestStore(FinishesOnExit):
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

    def __repr__(self) -> str:
        return f"<TestStore {self.feature!r}>"

    @property
    def catalog(self) -> TestCatalog:
        """The test runtime's scripted catalog."""
        return self.test_runtime.catalog

    @property
    def runtime(self) -> Runtime:
        """The :class:`cinematic.Runtime` the store runs on."""
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
                raise self._failure(f"send({compact(intent)})",
                                    f"{len(waiting)} intent(s) fed back by effects must be received first: "
                                    + ", ".join(compact(e["intent"]) for e in waiting))
        self.store.send(intent)
        entries = self._new_entries()
        mine = next((i for i, e in enumerate(entries) if e["intent"] == intent), None)
        if mine is None:
            raise self._failure(f"send({compact(intent)})", "the intent is not in the store's history")
        if not self.exhaustive:
            self._expected = copy.deepcopy(self._state_before(entries[mine]))
        elif mine > 0:
            raise self._failure(f"send({compact(intent)})",
                                f"{mine} intent(s) were fed back by effects while it was sent; receive them first: "
                                + ", ".join(compact(e["intent"]) for e in entries[:mine]))
        self._seen = entries[mine]["seq"]
        self._check(f"send({compact(intent)})", entries[mine], changes)

    def receive(self, intent: Union[str, Mapping[str, Any], Callable[[Mapping[str, Any]], bool]], changes: Changes = None,
                *, timeout: Optional[float] = None) -> Dict[str, Any]:
        """Asserts the next intent an effect fed back (waiting for it, bounded): ``intent`` is
        its type (``"resultsLoaded"``), the whole intent, or a predicate; then asserts the
        state after it like :meth:`send`. Non-exhaustive: skips fed-back intents that do not
        match. Returns the received intent."""
        what = intent if isinstance(intent, str) else (compact(intent) if isinstance(intent, Mapping) else "(predicate)")
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
                raise self._failure(label, f"the next intent fed back was {compact(entry['intent'])}")
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
        label = f"receive_all({', '.join(w if isinstance(w, str) else compact(w) for w in wanted)})"
        limit = self.test_runtime.timeout if timeout is None else timeout
        entries = self.test_runtime._wait(lambda: (lambda e: e if len(e) >= len(wanted) else None)(self._new_entries()), limit)
        if not entries:
            got = self._new_entries()
            raise self._failure(label, f"{len(got)} of {len(wanted)} intents were fed back within {limit} s: "
                                + (", ".join(compact(e["intent"]) for e in got) or "none")
                                + f"; effects running: {self.test_runtime.running_effects(self.serial) or 'none'}")
        taken = entries[:len(wanted)]
        left = list(wanted)
        for entry in taken:
            match = next((w for w in left if (entry["intent"].get("type") == w if isinstance(w, str) else entry["intent"] == dict(w))), None)
            if match is None:
                raise self._failure(label, f"fed back {compact(entry['intent'])}, not one of the intents still expected")
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
                                + ", ".join(compact(e["intent"]) for e in waiting))

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
                                        + ", ".join(compact(e["intent"]) for e in waiting))
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
        for member in DERIVED_MEMBERS:   # follows from the others: asserted only when named
            if member in actual and member not in (named or []):
                expected[member] = copy.deepcopy(actual[member])
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
