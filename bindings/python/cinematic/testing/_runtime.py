"""The runtime of a test: :class:`TestRuntime` (manual clock, scripted catalog, in-memory
favorites, history on), which follows the effects its log announces."""

from __future__ import annotations

import re
import threading
import time
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Mapping, Optional, Tuple

from ..runtime import Runtime
from ._catalog import TestCatalog
from ._finishing import FinishesOnExit

if TYPE_CHECKING:
    from ._store import TestStore

__all__ = ["TestRuntime", "HISTORY"]

#: History entries each test store keeps (the header's maximum is 100000).
HISTORY = 10_000

_EFFECT_LINE = re.compile(r'^\[\d+ ms\] (\w+)#(\d+) effect (started|cancelled|finished) (?:"(.*)"|\(anonymous\)) \(#(\d+)\)$')


class TestRuntime(FinishesOnExit):
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

    def store(self, feature: str, args: Optional[Mapping[str, Any]] = None, *, exhaustive: Optional[bool] = None) -> "TestStore":
        """Opens a :class:`TestStore` of ``feature`` on this runtime."""
        from ._store import TestStore  # (here: the store module builds runtimes, so imports this one)

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
