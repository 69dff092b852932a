"""A store's effects in flight (:class:`StoreEffects`, mixed into :class:`~cinematic.Store`):
how many run, and waiting until none does."""

from __future__ import annotations

import ctypes
from typing import Optional

from . import _native
from ._core import CallbackErrors, check

__all__ = ["StoreEffects"]


def _seconds_to_ms(timeout: Optional[float]) -> int:
    if timeout is None:
        return -1
    if timeout < 0:
        return -1
    return min(int(round(timeout * 1000)), 2**63 - 1)


class StoreEffects:
    """``store.pending_effects`` and ``store.settle(timeout)`` (mixed into :class:`~cinematic.Store`)."""

    _handle: int
    _errors: CallbackErrors

    @property
    def pending_effects(self) -> int:
        """How many effects are in flight (0 when quiescent)."""
        self._errors.raise_pending()
        count = ctypes.c_int(-1)
        check(_native.lib().cinematic_store_pending_effects(self._handle, ctypes.byref(count)),
              "cinematic_store_pending_effects")
        return count.value
    def settle(self, timeout: Optional[float] = None) -> None:
        """Blocks until no effect is in flight (including effects started by effects' results).
        Raises :class:`~cinematic.SettleTimeoutError` if that takes longer than ``timeout``
        seconds (None: no limit). With immediate delivery it also waits until the resulting
        states were delivered to subscribers.

        With a manual clock a pending debounce waits for ``runtime.advance_clock``; with a host
        catalog a request waits for its answer (and with queued delivery, for a dispatch on
        another thread: on the dispatching thread, use :meth:`wait_for` instead). Stores that
        keep observing (favorites after ``task``, detail after ``task``) never settle.
        Must not be called from inside a callback (MisuseError).
        """
        self._errors.raise_pending()
        check(_native.lib().cinematic_store_settle(self._handle, _seconds_to_ms(timeout)), "cinematic_store_settle")
        self._errors.raise_pending()
