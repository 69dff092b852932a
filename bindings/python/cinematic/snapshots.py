"""Snapshots: pick up where the person left off (include/cinematic.h, SNAPSHOTS; docs/wire.md,
"Snapshots").

``store.snapshot()`` and ``runtime.snapshot()`` return what a person expects back (the query
and pages of a search, the sections of Discover, the film of a detail), as the schema's
``StoreSnapshot`` / ``RuntimeSnapshot``; ``runtime.restore(snapshot)`` and
``runtime.restore_all(snapshot)`` reopen stores from them in any runtime, later or in another
process. Restored stores reload through their normal effects: their first state says
``"loading"``.

    saved = json.dumps(runtime.snapshot())          # going to the background
    ...
    with cinematic.Runtime() as runtime:             # the next launch
        search, detail = runtime.restore_all(json.loads(saved))
"""

from __future__ import annotations

import ctypes
import json
from typing import TYPE_CHECKING, Any, List, Mapping, Union, cast

from . import _native, wire
from ._core import check, take_string

if TYPE_CHECKING:
    from .store import Store

__all__ = ["StoreSnapshots", "RuntimeSnapshots", "SnapshotInput"]

#: A snapshot as returned by ``snapshot()`` (a mapping) or as saved (its JSON text).
SnapshotInput = Union[Mapping[str, Any], str, bytes]


def _text(snapshot: SnapshotInput) -> bytes:
    if isinstance(snapshot, bytes):
        return snapshot
    if isinstance(snapshot, str):
        return snapshot.encode("utf-8")
    return json.dumps(snapshot, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


class StoreSnapshots:
    """``store.snapshot()`` (mixed into :class:`~cinematic.Store`)."""

    _handle: int

    def snapshot(self) -> wire.StoreSnapshot:
        """The store's snapshot (``cinematic_store_snapshot``), e.g. ``{"format": 1, "library":
        "0.2.0", "feature": "search", "data": {"query": "dune", "pagesLoaded": 2}}``. Add a
        ``"view"`` of your own (``{"firstVisibleIndex": 37}``) before saving it if you like:
        restores carry it through."""
        getattr(self, "_errors").raise_pending()
        out = ctypes.c_void_p()
        check(_native.lib().cinematic_store_snapshot(self._handle, ctypes.byref(out)), "cinematic_store_snapshot")
        return cast(wire.StoreSnapshot, json.loads(take_string(out)))


class RuntimeSnapshots:
    """``runtime.snapshot()``, ``runtime.restore(...)``, ``runtime.restore_all(...)`` (mixed into
    :class:`~cinematic.Runtime`)."""

    _handle: int

    def snapshot(self) -> wire.RuntimeSnapshot:
        """Every open store's snapshot, in the order they were opened
        (``cinematic_runtime_snapshot``)."""
        getattr(self, "_errors").raise_pending()
        out = ctypes.c_void_p()
        check(_native.lib().cinematic_runtime_snapshot(self._handle, ctypes.byref(out)), "cinematic_runtime_snapshot")
        return cast(wire.RuntimeSnapshot, json.loads(take_string(out)))

    def _adopt(self, handle: int) -> "Store[Any]":
        """Wraps a new store handle of a restore in its feature's typed store class."""
        from .features import STORE_CLASSES
        from .store import Store
        out = ctypes.c_void_p()
        # The feature is the snapshot's: ask the store itself.
        check(_native.lib().cinematic_store_snapshot(handle, ctypes.byref(out)), "cinematic_store_snapshot")
        feature = str(json.loads(take_string(out))["feature"])
        store = STORE_CLASSES.get(feature, Store)(cast(Any, self), feature, handle)
        getattr(self, "_track")(store._key, store)
        return store

    def restore(self, snapshot: SnapshotInput) -> "Store[Any]":
        """Opens a store from a store snapshot (``cinematic_store_restore``): a
        :class:`~cinematic.features.SearchStore` for a search snapshot, and so on. It says
        ``"loading"`` while it reloads. Raises :class:`~cinematic.InvalidError` for a
        snapshot that is not one or of a format this library cannot read (the message names
        it), :class:`~cinematic.UnknownFeatureError` for a feature it does not have."""
        getattr(self, "_errors").raise_pending()
        out = ctypes.c_void_p()
        check(_native.lib().cinematic_store_restore(self._handle, _text(snapshot), ctypes.byref(out)),
              "cinematic_store_restore")
        assert out.value is not None
        return self._adopt(out.value)

    def restore_all(self, snapshot: SnapshotInput) -> List["Store[Any]"]:
        """Reopens every store of a runtime snapshot, in order (``cinematic_runtime_restore``):
        all or none."""
        getattr(self, "_errors").raise_pending()
        stores = ctypes.POINTER(ctypes.c_void_p)()
        count = ctypes.c_int(0)
        check(_native.lib().cinematic_runtime_restore(self._handle, _text(snapshot), ctypes.byref(stores),
                                                      ctypes.byref(count)), "cinematic_runtime_restore")
        try:
            handles = [int(stores[index]) for index in range(count.value)]
        finally:
            _native.lib().cinematic_free(stores)
        return [self._adopt(handle) for handle in handles]
