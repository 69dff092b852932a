"""Stores: one feature's state machine, driven with intents and observed through states.

A :class:`Store` is opened by :meth:`cinematic.Runtime.open_store` (or the feature openers
``runtime.search()``, ``runtime.discover()``, ``runtime.favorites()``,
``runtime.detail(movie_id)``), which return the feature's subclass (generated from the
schema in :mod:`cinematic.features`) with its typed state and intent helpers::

    with cinematic.Runtime() as runtime, runtime.search() as search:
        search.query_changed("dune")
        search.settle(5)
        print(search.state["results"]["value"][0]["title"])   # Dune
"""

from __future__ import annotations

import ctypes
import json
import threading
import weakref
from typing import Any, Callable, Dict, List, Optional, Tuple, Type, TypeVar, cast, overload
from . import _native, wire
from ._core import CallbackErrors, JSONInput, check, encode, take_string
from ._delivery import STORES, RuntimeCore, Subscriber
from ._effects import StoreEffects
from ._history import History
from ._observing import StateT, StoreObserving
from ._patch import PatchedState
from .snapshots import StoreSnapshots

__all__ = [
    "State",
    "StateCallback",
    "Store",
    "DISCOVER_SECTIONS",
]

#: A state as an untyped host sees it: the parsed JSON object.
State = Dict[str, Any]
#: A state subscriber of an untyped store: called with each state (a fresh dict per call).
StateCallback = Callable[[State], None]

#: Discover's section ids, in the order the state lists them (from the schema).
DISCOVER_SECTIONS: Tuple[str, ...] = wire.SECTION_ID_VALUES

_S = TypeVar("_S", bound="Store[Any]")

#: The class of a child handle of each scope, by name: a class that names its ``SCOPE``, else
#: the feature class of that name (scope "search" shows a search store's state). Filled as
#: the classes are defined (``Store.__init_subclass__``).
_SCOPE_CLASSES: Dict[str, Type["Store[Any]"]] = {}


