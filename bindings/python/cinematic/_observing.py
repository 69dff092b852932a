"""A store's state subscribers (:class:`StoreObserving`, mixed into :class:`~cinematic.Store`):
subscribing to whole or patched states, the deliveries that reach them, waiting for a state,
and state streams for asyncio."""

from __future__ import annotations

import json
import select
import threading
import time
from typing import TYPE_CHECKING, Callable, Generic, List, Optional, Tuple, TypeVar, cast

from . import _native
from ._core import CallbackErrors, check, logger
from ._delivery import STATE_TRAMPOLINE, RuntimeCore, Subscriber
from ._patch import PatchedState, PatchError
from .errors import ERR_TIMEOUT, MisuseError, SettleTimeoutError

if TYPE_CHECKING:
    from .aio import StateStream  # imported by states(): asyncio only for hosts that use it

__all__ = ["StoreObserving", "StateT"]

#: The type of a store's state: the feature's generated TypedDict (``wire.SearchState``...).
StateT = TypeVar("StateT")


class StoreObserving(Generic[StateT]):
    """``subscribe``, ``subscribe_deliveries``, ``wait_for``, ``states()`` and the deliveries
    behind them (mixed into :class:`~cinematic.Store`: one C callback per store, fanned out to
    its subscribers)."""

    feature: str
    runtime: RuntimeCore
    _handle: int
    _key: int
    _errors: CallbackErrors
    _lock: threading.Lock
    _closed: bool
    _subscribers: Tuple[Subscriber, ...]
    _patched: PatchedState

    if TYPE_CHECKING:
        @property
        def state_json(self) -> str:
            """The current state's JSON text (:attr:`cinematic.Store.state_json`)."""

    def subscribe(self, callback: Callable[[StateT], None]) -> Callable[[], None]:
        """Calls ``callback(state)`` with the current state, then with every distinct state in
        order; returns a function that unsubscribes (idempotent).

        Callbacks run under the runtime's delivery rules: with ``"immediate"`` delivery on a
        library thread (the sender's for states that ``send`` causes), with ``"queued"``
        delivery inside :meth:`Runtime.dispatch`. Callbacks of one runtime never run
        concurrently. A callback may call ``send``, ``state`` and ``close``, not ``settle``.

        Several subscribers may share a store (the binding registers one C callback per store
        and fans states out). Adding a subscriber re-registers that callback, so states still
        waiting in the queue at that moment reach existing subscribers coalesced into the
        current state.

        An exception raised by ``callback`` is logged and re-raised by the next call on this
        runtime or its stores (see the package documentation).
        """
        return self._subscribe(Subscriber(callback))

    def subscribe_deliveries(self, callback: Callable[[str], None]) -> Callable[[], None]:
        """Calls ``callback(text)`` with each patched delivery exactly as the library wrote it
        (``cinematic_store_observe_patches``): ``{"seq":1,"state":{...}}`` first, then
        ``{"seq":n,"patch":[...]}`` per change; returns a function that unsubscribes.

        For hosts that forward deliveries untouched (a web server sending them over a
        WebSocket): no parse, no re-encoding. A ``seq`` of 1 again means "start over from
        this whole state" (it follows a re-registration, e.g. another subscriber added).
        Same threads and error rules as :meth:`subscribe`. Raises MisuseError when the
        runtime delivers whole states (``Runtime(patches=False)``).
        """
        if not self.runtime.patches:
            raise MisuseError(MisuseError.STATUS, "misuse", "subscribe_deliveries needs patched delivery (Runtime(patches=True))",
                              function="subscribe_deliveries")
        return self._subscribe(Subscriber(callback, raw=True))

    def _subscribe(self, subscriber: Subscriber) -> Callable[[], None]:
        self._errors.raise_pending()
        with self._lock:
            if not self._closed:  # (closed: C answers the observe below with ClosedError)
                self._subscribers = (*self._subscribers, subscriber)
        try:
            self._register()
        except BaseException:
            self._remove(subscriber)
            raise

        held: Optional[Subscriber] = subscriber

        def unsubscribe() -> None:
            nonlocal held
            if held is not None:
                removed, held = held, None  # drop the callback with the subscription
                self._remove(removed)

        return unsubscribe

    def _observe(self) -> int:
        """Registers the one C callback of this store: in patch mode when the runtime says so."""
        if self.runtime.patches:
            return int(_native.lib().cinematic_store_observe_patches(self._handle, STATE_TRAMPOLINE, self._key))
        return int(_native.lib().cinematic_store_observe(self._handle, STATE_TRAMPOLINE, self._key))

    def _register(self) -> None:
        check(self._observe(), "cinematic_store_observe_patches" if self.runtime.patches else "cinematic_store_observe")

    def _remove(self, subscriber: Subscriber) -> None:
        with self._lock:
            if subscriber not in self._subscribers:
                return
            self._subscribers = tuple(s for s in self._subscribers if s is not subscriber)
            now_empty = not self._subscribers and not self._closed
        if now_empty:
            # Nobody listens: stop the library from encoding states for nobody.
            _native.lib().cinematic_store_observe(self._handle, _native.STATE_FN(), None)
            # A subscriber may have arrived meanwhile: make sure it stays registered.
            with self._lock:
                again = bool(self._subscribers) and not self._closed
            if again:
                self._observe()

    def _deliver(self, raw: bytes) -> None:
        if self.runtime.patches:
            self._deliver_patched(raw)
            return
        for subscriber in self._subscribers:
            if subscriber.last == raw:
                continue  # the same state again after a re-registration
            subscriber.last = raw
            try:
                subscriber.callback(json.loads(raw.decode("utf-8")))
            except BaseException as error:
                self._errors.record(error, f"a state callback of {self!r} ({subscriber.callback!r})")

    def _deliver_patched(self, raw: bytes) -> None:
        try:
            seq, state = self._patched.receive(raw)
        except (PatchError, ValueError, KeyError, TypeError) as problem:
            # Never from this library; if it happens, start over with the whole state.
            logger().error("cinematic: %r: a patched delivery did not apply (%s); observing again", self, problem)
            self._observe()
            return
        text: Optional[str] = None
        for subscriber in self._subscribers:
            if subscriber.raw:
                text = raw.decode("utf-8") if text is None else text
                try:
                    subscriber.callback(text)
                except BaseException as error:
                    self._errors.record(error, f"a delivery callback of {self!r} ({subscriber.callback!r})")
                continue
            if subscriber.last is state or (seq == 1 and subscriber.last == state):
                continue  # the same state again after a re-registration
            subscriber.last = state
            try:
                subscriber.callback(cast(StateT, state))
            except BaseException as error:
                self._errors.record(error, f"a state callback of {self!r} ({subscriber.callback!r})")

    @property
    def delivered_state(self) -> Optional[StateT]:
        """In patch mode, the state the last delivery rebuilt (None before the first, or with
        whole-state delivery): what subscribers last received. Read-only: states share their
        unchanged parts with earlier ones."""
        return cast(Optional[StateT], self._patched.state)

    @property
    def subscriber_count(self) -> int:
        """How many subscribers the store has."""
        return len(self._subscribers)

    def states(self) -> "StateStream[StateT]":
        """An asynchronous iterator over states, for asyncio::

            async for state in store.states():
                render(state)

        It yields the current state first, then every distinct state, and ends when the store
        closes. With ``"queued"`` delivery it watches ``runtime.fileno()`` with
        ``loop.add_reader`` and dispatches on the event loop's thread (no threads, no polling);
        with ``"immediate"`` delivery states are handed to the loop with
        ``call_soon_threadsafe``. Close it with ``aclose()`` or ``async with`` when leaving
        early (a ``break`` leaves the cleanup to garbage collection).
        """
        from .aio import StateStream

        return StateStream(self)

    def wait_for(self, predicate: Callable[[StateT], bool], timeout: Optional[float] = 5.0) -> StateT:
        """Blocks until a state satisfies ``predicate`` and returns it, or raises
        :class:`~cinematic.SettleTimeoutError` after ``timeout`` seconds (None: no limit).

        For stores that never settle (favorites and detail keep observing). With
        ``"queued"`` delivery it dispatches the runtime's callbacks on the calling thread
        while it waits (``select`` on ``runtime.fileno()``), so call it from the thread that
        dispatches, never from inside a callback.
        """
        deadline = None if timeout is None else time.monotonic() + timeout
        found: List[StateT] = []
        event = threading.Event()

        def on_state(state: StateT) -> None:
            if not found and predicate(state):
                found.append(state)
                event.set()

        unsubscribe = self.subscribe(on_state)
        try:
            if self.runtime.delivery == "queued":
                fd = self.runtime.fileno()
                while not found:
                    remaining = None if deadline is None else deadline - time.monotonic()
                    if remaining is not None and remaining <= 0:
                        break
                    readable, _, _ = select.select([fd], [], [], remaining)
                    if readable:
                        self.runtime.dispatch()
            else:
                remaining = None if deadline is None else max(0.0, deadline - time.monotonic())
                event.wait(remaining)
        finally:
            unsubscribe()
        self._errors.raise_pending()
        if not found:
            raise SettleTimeoutError(
                ERR_TIMEOUT, "timeout",
                f"no state of {self.feature!r} satisfied the predicate within {timeout} s; last state: "
                f"{self.state_json[:500]}",
                {"status": "timeout"}, "Store.wait_for")
        return found[0]
