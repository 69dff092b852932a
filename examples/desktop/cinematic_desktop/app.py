"""The desktop movie app (PySide6) over libcinematic: Search, Discover, Favorites, Detail.

The entry point: options, the checks that fail in one line (no display, a file that cannot be
written), the runtime (queued delivery, on Qt's loop: bridge.py) and the window (window.py).

Options as in the terminal app (examples/python): ``--favorites PATH``, ``--catalog PATH``,
``--record FILE``, ``--live URL``, ``--state-file PATH`` (where the app store resumes from and
saves to, by itself: default $XDG_STATE_HOME/cinematic/desktop.json) and ``--fresh`` (start
anew; the file is replaced at the next save). Exit status: 0 when the window was closed, 1 when the core
cannot start (an unwritable ``--record`` or ``--favorites``, a bad ``--catalog``), 2 for a
usage error or no display, 128+N after signal N (SIGTERM, SIGINT, SIGHUP close the window
first, so a recording is complete).
"""

from __future__ import annotations

import argparse
import ctypes
import ctypes.util
import os
import sys
from pathlib import Path
from typing import Any, Dict, List, Optional, cast

from PySide6.QtWidgets import QApplication

import cinematic

from .bridge import StopSignals
from .debug import HISTORY
from .movies import MovieList
from .window import APPLICATION, ORGANIZATION, MainWindow

__all__ = ["MainWindow", "MovieList", "main", "run", "display_problem"]

PROG = "cinematic-desktop"
NO_DISPLAY = "no display (set DISPLAY or WAYLAND_DISPLAY, or QT_QPA_PLATFORM=offscreen)"


def favorites_path() -> Path:
    """$XDG_DATA_HOME/cinematic/favorites.sqlite, else ~/.local/share/cinematic/."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "cinematic" / "favorites.sqlite"


def state_path() -> Path:
    """$XDG_STATE_HOME/cinematic/desktop.json, else ~/.local/state/cinematic/desktop.json."""
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "cinematic" / "desktop.json"


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
    parser = argparse.ArgumentParser(prog=PROG, description="A desktop movie app over libcinematic.")
    parser.add_argument("--favorites", help="favorites database (default: $XDG_DATA_HOME/cinematic/favorites.sqlite)")
    parser.add_argument("--catalog", help="a catalog index built by cinematic-index")
    parser.add_argument("--record", metavar="FILE", help="record the session to FILE (replay: python -m cinematic.replay FILE)")
    parser.add_argument("--live", metavar="URL", help="take the catalog from a movie API (examples/catalog-server)")
    parser.add_argument("--state-file", metavar="PATH",
                        help="where the app resumes from and saves to (default: $XDG_STATE_HOME/cinematic/desktop.json)")
    parser.add_argument("--fresh", action="store_true", help="start anew instead of where the state file left off")
    args = parser.parse_args(argv)
    problem = display_problem()
    if problem is not None:
        print(f"{PROG}: {problem}", file=sys.stderr)
        return 2
    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setOrganizationName(ORGANIZATION)
    app.setApplicationName(APPLICATION)
    with StopSignals() as stop:         # before the runtime: a signal from then on quits cleanly
        runtime = open_runtime(args)
        if runtime is None:
            return 1
        return run(args, runtime, cast(QApplication, app), stop)


def open_runtime(args: Any) -> Optional[cinematic.Runtime]:
    """The runtime the options ask for, or None after saying in one line why it cannot open."""
    path = Path(args.favorites) if args.favorites else favorites_path()
    config: Dict[str, Any] = {"delivery": "queued", "favorites": str(path), "history": HISTORY}
    if args.catalog:
        config["catalog"] = {"path": args.catalog}
    if args.record:
        config["record"] = args.record
    if args.live:
        from cinematic.http_provider import catalog_config
        # A host catalog that declares its source (the URL): the offline cache, on by default
        # (XDG_CACHE_HOME), only ever shows this server's saved answers.
        config["catalog"] = catalog_config(args.live)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        Path(args.state_file or state_path()).parent.mkdir(parents=True, exist_ok=True)
        return cinematic.Runtime(config)
    except OSError as error:
        print(f"{PROG}: cannot start: cannot create {error.filename or path.parent}: {error.strerror}", file=sys.stderr)
    except (cinematic.LibraryNotFoundError, cinematic.CinematicError) as error:
        print(f"{PROG}: cannot start: {error}", file=sys.stderr)
    return None


def run(args: Any, runtime: cinematic.Runtime, app: QApplication, stop: StopSignals) -> int:
    """The window until it closes; the runtime is closed on every way out (a recording is
    then complete)."""
    provider = None
    with runtime:
        if args.live:
            from cinematic.http_provider import HttpCatalogProvider
            try:
                provider = HttpCatalogProvider(runtime, args.live, timeout=5.0)
            except ValueError as error:      # not an http:// URL
                print(f"{PROG}: --live: {error}", file=sys.stderr)
                return 2
            runtime.set_provider(provider)
        try:
            try:
                window = MainWindow(runtime, args.live, state_file=str(args.state_file or state_path()),
                                    fresh=args.fresh)
            except cinematic.CinematicError as error:    # e.g. a --state-file the app cannot take
                print(f"{PROG}: cannot start: {error}", file=sys.stderr)
                return 1
            stop.window = window
            window.show()
            window.raise_()
            window.activateWindow()     # with no window manager (Xvfb, kiosk), take the keyboard
            status = app.exec() if stop.signal is None else 0
            if stop.signal is not None:
                status = 128 + stop.signal
        finally:
            if provider is not None:
                provider.close()
    return status
