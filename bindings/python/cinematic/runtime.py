"""The runtime: configuration, clock, catalog, favorites and callback delivery for stores."""

from __future__ import annotations

import ctypes
import json
import weakref
from typing import Any, Callable, Dict, List, Mapping, Optional, Type, TypeVar

from . import _native
from ._core import HandleRegistry, JSONInput, check, decode_state, encode, take_string
from ._delivery import RuntimeCore
from .features import FeatureOpeners
from .restore import RuntimeSnapshots
from .store import Store

__all__ = ["Runtime", "Provider", "Request", "Logger"]

#: A provider request: ``{"op": "search", "query": "dune", "page": 1}``,
#: ``{"op": "discover", "section": "popular", "page": 1}``, ``{"op": "movie", "id": 15249}``
#: or ``{"op": "cancel"}``.
Request = Dict[str, Any]
#: A catalog provider: ``provider(request_id, request)``. It must not block. It answers later
#: with :meth:`Runtime.respond` (from any thread), or at once by returning the answer (a
#: mapping); returning None means "I will answer later" (or never, for ``cancel``).
Provider = Callable[[int, Request], Optional[Mapping[str, Any]]]

#: A logger: ``logger(line)`` receives each readable log line (see :meth:`Runtime.set_logger`).
Logger = Callable[[str], None]

S = TypeVar("S", bound="Store[Any]")

#: key -> weakref(Runtime), for the provider trampoline.
_runtimes = HandleRegistry()


def _on_request(userdata: Optional[int], request_id: int, request_json: Optional[bytes]) -> None:
    # Runs on whatever thread the library delivers on. Must never raise into C.
    ref = _runtimes.get(userdata)
    runtime: Optional[Runtime] = ref() if ref is not None else None
    if runtime is None:
        return
    try:
        runtime._on_request(request_id, request_json)
    except BaseException as error:  # pragma: no cover - _on_request catches
        runtime._errors.record(error, "the catalog provider trampoline")


#: The one C function pointer every runtime's provider uses (lives as long as the module).
_request_trampoline = _native.REQUEST_FN(_on_request)


def _on_log(userdata: Optional[int], line: Optional[bytes]) -> None:
    # Runs on whatever thread the library delivers on. Must never raise into C.
    ref = _runtimes.get(userdata)
    runtime: Optional[Runtime] = ref() if ref is not None else None
    if runtime is None:
        return
    logger = runtime._logger
    if logger is None or line is None:
        return
    try:
        logger(line.decode("utf-8", "replace"))
    except BaseException as error:
        runtime._errors.record(error, "the logger")


#: The one C function pointer every runtime's logger uses (lives as long as the module).
_log_trampoline = _native.LOG_FN(_on_log)


def _close_handle(handle: int) -> None:
    """Finalizer: closes a runtime the host forgot to close (at garbage collection or exit),
    so no library thread calls into a finalizing interpreter."""
    try:
        _native.lib().cinematic_runtime_close(handle)
    except Exception:  # pragma: no cover - interpreter shutdown
        pass


