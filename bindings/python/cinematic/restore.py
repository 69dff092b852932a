"""Reopening stores from snapshots: ``runtime.restore(snapshot)`` and
``runtime.restore_all(snapshot)`` (mixed into :class:`~cinematic.Runtime`; the snapshots
themselves: :mod:`cinematic.snapshots`)."""

from __future__ import annotations

import ctypes
import json
from typing import Any, List, cast

from . import _native, wire
from ._core import check, take_string
from .features import STORE_CLASSES
from .snapshots import SnapshotInput, snapshot_text
from .store import Store

__all__ = ["RuntimeSnapshots"]


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
        check(_native.lib().cinematic_store_restore(self._handle, snapshot_text(snapshot), ctypes.byref(out)),
              "cinematic_store_restore")
        assert out.value is not None
        return self._adopt(out.value)

    def restore_all(self, snapshot: SnapshotInput) -> List["Store[Any]"]:
        """Reopens every store of a runtime snapshot, in order (``cinematic_runtime_restore``):
        all or none."""
        getattr(self, "_errors").raise_pending()
        stores = ctypes.POINTER(ctypes.c_void_p)()
        count = ctypes.c_int(0)
        check(_native.lib().cinematic_runtime_restore(self._handle, snapshot_text(snapshot), ctypes.byref(stores),
                                                      ctypes.byref(count)), "cinematic_runtime_restore")
        try:
            handles = [int(stores[index]) for index in range(count.value)]
        finally:
            _native.lib().cinematic_free(stores)
        return [self._adopt(handle) for handle in handles]
