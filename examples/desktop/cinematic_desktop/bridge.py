"""The core on Qt's event loop, and stop signals as a clean quit.

The runtime uses queued delivery: a ``QSocketNotifier`` on ``runtime.fileno()`` calls
``runtime.dispatch()`` when states wait, so every state callback (and every widget it
touches) runs on the GUI thread. No polling timer, no other thread touches a widget, and no
call the GUI thread makes into the core waits on the catalog (``send`` returns in
microseconds; effects run on the library's threads).
"""

from __future__ import annotations

import signal
import socket
from typing import Callable, Optional

from PySide6.QtCore import QSocketNotifier
from PySide6.QtWidgets import QWidget

import cinematic


class CoreNotifier:
    """The runtime on Qt's loop: a read notifier on its fd runs ``dispatch`` (GUI thread).
    ``dispatches`` counts the calls; ``dispatching`` is True while one runs (the tests check
    that every state arrives inside one)."""

    def __init__(self, runtime: cinematic.Runtime, on_error: Callable[[BaseException], None]) -> None:
        self.runtime = runtime
        self.on_error = on_error
        self.dispatches = 0
        self.dispatching = False
        self.closed = False
        self.notifier = QSocketNotifier(runtime.fileno(), QSocketNotifier.Type.Read)
        self.notifier.activated.connect(self.dispatch)

    def dispatch(self, *_: object) -> None:
        """Delivers the states waiting (never blocks); the window also calls it right after
        each intent it sends, so what the person did is drawn at once."""
        if self.runtime.closed:
            self.notifier.setEnabled(False)
            return
        if self.dispatching or self.closed:   # (a state's drawing never dispatches again)
            return
        self.dispatches += 1
        self.dispatching = True
        try:
            self.runtime.dispatch()
        except Exception as error:  # a callback raised: report it, keep the app running
            self.on_error(error)
        finally:
            self.dispatching = False

    def close(self) -> None:
        self.closed = True
        self.notifier.setEnabled(False)


class StopSignals:
    """SIGTERM, SIGINT and SIGHUP close the window like Ctrl+Q (the runtime then closes and a
    recording is complete): the signal's byte arrives on a socket a QSocketNotifier watches
    (signal.set_wakeup_fd), so Python sees it while Qt's loop runs, without a timer."""

    SIGNALS = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)

    def __init__(self) -> None:
        self.window: Optional[QWidget] = None
        self.signal: Optional[int] = None
        self.reader, self.writer = socket.socketpair()
        self.reader.setblocking(False)
        self.writer.setblocking(False)
        self.notifier = QSocketNotifier(self.reader.fileno(), QSocketNotifier.Type.Read)
        self.notifier.activated.connect(self._woken)

    def __enter__(self) -> "StopSignals":
        self.previous_fd = signal.set_wakeup_fd(self.writer.fileno())
        self.previous = {number: signal.signal(number, self._handler) for number in self.SIGNALS}
        return self

    def __exit__(self, *exc_info: object) -> None:
        for number, handler in self.previous.items():
            signal.signal(number, handler if handler is not None else signal.SIG_DFL)
        signal.set_wakeup_fd(self.previous_fd)
        self.notifier.setEnabled(False)
        self.reader.close()
        self.writer.close()

    def _handler(self, number: int, frame: object) -> None:
        self.signal = number

    def _woken(self, *_: object) -> None:
        try:
            while self.reader.recv(64):
                pass
        except BlockingIOError:
            pass
        if self.signal is not None and self.window is not None:
            self.window.close()
