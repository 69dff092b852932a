"""Snapshots: pick up where the person left off (include/cinematic/snapshot.h, SNAPSHOTS;
docs/wire.md, "Snapshots").

``store.snapshot()`` and ``runtime.snapshot()`` return what a person expects back (the query
and pages of a search, the sections of Discover, the film of a detail), as the schema's
``StoreSnapshot`` / ``RuntimeSnapshot``; ``runtime.restore(snapshot)`` and
``runtime.restore_all(snapshot)`` (:mod:`cinematic.restore`) reopen stores from them in any runtime, later or in another
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
from typing import Any, Mapping, Union, cast

from . import _native, wire
from ._core import check, take_string

__all__ = ["StoreSnapshots", "SnapshotInput", "snapshot_text"]

#: A snapshot as returned by ``snapshot()`` (a mapping) or as saved (its JSON text).
SnapshotInput = Union[Mapping[str, Any], str, bytes]


def snapshot_text(snapshot: SnapshotInput) -> bytes:
    """A snapshot as the UTF-8 JSON text the C API takes."""
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
        "0.3.0", "feature": "search", "data": {"query": "dune", "pagesLoaded": 2}}``. Add a
        ``"view"`` of your own (``{"firstVisibleIndex": 37}``) before saving it if you like:
        restores carry it through."""
        getattr(self, "_errors").raise_pending()
        out = ctypes.c_void_p()
        check(_native.lib().cinematic_store_snapshot(self._handle, ctypes.byref(out)), "cinematic_store_snapshot")
        return cast(wire.StoreSnapshot, json.loads(take_string(out)))
