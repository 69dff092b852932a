"""The debug history as :attr:`cinematic.Store.history` returns it: a list that may still be
called, as it was when ``history`` was a method (deprecated)."""

from __future__ import annotations

import warnings
from typing import List

from . import wire


class History(List["wire.HistoryEntry"]):
    """A store's debug history, oldest first (a plain list of ``wire.HistoryEntry``).

    ``store.history`` is a property, like ``store.state``. Calling it, ``store.history()``,
    still works: it returns the same list and warns (DeprecationWarning)."""

    __slots__ = ()

    def __call__(self) -> "History":
        warnings.warn("Store.history is a property now (like Store.state): write store.history, "
                      "not store.history()", DeprecationWarning, stacklevel=2)
        return self
