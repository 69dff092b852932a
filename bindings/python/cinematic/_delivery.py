"""How states reach Python: what the runtime, its stores and asyncio streams share.

The dependencies of the package point one way (``tests/test_import_graph.py`` checks it)::

    _native, errors, wire  <-  _core  <-  _delivery  <-  aio  <-  store  <-  features  <-  runtime

This module owns what used to be reached through private calls across those modules:

- the registry of stores the library's state callback finds by key, and that callback
  (:data:`STATE_TRAMPOLINE`);
- :class:`Subscriber`, one observer of a store;
- :class:`RuntimeCore`, the part of a runtime its stores and streams use: the handle, the
  callback errors, the delivery mode, ``fileno``/``dispatch``, the table of open stores and
  the event-loop readers of queued delivery (:class:`LoopReader`).

:class:`cinematic.Runtime` extends :class:`RuntimeCore`; stores and streams only know the
core, so none of them imports the runtime.
"""

from __future__ import annotations

import ctypes
import threading
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Optional, Protocol

from . import _native
from ._core import CallbackErrors, HandleRegistry, check, logger

if TYPE_CHECKING:
    import asyncio

__all__ = ["LoopReader", "NOTHING_YET", "RuntimeCore", "STATE_TRAMPOLINE", "STORES", "Subscriber"]


#: What a subscriber was last handed before its first state (a state may be None: a child
#: handle's part that shows nothing).
NOTHING_YET = object()


class Subscriber:
    """One observer of a store: ``callback(state)`` per distinct state, ``on_close()`` once
    when the store closes."""

    __slots__ = ("callback", "last", "on_close", "raw")

    def __init__(self, callback: Callable[[Any], None], on_close: Optional[Callable[[], None]] = None,
                 raw: bool = False) -> None:
        self.callback = callback
        #: True: ``callback`` gets each delivery's JSON text as the library wrote it
        #: (:meth:`Store.subscribe_deliveries`), not the rebuilt state.
        self.raw = raw
        #: The last state handed to ``callback`` (to skip repeats): its raw JSON, or in patch
        #: mode the state object itself; NOTHING_YET before the first.
        self.last: object = NOTHING_YET
        self.on_close = on_close


class _Receiver(Protocol):
    """What the state trampoline calls: a store."""

    def _deliver(self, raw: bytes) -> None: ...


class _Tracked(Protocol):
    """What a runtime's store table holds: a store, forgotten when the runtime closes."""

    def _forget(self) -> None: ...


#: key -> weakref(store), for the state trampoline. A store adds itself when it opens and
#: removes itself when it closes; the runtime holds its open stores strongly.
STORES = HandleRegistry()


def _on_state(userdata: Optional[int], handle: Optional[int], state_json: Optional[bytes]) -> None:
    # Runs on whatever thread the library delivers on. Must never raise into C.
    try:
        ref = STORES.get(userdata)
        store: Optional[_Receiver] = ref() if ref is not None else None
        if store is not None and state_json is not None:
            store._deliver(state_json)
    except BaseException:  # pragma: no cover - _deliver already catches
        logger().exception("cinematic: error in the state trampoline")


#: The one C function pointer every store's observation uses (lives as long as the module).
STATE_TRAMPOLINE = _native.STATE_FN(_on_state)


class LoopReader:
    """One runtime's ``loop.add_reader`` registration (queued delivery), shared by the state
    streams of its stores on that loop: it dispatches the runtime when its fd is readable,
    and hands an exception a callback raised to every stream (its ``sink``)."""

    def __init__(self, core: "RuntimeCore", loop: "asyncio.AbstractEventLoop") -> None:
        self.core = core
        self.loop = loop
        self.sinks: List[Callable[[BaseException], None]] = []
        self.fd: Optional[int] = None

    def add(self, sink: Callable[[BaseException], None]) -> None:
        """A stream starts reading: watch the fd if nobody did."""
        if not self.sinks:
            self.fd = self.core.fileno()
            self.loop.add_reader(self.fd, self._readable)
        self.sinks.append(sink)

    def remove(self, sink: Callable[[BaseException], None]) -> None:
        """A stream stops: the last one removes the reader and this registration."""
        if sink in self.sinks:
            self.sinks.remove(sink)
        if not self.sinks:
            self.close()
            self.core._loop_readers.pop(self.loop, None)

    def close(self) -> None:
        """Stops watching the fd (the runtime is closing, or nobody reads)."""
        if self.fd is not None:
            if not self.loop.is_closed():
                self.loop.remove_reader(self.fd)
            self.fd = None

    def _readable(self) -> None:
        try:
            self.core.dispatch()
        except BaseException as error:
            # A callback (or the dispatch itself) failed: the streams' consumers raise it.
            if self.sinks:
                for sink in list(self.sinks):
                    sink(error)
            else:  # pragma: no cover - the reader is removed with the last stream
                self.loop.call_exception_handler({"message": "cinematic: dispatch failed", "exception": error})


