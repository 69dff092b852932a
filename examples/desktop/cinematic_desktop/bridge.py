"""The core on Qt's event loop.

The runtime uses queued delivery: a ``QSocketNotifier`` on ``runtime.fileno()`` calls
``runtime.dispatch()`` when states wait, so every state callback (and every widget it
touches) runs on the GUI thread. No polling timer, no other thread touches a widget, and no
call the GUI thread makes into the core waits on the catalog (``send`` returns in
microseconds; effects run on the library's threads).
"""

from __future__ import annotations

from typing import Callable

from PySide6.QtCore import QSocketNotifier

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

