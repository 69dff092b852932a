"""The runtime: configuration, clock, catalog, favorites and callback delivery for stores."""

from __future__ import annotations

import ctypes
import json
import weakref
from typing import Any, Dict, List, Mapping, Optional, Type, TypeVar

from . import _native
from ._core import JSONInput, check, encode, take_string
from ._delivery import RuntimeCore
from ._host_callbacks import RUNTIMES, Logger, Provider, Request, RuntimeCallbacks
from .features import FeatureOpeners
from .restore import RuntimeSnapshots
from .store import Store

__all__ = ["Runtime", "Provider", "Request", "Logger"]

S = TypeVar("S", bound="Store[Any]")


def _close_handle(handle: int) -> None:
    """Finalizer: closes a runtime the host forgot to close (at garbage collection or exit),
    so no library thread calls into a finalizing interpreter."""
    try:
        _native.lib().cinematic_runtime_close(handle)
    except Exception:  # pragma: no cover - interpreter shutdown
        pass


class Runtime(FeatureOpeners, RuntimeSnapshots, RuntimeCallbacks, RuntimeCore):
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
        self._key = RUNTIMES.add(weakref.ref(self))
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
            self._closing = True
            self._shut_down()
            status = _native.lib().cinematic_runtime_close(self._handle)
            self._finalizer.detach()
            self._closed_down()
            self._provider = None
            self._logger = None
            RUNTIMES.remove(self._key)
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
