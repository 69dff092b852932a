"""A terminal movie app over libcinematic: Search, Discover, Favorites and a Detail view.

The runtime uses queued delivery: its file descriptor sits in the app's ``select`` loop next
to stdin (and a wake-up pipe for SIGWINCH, SIGTERM and SIGHUP), and ``runtime.dispatch()``
runs the state callbacks on this thread. No threads, no polling sleeps: the loop blocks until
a key, a state, a resize or a stop signal arrives. Every way out closes the runtime.

Keys are the app's one keymap (``cinematic.keymap``, declared with the app in the library,
the same in every UI; F1 lists those of the screen shown): each key name ("Down", "Enter",
"Ctrl+Z", "F") sends its app intent as it is (``moveBy``, ``activate``, ``undo``...) or opens
the terminal's own screens: F1 the help (any key closes it), F12 the debug panel (the app
store's last intents; [ ] step back / forward through its history: time travel; its keys are
the keymap's "debug" screen), Ctrl+Q quits (so does Ctrl-C, the terminal's interrupt). Text typed on the Search screen (and
Backspace, Ctrl-U) edits the query (``queryChanged``); the screen tells the app how many
list rows it shows (``resized``) at the start and on every resize.

It is a renderer of ONE store, the library's "app" (docs/wire.md, "app"): what the screen
shows is its state's ``view`` (the rows in view, the status line, the message instead of
rows, the Detail's facts, heart and histogram, every word of them); the tab, the lists and
the places in them, paging, sorting, the open Details, the undo stack, the notices, and
saving and resuming (``--state-file PATH``, default ``$XDG_STATE_HOME/cinematic/terminal.json``; the
library writes it after 1 s of quiet and on close, and reopens there; ``--fresh`` starts
clean) are that store's. The app draws the view and turns keys into the keymap's intents.

Options: ``--favorites PATH``, ``--catalog PATH``, ``--record FILE`` (records the session to
FILE, complete when the app exits; replay it with ``python -m cinematic.replay FILE``: the
replay opens the app from the snapshot it resumed from, never from the state file).
``--live URL`` takes the catalog from a movie API (``examples/catalog-server``) through
``cinematic.http_provider``. ``CINEMATIC_TUI_CLOCK=manual`` (for tests) stops time: no typing
debounce (Enter searches), no save after a quiet second (only at exit), notices stay.
"""

from __future__ import annotations

import curses
import locale
import os
import select
import signal
import sys
from typing import Any, Dict, List, Optional

import cinematic

from cinematic.hosting import OpenedApp, parse_app_args, run_app
from cinematic.signals import StopSignals
from cinematic.timetravel import HISTORY

from .common import Glyphs
from .debug import DebugPanel
from .keys import KeyHandling
from .screens import Screens

__all__ = ["App", "main"]

PROG = "cinematic-tui"


class App(KeyHandling, Screens):
    """The app: its model (:mod:`.model`), keys (:mod:`.keys`) and screens (:mod:`.screens`,
    :mod:`.painter`) on one curses screen."""

    def __init__(self, stdscr: "curses.window", app: cinematic.AppStore, glyphs: Glyphs) -> None:
        super().__init__(stdscr, app, glyphs)
        self.debug = DebugPanel(self)


#: Signals that end the app like Ctrl-Q does (the loop ends, the runtime closes, a recording
#: is complete, the library saves the state file); the exit status is 128 + the signal's number.
STOP_SIGNALS = (signal.SIGTERM, signal.SIGHUP)


class Terminal:
    """The select loop: stdin, the runtime's fd and the signals' (SIGWINCH resizes; the stop
    signals end the loop)."""

    def __init__(self, stdscr: "curses.window", app: App) -> None:
        self.screen = stdscr
        self.app = app

    def run(self) -> int:
        """Runs the loop until the app quits; returns the exit status (0, or 128 + a stop
        signal's number)."""
        with StopSignals(STOP_SIGNALS, wake=(signal.SIGWINCH,)) as signals:
            self.loop(signals)
        return signals.exit_status(0)

    def resize(self) -> None:
        try:
            size = os.get_terminal_size(sys.stdin.fileno())
        except OSError:
            return
        curses.resizeterm(size.lines, size.columns)
        self.app.dirty = True

    def loop(self, signals: StopSignals) -> None:
        app = self.app
        stdin = sys.stdin.fileno()
        runtime_fd = app.app.runtime.fileno()
        self.screen.nodelay(True)
        while app.running:
            if app.dirty:
                app.render()
            readable, _, _ = select.select([stdin, runtime_fd, signals.fileno()], [], [])
            if signals.fileno() in readable:
                signals.drain()
                if signals.stopped_by is not None:
                    return
                self.resize()
            if runtime_fd in readable:
                app.app.runtime.dispatch()
            if stdin in readable:
                self.read_keys()

    def read_keys(self) -> None:
        while self.app.running:
            try:
                key = self.screen.get_wch()
            except curses.error:
                return  # nothing more buffered
            # KEY_RESIZE comes from resizeterm (see resize): the screen already has its new
            # size, so it only asks for a redraw (which tells the app the rows it shows).
            try:
                self.app.handle_key(key)
            except cinematic.CinematicError as error:
                # Input the library refuses (a safety net): a line on screen, never a traceback.
                self.app.prompt = f"not done: {error}"
                self.app.dirty = True


def main_curses(stdscr: "curses.window", app: cinematic.AppStore, glyphs: Glyphs, status: List[int]) -> None:
    """Runs the app on ``stdscr``; appends the exit status to ``status`` (read even when
    restoring the terminal fails afterwards)."""
    curses.raw()           # Ctrl-Q, Ctrl-C, Ctrl-L and Ctrl-Z arrive as keys
    curses.noecho()
    stdscr.keypad(True)
    try:
        curses.curs_set(0)
    except curses.error:
        pass
    status.append(Terminal(stdscr, App(stdscr, app, glyphs)).run())


def run_in_curses(opened: OpenedApp, glyphs: Glyphs) -> int:
    """The app on the terminal until it quits; its exit status. The caller closes the runtime
    on every way out (the library then saves the state file and completes the recording)."""
    status: List[int] = []
    try:
        curses.wrapper(main_curses, opened.app, glyphs, status)
    except curses.error:
        if status != [128 + signal.SIGHUP]:
            raise
        # The terminal hung up: curses cannot restore it, and need not.
    return status[0]


def main(argv: Optional[List[str]] = None) -> int:
    args = parse_app_args(PROG, "A terminal movie app over libcinematic.", "terminal", argv)
    locale.setlocale(locale.LC_ALL, "")
    os.environ.setdefault("ESCDELAY", "25")
    # The C library's codeset, as curses sees it (Python's UTF-8 mode would say UTF-8 in the
    # C locale, where curses drops every non-ASCII character).
    utf8 = "utf" in (locale.nl_langinfo(locale.CODESET) or "").lower().replace("-", "")
    config: Dict[str, Any] = {"delivery": "queued", "history": HISTORY}
    if os.environ.get("CINEMATIC_TUI_CLOCK") == "manual":
        # For tests: time stands still (no typing debounce: Enter searches; no save after a
        # quiet second, only at exit; notices stay until dismissed).
        config["clock"] = "manual"
    if not sys.stdin.isatty() or not sys.stdout.isatty():
        print(f"{PROG}: needs a terminal", file=sys.stderr)
        return 2
    return run_app(PROG, args, "terminal", config, lambda opened: run_in_curses(opened, Glyphs(utf8)))
