"""The desktop movie app (PySide6) over libcinematic: Search, Discover, Favorites, Detail.

The entry point: options, the checks that fail in one line (no display, a file that cannot be
written), the runtime (queued delivery, on Qt's loop: bridge.py) and the window (window.py).

Options as in the terminal app (examples/python): ``--favorites PATH``, ``--catalog PATH``,
``--record FILE``, ``--live URL``, ``--state-file PATH`` (where the app store resumes from and
saves to, by itself: default $XDG_STATE_HOME/cinematic/desktop.json) and ``--fresh`` (start
anew; the file is replaced at the next save). Exit status: 0 when the window was closed, 1 when the core
cannot start (an unwritable ``--record`` or ``--favorites``, a bad ``--catalog``), 2 for a
usage error or no display, 128+N after signal N (SIGTERM, SIGINT, SIGHUP close the window
first, so a recording is complete). Opening, closing and what is said on stderr once the window
is gone (why the app cannot start; a state-file notice still shown) are
``cinematic.hosting.run_app``'s, as for the terminal app.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import sys
from pathlib import Path
from typing import List, Optional, cast

from PySide6.QtCore import QSocketNotifier
from PySide6.QtWidgets import QApplication

from cinematic.hosting import OpenedApp, parse_app_args, run_app
from cinematic.signals import StopSignals
from cinematic.timetravel import HISTORY

from .window import APPLICATION, ORGANIZATION, MainWindow

__all__ = ["MainWindow", "main", "display_problem"]

PROG = "cinematic-desktop"
NO_DISPLAY = "no display (set DISPLAY or WAYLAND_DISPLAY, or QT_QPA_PLATFORM=offscreen)"


def display_problem() -> Optional[str]:
    """Why Qt would find no screen, in a few words, or None. An X display that is named but not
    there is caught here too: Qt would print a page about plugins and abort."""
    platform = os.environ.get("QT_QPA_PLATFORM", "")
    if platform and not platform.startswith("xcb"):
        return None                       # offscreen, wayland, vnc...: Qt's own business
    if not platform and wayland_socket_exists():
        return None                       # Qt tries Wayland first
    display = os.environ.get("DISPLAY", "")
    if not display:
        return NO_DISPLAY
    if not x_display_answers(display):
        return f"cannot connect to the X display {display} (is the X server running?)"
    return None


def wayland_socket_exists() -> bool:
    """WAYLAND_DISPLAY names a socket that is there (else Qt falls back to X)."""
    name = os.environ.get("WAYLAND_DISPLAY", "")
    if not name:
        return False
    path = Path(name) if os.path.isabs(name) else Path(os.environ.get("XDG_RUNTIME_DIR", "/nonexistent")) / name
    return path.exists()


def x_display_answers(display: str) -> bool:
    """xcb_connect to ``display`` (the library Qt's xcb platform uses); True if it answers,
    or if libxcb cannot be loaded (then Qt says what is missing)."""
    name = ctypes.util.find_library("xcb") or "libxcb.so.1"
    try:
        xcb = ctypes.CDLL(name)
    except OSError:
        return True
    xcb.xcb_connect.restype = ctypes.c_void_p
    xcb.xcb_connect.argtypes = [ctypes.c_char_p, ctypes.c_void_p]
    xcb.xcb_connection_has_error.argtypes = [ctypes.c_void_p]
    xcb.xcb_disconnect.argtypes = [ctypes.c_void_p]
    connection = xcb.xcb_connect(display.encode(), None)
    try:
        return connection is not None and xcb.xcb_connection_has_error(connection) == 0
    finally:
        if connection is not None:
            xcb.xcb_disconnect(connection)


def main(argv: Optional[List[str]] = None) -> int:
    args = parse_app_args(PROG, "A desktop movie app over libcinematic.", "desktop", argv)
    problem = display_problem()
    if problem is not None:
        print(f"{PROG}: {problem}", file=sys.stderr)
        return 2
    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setOrganizationName(ORGANIZATION)
    app.setApplicationName(APPLICATION)
    # SIGTERM, SIGINT and SIGHUP close the window like Ctrl+Q (the runtime then closes and a
    # recording is complete): each arrives on a socket Qt's loop watches.
    with StopSignals() as stop:         # before the runtime: a signal from then on quits cleanly
        watch = QSocketNotifier(stop.fileno(), QSocketNotifier.Type.Read)
        return run_app(PROG, args, "desktop", {"delivery": "queued", "history": HISTORY},
                       lambda opened: run_window(cast(QApplication, app), opened, stop, watch))


def run_window(app: QApplication, opened: OpenedApp, stop: StopSignals, watch: QSocketNotifier) -> int:
    """The window on ``opened``'s app store until it is closed (or a stop signal closes it);
    the exit status. The caller closes the runtime on every way out (a recording is complete)."""
    window = MainWindow(opened.runtime, app=opened.app)
    watch.activated.connect(lambda *_: stop.drain() and stop.stopped_by is not None and window.close())
    window.show()
    window.raise_()
    window.activateWindow()     # with no window manager (Xvfb, kiosk), take the keyboard
    stop.drain()                # a signal that came before the loop
    status = app.exec() if stop.stopped_by is None else 0
    watch.setEnabled(False)
    return stop.exit_status(status)