class RuntimeCore:
    """The part of a :class:`cinematic.Runtime` that its stores and state streams use.

    Attributes:
        delivery: ``"immediate"`` or ``"queued"`` (property).
        closed: True once the runtime closed (property).
    """

    def __init__(self, handle: int, config: Dict[str, Any], patches: bool = True) -> None:
        self._handle: int = handle
        self._config: Dict[str, Any] = config
        #: Whether stores observe in patch mode (see :attr:`patches`).
        self._patches = patches
        self._errors = CallbackErrors()
        self._lock = threading.RLock()
        self._closed = False
        #: Set as close() begins: a provider answering from a request callback that runs while
        #: the runtime closes gets "closed" from respond, and that answer is dropped, not raised.
        self._closing = False
        self._open_stores: Dict[int, _Tracked] = {}
        self._loop_readers: Dict[Any, LoopReader] = {}

    @property
    def delivery(self) -> str:
        """``"immediate"`` or ``"queued"``."""
        return str(self._config.get("delivery", "immediate"))

    @property
    def patches(self) -> bool:
        """True when stores receive patches (``cinematic_store_observe_patches``) and rebuild
        each state from the previous one (the default), False for whole states."""
        return self._patches

    @property
    def closed(self) -> bool:
        """True once the runtime's ``close`` ran."""
        return self._closed

    def fileno(self) -> int:
        """With ``"queued"`` delivery, a file descriptor that is readable while callbacks
        wait: watch it (select, poll, ``loop.add_reader``) and call :meth:`dispatch`. It
        belongs to the runtime: never read, write or close it.

        Raises MisuseError with ``"immediate"`` delivery, ClosedError.
        """
        self._errors.raise_pending()
        fd = ctypes.c_int(-1)
        check(_native.lib().cinematic_runtime_fd(self._handle, ctypes.byref(fd)), "cinematic_runtime_fd")
        return fd.value

    def dispatch(self) -> int:
        """Runs every waiting callback on this thread, in order; returns how many ran (0 when
        another thread is dispatching, or with immediate delivery). Raises MisuseError from
        inside a callback, ClosedError, and an exception a callback raised (after all waiting
        callbacks ran)."""
        self._errors.raise_pending()
        count = ctypes.c_int(0)
        check(_native.lib().cinematic_runtime_dispatch(self._handle, ctypes.byref(count)),
              "cinematic_runtime_dispatch")
        self._errors.raise_pending()
        return count.value

    # ------------------------------------------------------------------ for stores and streams

    def _track(self, key: int, store: _Tracked) -> bool:
        """Adds an opened store to the table; False (and the store is forgotten) when the
        runtime closed meanwhile (C closed the store with it)."""
        with self._lock:
            if not self._closed:
                self._open_stores[key] = store
                return True
        store._forget()
        return False

    def _untrack(self, key: int) -> None:
        """A store closed by itself leaves the table."""
        with self._lock:
            self._open_stores.pop(key, None)

    def _loop_reader(self, loop: "asyncio.AbstractEventLoop") -> LoopReader:
        """The (shared) reader of this runtime on ``loop``; call ``add`` on it."""
        reader = self._loop_readers.get(loop)
        if reader is None:
            reader = self._loop_readers[loop] = LoopReader(self, loop)
        return reader

    def _shut_down(self) -> None:
        """Before the C close: stop watching the fd in every loop."""
        for reader in list(self._loop_readers.values()):
            reader.close()
        self._loop_readers.clear()

    def _closed_down(self) -> None:
        """After the C close: mark closed and drop every store's callbacks."""
        self._closed = True
        with self._lock:
            stores, self._open_stores = list(self._open_stores.values()), {}
        for store in stores:
            store._forget()
