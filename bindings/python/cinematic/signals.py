"""Signals that end a host's loop the way its quit key does, seen on a file descriptor the
loop already waits on: no timer, no thread, no work in a signal handler.

Python's C-level handler writes each signal's number to a socket (``signal.set_wakeup_fd``);
the host's loop watches :meth:`StopSignals.fileno` next to its other descriptors (``select``,
a ``QSocketNotifier``) and calls :meth:`StopSignals.drain` when it is readable::

    with StopSignals((signal.SIGTERM, signal.SIGHUP), wake=(signal.SIGWINCH,)) as signals:
        while running:
            readable, _, _ = select.select([stdin, runtime.fileno(), signals.fileno()], [], [])
            if signals.fileno() in readable and signals.drain() and signals.stopped_by:
                running = False           # then close the runtime: a recording is complete
    return signals.exit_status(0)         # 128 + the signal's number after a stop signal

Leaving the ``with`` block puts the previous handlers and wake-up descriptor back.
"""

from __future__ import annotations

import signal
import socket
from typing import Any, Dict, Optional, Tuple

__all__ = ["StopSignals"]


class StopSignals:
    """``stops`` end the loop (``stopped_by`` is the first that arrived); ``wake`` signals only
    wake it (SIGWINCH: the terminal's size changed). Install in the main thread."""

    def __init__(self, stops: Tuple[int, ...] = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP),
                 wake: Tuple[int, ...] = ()) -> None:
        self.stops, self.wake = tuple(stops), tuple(wake)
        self.stopped_by: Optional[int] = None
        self._reader, self._writer = socket.socketpair()
        self._reader.setblocking(False)
        self._writer.setblocking(False)
        self._previous: Dict[int, Any] = {}
        self._previous_fd = -1

    def __enter__(self) -> "StopSignals":
        self._previous_fd = signal.set_wakeup_fd(self._writer.fileno())
        for number in (*self.stops, *self.wake):
            # The handler does nothing: the signal's number arrives on the socket.
            self._previous[number] = signal.signal(number, lambda signum, frame: None)
        return self

    def __exit__(self, *exc_info: object) -> None:
        for number, handler in self._previous.items():
            signal.signal(number, handler if handler is not None else signal.SIG_DFL)
        signal.set_wakeup_fd(self._previous_fd)
        self._reader.close()
        self._writer.close()

    def fileno(self) -> int:
        """The descriptor that turns readable when a signal arrived."""
        return self._reader.fileno()

    def drain(self) -> Tuple[int, ...]:
        """Reads what waits (never blocks): the numbers of the signals that arrived, in order.
        The first stop signal among them becomes ``stopped_by``."""
        arrived = b""
        try:
            while True:
                chunk = self._reader.recv(512)
                if not chunk:
                    break
                arrived += chunk
        except (BlockingIOError, OSError):
            pass
        numbers = tuple(arrived)
        if self.stopped_by is None:
            self.stopped_by = next((number for number in numbers if number in self.stops), None)
        return numbers

    def exit_status(self, status: int) -> int:
        """``status``, or 128 + the stop signal's number once one arrived (the shell's rule)."""
        return status if self.stopped_by is None else 128 + self.stopped_by