class Store(StoreSnapshots, StoreEffects, StoreObserving[StateT]):
    """One feature's store, owned by a :class:`~cinematic.Runtime`; ``StateT`` is the type of
    its state (``Store[wire.SearchState]`` for search: see :mod:`cinematic.features`).

    Use it as a context manager or call :meth:`close`. Every method raises the
    :class:`~cinematic.CinematicError` subclass of a failing C status, and first re-raises
    an exception that one of your callbacks raised earlier (see :ref:`callback errors
    <callback-errors>` in :mod:`cinematic`).

    Attributes:
        feature: the feature name, e.g. ``"search"``.
        runtime: the :class:`~cinematic.Runtime` that owns the store (typed as its core:
            ``delivery``, ``closed``, ``fileno()``, ``dispatch()``).
    """

    #: The feature name this class is for (None: any; set on the feature subclasses).
    FEATURE: Optional[str] = None
    #: The wire types of the feature's host intents (set on the feature subclasses).
    INTENTS: Tuple[str, ...] = ()
    #: The child scope this class is for (None: the scope named like its ``FEATURE``).
    SCOPE: Optional[str] = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        scope, feature = cls.__dict__.get("SCOPE"), cls.__dict__.get("FEATURE")
        if isinstance(scope, str):
            _SCOPE_CLASSES[scope] = cls
        elif isinstance(feature, str):
            _SCOPE_CLASSES.setdefault(feature, cls)

    def __init__(self, runtime: RuntimeCore, feature: str, handle: int) -> None:
        """Wraps an opened C store handle; use :meth:`Runtime.open_store` instead."""
        self.feature = feature
        self.runtime = runtime
        self._handle = handle
        #: A child handle's parent (None for a store), and a store's open child handles.
        self._parent: Optional[Store[Any]] = None
        self._children: List[Store[Any]] = []
        self._errors: CallbackErrors = runtime._errors
        self._subscribers: Tuple[Subscriber, ...] = ()
        self._key = STORES.add(weakref.ref(self))
        self._closed = False
        self._lock = threading.Lock()
        #: The state rebuilt from patched deliveries (runtime.patches).
        self._patched = PatchedState()

    # ------------------------------------------------------------------ lifecycle

    def __enter__(self: _S) -> _S:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "closed" if self._closed else "open"
        return f"<{type(self).__name__} {self.feature!r} {state}>"

    @property
    def closed(self) -> bool:
        """True once :meth:`close` (or the runtime's close, or for a child handle its
        parent's close) ran."""
        return self._closed

    @property
    def parent(self) -> "Optional[Store[Any]]":
        """The store a child handle (:meth:`scope`) shows a part of; None for a store."""
        return self._parent

    def close(self) -> None:
        """Closes the store: its effects are cancelled and no callback for it runs after this
        returns; its child handles close with it. Closing a child handle stops only its own
        callbacks. Idempotent. May be called from inside a callback. Raises a pending
        callback exception after closing."""
        if not self._closed:
            status = _native.lib().cinematic_store_close(self._handle)
            if status not in (0, 5):  # closed already: by its runtime, or a child by its parent
                check(status, "cinematic_store_close")
            self._forget()
            if self._parent is not None:
                self._parent._child_closed(self)
            else:
                self.runtime._untrack(self._key)
        self._errors.raise_pending()

    def _child_closed(self, child: "Store[Any]") -> None:
        with self._lock:
            self._children = [c for c in self._children if c is not child]

    def _forget(self) -> None:
        """Drops every Python reference C could call back into (after the C close), this
        store's and its child handles' (C closed them with it)."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            subscribers, self._subscribers = self._subscribers, ()
            children, self._children = self._children, []
        for child in children:
            child._forget()
        STORES.remove(self._key)
        for subscriber in subscribers:
            if subscriber.on_close is not None:
                try:
                    subscriber.on_close()
                except BaseException as error:  # pragma: no cover - internal hooks
                    self._errors.record(error, f"a close hook of {self!r}")

    # ------------------------------------------------------------------ intents

    def send(self, intent: JSONInput) -> None:
        """Sends an intent: a mapping such as ``{"type": "queryChanged", "query": "dune"}``
        or its JSON text. The store has reduced it when this returns (``state`` shows it);
        its effects run in the library.

        Raises JSONError / TooLargeError (bad JSON, > 1 MiB), InvalidError (unknown or
        internal intent type, missing, mistyped or unknown member; ``.path`` names it),
        ClosedError, or a pending callback exception.
        """
        self._errors.raise_pending()
        check(_native.lib().cinematic_store_send(self._handle, encode(intent, "intent")), "cinematic_store_send")
        self._errors.raise_pending()

    def send_raw(self, data: bytes) -> None:
        """Sends ``data`` to ``cinematic_store_send`` byte for byte (no encoding, no checks), to
        exercise the library's input validation (e.g. invalid UTF-8). C stops at a NUL byte.
        """
        if not isinstance(data, (bytes, bytearray)):
            raise TypeError("send_raw takes bytes")
        self._errors.raise_pending()
        check(_native.lib().cinematic_store_send(self._handle, bytes(data)), "cinematic_store_send")
        self._errors.raise_pending()

    # ------------------------------------------------------------------ child handles

    @overload
    def scope(self, name: str) -> "Store[Any]": ...

    @overload
    def scope(self, name: str, cls: Type[_S]) -> _S: ...

    def scope(self, name: str, cls: Optional[Type["Store[Any]"]] = None) -> "Store[Any]":
        """A child handle showing one part of this store's state (``cinematic_store_scope``):
        for an app store, ``"search"``, ``"discover"``, ``"favorites"`` (each exactly that
        feature's store state) or ``"detail"`` (the shown Detail, None when none is open).

        It is a store like any other: ``state``, ``subscribe`` (whole or patched, like the
        runtime), ``wait_for``, ``states()``, and the part's own intents and helpers
        (``app.scope("search", SearchStore).query_changed("dune")``), sent through this
        store: its history and recordings show them as its own (``{"type": "search",
        "intent": {...}}``). ``settle``, ``pending_effects``, ``history``, ``revert`` and
        ``snapshot`` act on this store. Closing this store closes its child handles (their
        calls then raise ClosedError); closing a child stops only its callbacks.

        The child's class is ``cls`` when given (for the type checker: ``app.scope("detail",
        ShownDetailStore)``), else the class of the scope (:class:`SearchStore` for
        ``"search"``, :class:`ShownDetailStore` for ``"detail"``).

        Raises InvalidError (a scope this store's feature does not have; a child handle's
        scope), ClosedError.
        """
        self._errors.raise_pending()
        chosen: Type[Store[Any]] = cls or _SCOPE_CLASSES.get(name, Store)
        out = ctypes.c_void_p()
        check(_native.lib().cinematic_store_scope(self._handle, name.encode("utf-8"), ctypes.byref(out)),
              "cinematic_store_scope")
        assert out.value is not None
        child = chosen(self.runtime, name, out.value)
        child._parent = self
        with self._lock:
            closed = self._closed
            if not closed:
                self._children.append(child)
        if closed:  # closed meanwhile (by another thread): C closed the child with it
            child._forget()
        return child

    # ------------------------------------------------------------------ state

    @property
    def state(self) -> StateT:
        """A snapshot of the current state, parsed (a fresh dict each time), typed by the
        feature's TypedDict."""
        return cast(StateT, json.loads(self.state_json))

    @property
    def typed_state(self) -> StateT:
        """Deprecated: :attr:`state` is typed now."""
        return self.state

    @property
    def state_json(self) -> str:
        """A snapshot of the current state as the library's JSON text."""
        self._errors.raise_pending()
        out = ctypes.c_void_p()
        check(_native.lib().cinematic_store_state(self._handle, ctypes.byref(out)), "cinematic_store_state")
        return take_string(out)

    # ------------------------------------------------------------------ debugging

    @property
    def history(self) -> History:
        """The debug history, oldest first (at most the runtime's ``history`` entries; empty
        when it keeps none): ``{"seq": 12, "intent": {...}, "state": {...}, "changed":
        ["results"]}`` per reduced intent, internal ones (effect results) included; ``state``
        is the state after it, ``changed`` the state members it changed. A property, like
        :attr:`state` (a fresh list each time); ``store.history()`` still works, deprecated.

        Raises ClosedError.
        """
        self._errors.raise_pending()
        out = ctypes.c_void_p()
        check(_native.lib().cinematic_store_history(self._handle, ctypes.byref(out)), "cinematic_store_history")
        return History(json.loads(take_string(out)))

    def revert(self, seq: int) -> None:
        """Time travel: sets the state to the one after history entry ``seq`` and delivers it
        to subscribers like any other state. Effects in flight keep running; the history is
        unchanged.

        Raises InvalidError (``seq`` not in the history, or the runtime keeps none),
        ClosedError.
        """
        self._errors.raise_pending()
        check(_native.lib().cinematic_store_revert(self._handle, int(seq)), "cinematic_store_revert")
        self._errors.raise_pending()
