"""The terminal app (examples/python) in a pseudo-terminal: 80x24, search "dune", open it,
favorite it, see it in the Favorites tab, survive resizing, quit; the keymap's keys (F1 help,
Delete removes, Ctrl+Z undoes, Esc back, Ctrl+Q quits) and letters typed into the query.

The app runs through examples/python/run.sh (in-tree bindings via PYTHONPATH). Its output
goes through a tiny terminal emulator (vt.py); every wait polls the screen with a deadline
(select on the pty, no sleeps)."""

from __future__ import annotations

import fcntl
import os
import pty
import re
import select
import signal
import struct
import sys
import tempfile
import termios
import time
from pathlib import Path
from typing import Callable, Dict, Optional, Sequence

import pytest

from conftest import REPO
from vt import Screen

RUN_SH = REPO / "examples" / "python" / "run.sh"
STAR = "★"
F1, DELETE, CTRL_Z = "\x1bOP", "\x1b[3~", "\x1a"   # xterm in keypad mode (curses turns it on)


class TerminalApp:
    def __init__(self, tmp_path: Path, rows: int = 24, cols: int = 80, lang: str = "C.UTF-8",
                 args: Sequence[str] = (), extra_env: Optional[Dict[str, str]] = None) -> None:
        self.screen = Screen(rows, cols)
        self.transcript = b""
        env = {k: v for k, v in os.environ.items() if not k.startswith(("LC_", "COLUMNS", "LINES"))}
        env.update({
            "TERM": "xterm-256color", "LANG": lang, "LC_ALL": lang,
            "XDG_DATA_HOME": str(tmp_path / "data"), "PYTHON": sys.executable,
            # Each run starts where no other run left off (resume tests pass --state-file).
            "XDG_STATE_HOME": tempfile.mkdtemp(prefix="state-", dir=tmp_path),
            "PYTHONFAULTHANDLER": "1",
        })
        env.update(extra_env or {})
        env.pop("CINEMATIC_LIBRARY", None)
        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # child: set the size on the pty, then become the app
            try:
                os.execve("/bin/sh", ["sh", "-c", f'stty rows {rows} cols {cols} && exec "$0" "$@"', str(RUN_SH),
                                      *args], env)
            finally:
                os._exit(127)
        self.status: Optional[int] = None

    def pump(self, timeout: float) -> bool:
        """Reads what the app wrote within ``timeout``; False once the app has exited."""
        readable, _, _ = select.select([self.fd], [], [], max(0.0, timeout))
        if not readable:
            return True
        try:
            data = os.read(self.fd, 65536)
        except OSError:  # EIO: the child closed the pty
            return False
        if not data:
            return False
        self.transcript += data
        self.screen.feed(data)
        return True

    def wait_for(self, predicate: Callable[[str], bool], what: str, timeout: float = 15.0) -> str:
        deadline = time.monotonic() + timeout
        while True:
            text = self.screen.text()
            if predicate(text):
                return text
            if "not available in this library build" in text:
                pytest.fail(f"waiting for {what}: the library lacks a feature; the screen shows:\n{text}")
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not self.pump(min(remaining, 0.5)):
                text = self.screen.text()
                if predicate(text):
                    return text
                pytest.fail(f"timed out waiting for {what}; the screen shows:\n{text}")

    def expect(self, check: Callable[[str], None], what: str, timeout: float = 15.0) -> str:
        """Waits until ``check(screen)`` stops raising AssertionError and returns that screen.

        curses draws a frame in several writes, so a screen that shows one part of a view may
        not show the rest yet: every assertion about a view belongs in its check, not after it."""
        failure: list = []

        def passes(text: str) -> bool:
            try:
                check(text)
            except AssertionError as error:
                failure[:] = [error]
                return False
            return True

        try:
            return self.wait_for(passes, what, timeout)
        except pytest.fail.Exception as timeout_error:
            raise AssertionError(f"{timeout_error}\nthe last failed check: {failure[0] if failure else ''}") from None

    def send(self, keys: str) -> None:
        os.write(self.fd, keys.encode("utf-8"))

    def resize(self, rows: int, cols: int) -> None:
        fcntl.ioctl(self.fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        self.screen.resize(rows, cols)

    def wait_exit(self, timeout: float = 10.0) -> int:
        """Reads the app's output to its end (the pty closes when the app exits: what it wrote
        last, after curses, is never left unread on a busy machine), then reaps it."""
        deadline = time.monotonic() + timeout
        while self.pump(max(0.0, min(0.2, deadline - time.monotonic()))):
            if time.monotonic() >= deadline:
                pytest.fail(f"the app did not exit; the screen shows:\n{self.screen.text()}")
        self.status = os.waitstatus_to_exitcode(os.waitpid(self.pid, 0)[1])
        return self.status

    def close(self) -> None:
        if self.status is None:
            try:
                os.kill(self.pid, signal.SIGKILL)
                os.waitpid(self.pid, 0)
            except (ProcessLookupError, ChildProcessError):
                pass
        os.close(self.fd)


def line_with(text: str, *parts: str) -> Optional[str]:
    for line in text.splitlines():
        if all(part in line for part in parts):
            return line
    return None


def words(text: str, left: int = 0) -> str:
    """The screen's words from column ``left`` on, on one line (a sentence wrapped over rows
    reads whole; Discover's message starts right of its sections: left=14)."""
    return " ".join(" ".join(line[left:] for line in text.splitlines()).split())


def bars_of(text: str) -> list:
    """The rating distribution's rows: "10★ ████ 14.5%" as (stars, bar, share) matches."""
    return [m for m in (re.match(rf"^\s*(\d+){STAR}\s+(\S*)\s+([\d.]+)%$", line)
                        for line in text.splitlines()) if m]


@pytest.fixture
def app(tmp_path):
    terminal = TerminalApp(tmp_path)
    yield terminal
    terminal.close()


def footer(app: TerminalApp) -> str:
    return app.screen.lines()[-1]


def test_search_open_favorite_and_list(app, tmp_path):
    # The keys of the terminal's own screens are on the footer (the last row), from the keymap.
    app.wait_for(lambda s: "Search:" in s and "F1 This help" in footer(app) and "Ctrl+Q Quit" in footer(app)
                 and app.screen.lines()[0].split() == ["Cinematic", "Search", "Discover", "Favorites"], "the Search tab")

    app.send("dune")
    app.wait_for(lambda s: line_with(s, "Dune", "1984") is not None and "4 movies" in app.screen.lines()[2],
                 "Dune (1984) in the results, and how many")
    # "Searching for “du…”…" was shown while pending (curses wrote only what changed from "Search").
    assert "ing for “du" in app.transcript.decode("utf-8", "replace")
    first_result = app.screen.lines()[4]
    assert first_result.startswith("▶Dune ") and "1984" in first_result and "6.3★" in first_result

    app.send("\r")  # open the first result
    def dune_detail(detail: str) -> None:
        assert app.screen.lines()[2].startswith(" Dune (1984)") and "Not in your favorites" in app.screen.lines()[2]
        assert line_with(detail, "Runtime", "190 min")
        assert line_with(detail, "Genres", "Action")
        assert line_with(detail, "Budget", "$45,000,000")
        assert line_with(detail, "MPAA")
        assert line_with(detail, "Rating", "6.3 from 16,903 votes")
        bars = bars_of(detail)
        assert sorted(int(m.group(1)) for m in bars) == list(range(1, 11)), detail  # one bar per star
        assert all(m.group(2) for m in bars)  # Dune has votes at every rating: every bar shows
    app.expect(dune_detail, "the Detail view of Dune with its chart")

    app.send("f")
    app.wait_for(lambda s: f"{STAR} In your favorites" in app.screen.lines()[2], "Dune marked as a favorite")

    app.send("\x1b")  # Esc: back to the list
    app.wait_for(lambda s: "Search: dune_" in s and "Budget" not in s, "the Search tab again")
    app.send("\t\t")  # Search -> Discover -> Favorites
    app.wait_for(lambda s: app.screen.lines()[2].startswith(" Favorites") and "1 favorite" in app.screen.lines()[2]
                 and app.screen.lines()[4].startswith("▶Dune "), "Dune in the Favorites tab")

    # Resizing: larger, too small (a clear message), back to 80x24.
    app.resize(30, 100)
    app.wait_for(lambda s: line_with(s, "Dune", "1984") is not None and len(app.screen.lines()[1]) == 100
                 and "F1 This help" in app.screen.lines()[29], "a redraw at 100x30")
    app.resize(12, 50)
    app.wait_for(lambda s: "too small" in s, "the too-small message")
    app.resize(24, 80)
    app.wait_for(lambda s: "1 favorite" in s and line_with(s, "Dune", "1984") is not None,
                 "the Favorites tab at 80x24")

    app.send("\x11")  # Ctrl-Q
    assert app.wait_exit() == 0
    assert (tmp_path / "data" / "cinematic" / "favorites.sqlite").exists()


def test_letters_are_the_query_and_only_ctrl_q_quits(app):
    app.wait_for(lambda s: "Search:" in s, "the Search tab")
    app.send("q")  # a letter of the query in the Search tab, not quit
    app.wait_for(lambda s: "Search: q_" in s, "q typed into the query")
    app.send("\x7f")
    app.wait_for(lambda s: "Search: _" in s, "the query erased")
    app.send("\x1b")  # Esc does nothing on a list (the keymap binds it on a Detail only)
    app.send("q")
    app.wait_for(lambda s: "Search: q_" in s, "q typed after Esc: the app still runs")
    app.send("\x11")
    assert app.wait_exit() == 0


def test_enter_searches_the_typed_query_before_opening_anything(app):
    """Results for "star" are on screen while "stargate" is typed: Enter searches "stargate"
    instead of opening a film of the older results; the next Enter opens Stargate."""
    app.wait_for(lambda s: "Search:" in s, "the Search tab")
    app.send("star")
    app.wait_for(lambda s: line_with(s, "Star Wars", "1977") is not None, "results for star")
    app.send("gate\r")
    # "Stargate" is among the results for "star" too: wait for the results of "stargate".
    results = app.wait_for(lambda s: "Stargate" in app.screen.lines()[4] and "1 movie" in app.screen.lines()[2],
                           "results for stargate")
    assert "Budget" not in results  # nothing was opened
    app.send("\r")
    app.wait_for(lambda s: "Budget" in s and app.screen.lines()[2].startswith(" Stargate (1994)"),
                 "the Detail view of Stargate")


def test_help_detail_back_and_undoing_a_removal(app):
    app.wait_for(lambda s: "Search:" in s and "F1 This help" in footer(app), "the footer names the help key")
    app.send(F1)
    def help_screen(text: str) -> None:   # the keymap's keys of the Search screen (not Delete: Favorites')
        assert "Keys: Search" in text and line_with(text, "Down", "Next row") and line_with(text, "Delete") is None
        assert line_with(text, "Ctrl+Z", "Undo the last removal") and line_with(text, "Ctrl+Q", "Quit")
    app.expect(help_screen, "the help screen")
    app.send(" ")
    app.wait_for(lambda s: "Keys:" not in s and "Search: _" in s, "the help closed, nothing typed")
    app.send("godfather")
    app.wait_for(lambda s: line_with(s, "The Godfather", "1972") is not None, "results")
    app.send("\r")
    app.wait_for(lambda s: "Budget" in s and "Not in your favorites" in s, "the Detail view")
    app.send("f")
    app.wait_for(lambda s: f"{STAR} In your favorites" in s, "a favorite")
    app.send("\x1b")  # back
    app.wait_for(lambda s: "Search: godfather_" in s and "Budget" not in s, "back in Search")
    app.send("\t\t")
    app.wait_for(lambda s: "1 favorite" in app.screen.lines()[2] and line_with(s, "The Godfather") is not None,
                 "Favorites")
    app.send(DELETE)  # no question: undo puts it back
    app.wait_for(lambda s: "No favorites yet" in s and "Removed The Godfather" in app.screen.lines()[-2],
                 "removed at once, with the app's notice")
    app.send(CTRL_Z)
    app.wait_for(lambda s: "1 favorite" in app.screen.lines()[2] and line_with(s, "The Godfather") is not None
                 and "Restored The Godfather" in app.screen.lines()[-2], "restored")


def test_plain_ascii_terminal_and_a_long_query(tmp_path):
    """With LANG=C the Detail chart still reads (ASCII bars, an ASCII heart), and a query
    longer than the screen stays on its line."""
    app = TerminalApp(tmp_path, lang="C")
    try:
        app.wait_for(lambda s: "Search:" in s, "the Search tab")
        app.send("the godfather part")
        app.wait_for(lambda s: line_with(s, "The Godfather: Part II", "1974") is not None, "results")
        app.send("\r")
        def ascii_detail(detail: str) -> None:
            assert "Budget" in detail and detail.count("%") >= 10
            assert "★" not in detail and "█" not in detail and "o Not in your favorites" in detail
            assert line_with(detail, "MPAA")
            assert re.search(r"^\s*10\*\s+#+", detail, re.M), detail
            assert "4.5% means 0-10%" in detail  # the shares are explained
        app.expect(ascii_detail, "the Detail view in ASCII")
        app.send("\x1b")
        app.wait_for(lambda s: "Budget" not in s, "back")
        app.send("x" * 120)
        def long_query(screen: str) -> None:
            query_line = line_with(screen, "Search:")
            assert "x" * 30 in screen and query_line is not None and len(query_line) <= 80 and "..." in query_line
        app.expect(long_query, "the long query")
        app.send("\x11")
        assert app.wait_exit() == 0
    finally:
        app.close()