class Runtime(FeatureOpeners, RuntimeSnapshots, RuntimeCore):
    """A libcinematic runtime. Open stores from it; close it (or use ``with``) to stop
    everything::

        with cinematic.Runtime({"clock": "manual", "delivery": "queued"}) as runtime:
            ...

    ``config`` (a mapping, or JSON text; keyword ``options`` are merged over a mapping) takes
    the keys of ``cinematic_runtime_open``. Open stores with the feature openers
    (``search()``, ``discover()``, ``favorites()``, ``detail(movie_id)``: one per feature of
    the schema, generated in :mod:`cinematic.features`) or :meth:`open_store`.

    Configuration keys:

    - ``catalog``: ``"embedded"`` (default), ``"host"`` (see :meth:`set_provider`),
      ``{"host": "<source>"}`` (a host catalog declaring its source, the provider's URL or a
      name: the offline cache keeps each source's answers apart, and plain ``"host"`` gets
      no default cache; :func:`cinematic.http_provider.catalog_config`) or
      ``{"path": "/dir/catalog.sqlite"}``;
    - ``favorites``: ``":memory:"`` (default), a file path (its directory must exist), or
      ``{"path": ..., "readOnly": True}`` (listing works, every change fails with
      ``"storage"``);
    - ``clock``: ``"system"`` (default) or ``"manual"`` (see :meth:`advance_clock`);
    - ``delivery``: ``"immediate"`` (default: callbacks on library threads) or ``"queued"``
      (callbacks run in :meth:`dispatch`; see :meth:`fileno`);
    - ``search``: ``{"debounceMs": 250}``;
    - ``history``: entries of debug history each store keeps (0, the default, keeps none;
      see :meth:`Store.history` and :meth:`Store.revert`);
    - ``record``: a file path: the session is recorded there, one JSON object per line, to
      replay with :func:`cinematic.replay.replay` or ``python -m cinematic.replay PATH``
      (complete once the runtime is closed).

    The environment variable ``CINEMATIC_LOG=stderr`` makes every runtime log to standard
    error (see :meth:`set_logger`).

    Raises InvalidError (unknown key or bad value, ``.path`` names it), JSONError,
    CinematicIOError (catalog or favorites cannot be opened).

    .. _callback-errors:

    Callback errors: an exception raised by a callback you gave the binding (a state
    subscriber, the catalog provider) cannot cross the C library. The binding logs it on the
    ``cinematic`` logger with its traceback and keeps it on the runtime; the next call on this
    runtime or any of its stores, from any thread, raises that same exception object. Calls
    that run or wait for callbacks (``send``, ``settle``, ``dispatch``, ``advance_clock``,
    ``respond``) also check when they return, so the call during which the callback failed
    raises it; ``close()`` raises it after closing. Only the first exception is kept until
    raised; later ones are only logged.
    """

    def __init__(self, config: Optional[JSONInput] = None, *, patches: bool = True, **options: Any) -> None:
        merged: Optional[JSONInput] = None
        if isinstance(config, str) and not options:
            merged = config  # JSON text, passed through as is
            try:
                parsed = json.loads(config)
            except ValueError:
                parsed = None
            settings: Dict[str, Any] = parsed if isinstance(parsed, dict) else {}
        else:
            if config is not None and not isinstance(config, Mapping):
                raise TypeError(f"config must be a mapping or JSON text, not {type(config).__name__}")
            if config is not None or options:
                combined: Dict[str, Any] = dict(config or {})
                combined.update(options)
                merged = combined
            settings = dict(merged) if isinstance(merged, Mapping) else {}
        handle = ctypes.c_void_p()
        check(_native.lib().cinematic_runtime_open(encode(merged, "config"), ctypes.byref(handle)),
              "cinematic_runtime_open")
        assert handle.value is not None
        RuntimeCore.__init__(self, handle.value, settings, patches)
        self._provider: Optional[Provider] = None
        self._logger: Optional[Logger] = None
        self._key = _runtimes.add(weakref.ref(self))
        self._finalizer = weakref.finalize(self, _close_handle, self._handle)

    # ------------------------------------------------------------------ lifecycle

    def __enter__(self) -> "Runtime":
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<Runtime {'closed' if self._closed else 'open'} {json.dumps(self._config)}>"

    @property
    def config(self) -> Dict[str, Any]:
        """The configuration the runtime was opened with (a copy; defaults omitted)."""
        return dict(self._config)

    def catalog_state(self) -> Dict[str, Any]:
        """Where the catalog is in its loading (``cinematic_runtime_catalog_state``):
        ``{"phase": "loading", "progress": 0.42}``, ``{"phase": "loaded"}`` or
        ``{"phase": "failed", "error": {...}}``. Never waits."""
        out = ctypes.c_void_p()
        check(_native.lib().cinematic_runtime_catalog_state(self._handle, ctypes.byref(out)),
              "cinematic_runtime_catalog_state")
        state: Dict[str, Any] = json.loads(take_string(out))
        return state

    def close(self) -> None:
        """Closes the runtime and every store it still has: effects stop, provider requests
        are abandoned, and no callback of this runtime runs after this returns (called from a
        callback, that callback is the last). Idempotent. Raises a pending callback exception
        after closing."""
        if not self._closed:
            self._shut_down()
            status = _native.lib().cinematic_runtime_close(self._handle)
            self._finalizer.detach()
            self._closed_down()
            self._provider = None
            self._logger = None
            _runtimes.remove(self._key)
            if status != 5:
                check(status, "cinematic_runtime_close")
        self._errors.raise_pending()

    # ------------------------------------------------------------------ stores

    def _open_store(self, feature: str, args: Optional[JSONInput], cls: Type[S]) -> S:
        """Opens a store of ``feature`` as ``cls`` (what :meth:`open_store` and the feature
        openers call)."""
        self._errors.raise_pending()
        out = ctypes.c_void_p()
        check(_native.lib().cinematic_store_open(self._handle, feature.encode("utf-8"), encode(args, "args"),
                                                 ctypes.byref(out)), "cinematic_store_open")
        assert out.value is not None
        store = cls(self, feature, out.value)
        self._track(store._key, store)
        return store

    @property
    def stores(self) -> List["Store[Any]"]:
        """The stores of this runtime that are still open."""
        with self._lock:
            return [store for store in self._open_stores.values() if isinstance(store, Store)]

    # ------------------------------------------------------------------ clock

    def advance_clock(self, milliseconds: int) -> None:
        """Moves a ``"manual"`` clock forward and wakes the effects whose sleep elapsed; they
        continue on library threads (use ``store.settle`` to wait for them).

        Raises InvalidError (negative), MisuseError (system clock), ClosedError.
        """
        self._errors.raise_pending()
        check(_native.lib().cinematic_runtime_advance_clock(self._handle, int(milliseconds)),
              "cinematic_runtime_advance_clock")
        self._errors.raise_pending()

    # ------------------------------------------------------------------ debugging

    def set_logger(self, logger: Optional[Logger]) -> None:
        """Registers the runtime's logger (None removes it): ``logger(line)`` receives a
        readable line for every intent any store reduces (with the state fields it
        changed), every time-travel step and every effect started, cancelled and finished::

            [250 ms] search#2 intent #3 searchNow {"type":"searchNow"} changed: results
            [250 ms] search#2 effect started "search" (#7)

        Lines run under the delivery rules, like state callbacks (``"queued"``: in
        :meth:`dispatch`). Off by default, and free when off. When this returns the previous
        logger is never called again. An exception the logger raises is handled like any
        callback error (see :class:`Runtime`).

        Raises ClosedError.
        """
        self._errors.raise_pending()
        self._register("_logger", logger, "cinematic_runtime_set_logger", _log_trampoline, _native.LOG_FN())

    def _register(self, attribute: str, callback: Any, function: str, trampoline: Any, null: Any) -> None:
        """Points the C callback `function` at `trampoline` (which finds `callback` in
        ``self.<attribute>`` through this runtime's key), or at nothing (`null`) when
        `callback` is None. The library stops calling first and the attribute is cleared
        after; a new callback is stored first, so the trampoline always finds one while the
        library may call it. ``self.<attribute>`` keeps its old value if the call fails."""
        if callback is None:
            check(getattr(_native.lib(), function)(self._handle, null, None), function)
            setattr(self, attribute, None)
            return
        previous = getattr(self, attribute)
        setattr(self, attribute, callback)
        try:
            check(getattr(_native.lib(), function)(self._handle, trampoline, self._key), function)
        except BaseException:
            setattr(self, attribute, previous)
            raise

    # ------------------------------------------------------------------ host catalog

    def set_provider(self, provider: Optional[Provider]) -> None:
        """Registers the catalog provider of a ``"host"`` catalog (None removes it). Register
        it before opening stores: requests made while none is registered fail with
        ``"network"``.

        ``provider(request_id, request)`` receives ``{"op": "search", "query", "page"}``,
        ``{"op": "discover", "section", "page"}``, ``{"op": "movie", "id"}`` or
        ``{"op": "cancel"}`` (the request with that id is no longer needed; answering it
        anyway is safe). It runs under the delivery rules and must not block: answer with
        :meth:`respond`, from any thread, whenever you like, or return the answer.

        Raises MisuseError (the catalog is not ``"host"``), ClosedError.
        """
        self._errors.raise_pending()
        self._register("_provider", provider, "cinematic_runtime_set_provider", _request_trampoline, _native.REQUEST_FN())

    def respond(self, request_id: int, answer: JSONInput) -> None:
        """Answers provider request ``request_id``: ``{"movies": [movie, ...]}`` (search,
        discover), ``{"movie": {...detail...}}`` (movie) or ``{"error": {"code", "message"}}``.
        An answer to a cancelled or already answered request is accepted and dropped.

        Raises JSONError / TooLargeError / InvalidError (bad answer: the request then fails
        with ``"invalidResponse"``; or an id that was never issued), MisuseError (not a host
        catalog), ClosedError.
        """
        self._errors.raise_pending()
        check(_native.lib().cinematic_runtime_respond(self._handle, int(request_id), encode(answer, "answer")),
              "cinematic_runtime_respond")
        self._errors.raise_pending()

    def _on_request(self, request_id: int, request_json: Optional[bytes]) -> None:
        provider = self._provider
        if provider is None:
            return
        try:
            answer = provider(request_id, decode_state(request_json))
            if answer is not None:
                check(_native.lib().cinematic_runtime_respond(self._handle, int(request_id), encode(answer, "answer")),
                      "cinematic_runtime_respond")
        except BaseException as error:
            self._errors.record(error, f"the catalog provider {provider!r} (request {request_id})")
