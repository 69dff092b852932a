"""What a script that never saw the other tests will do: paste a huge query, switch tabs as
fast as keys repeat, close the window while answers are on their way, start against a live
server that is down, point --record or --favorites at a place that cannot be written. The app
must neither crash nor print a traceback, and must say what happened."""

from __future__ import annotations

import os
import select
import socket
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any, Iterator, List

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from conftest import REPO, WindowFactory
from drive import press
from seen import heart, says, titles

WAIT = 10_000
#: The library's bound on a query (include/cinematic.h): the app cuts longer ones to it.
MAX_QUERY_CHARS, MAX_QUERY_BYTES = 256, 1024


def paste(qtbot: Any, field: Any, text: str) -> None:
    """Ctrl+V with ``text`` on the clipboard, as a person pastes."""
    QApplication.clipboard().setText(text)
    qtbot.keyClick(field, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)


def test_a_huge_pasted_query_is_cut_to_the_librarys_bound_and_searched(qtbot: Any, make_window: WindowFactory) -> None:
    """The field takes any text; the app store cuts it and says so, and the field shows what
    the app searches (no fitting in the host)."""
    window = make_window()
    field = window.search_field
    paste(qtbot, field, "dune " * 2000)                       # 10,000 characters
    assert field.text() == ("dune " * 2000)[:MAX_QUERY_CHARS]
    assert window.notice == "Your search was shortened to 256 characters"
    assert window.search_state is not None and window.search_state["query"] == field.text()
    press(window, "Enter")                                    # searches now: no error, an answer
    qtbot.waitUntil(lambda: window.search_state is not None
                    and window.search_state["results"]["phase"] in ("loaded", "failed"), timeout=WAIT)
    assert not window.notice.startswith("error")
    # Typing on at the bound: the field stays within it.
    qtbot.keyClicks(field, "xyz")
    assert len(field.text()) <= MAX_QUERY_CHARS and window.search_state is not None
    assert window.search_state["query"] == field.text()


def test_a_pasted_query_over_1024_bytes_is_cut_on_a_character_boundary(qtbot: Any, make_window: WindowFactory) -> None:
    window = make_window()
    field = window.search_field
    paste(qtbot, field, "\U0001F3AC" * 300)                  # 1,200 bytes of 4-byte characters
    assert field.text() == "\U0001F3AC" * 256 and len(field.text().encode("utf-8")) == MAX_QUERY_BYTES
    assert "shortened" in window.notice
    assert window.search_state is not None and window.search_state["query"] == field.text()


def test_switching_tabs_as_fast_as_keys_repeat(qtbot: Any, make_window: WindowFactory) -> None:
    window = make_window()
    qtbot.keyClicks(window.search_field, "alien")
    qtbot.waitUntil(lambda: len(titles(window)) > 0, timeout=WAIT)
    tabs = ["Search", "Discover", "Favorites"]
    shown = 0
    for i in range(90):
        if i % 10 == 0 and shown == 0:                        # now and then from a Detail page
            press(window, "Enter")
            assert heart(window) != "" and titles(window) == []
        press(window, "Tab")
        shown = (shown + 1) % 3
        assert window.tab_bar.tabText(window.tab_bar.currentIndex()) == tabs[shown] and heart(window) == ""
    # One store (the app's); every Detail opened on the way was closed; Discover loaded once.
    assert [store.feature for store in window.runtime.stores] == ["app"]
    assert window.state is not None and window.state["details"] == [] and window.state["tab"] == "search"
    press(window, "Tab")
    qtbot.waitUntil(lambda: "Discover: Popular" in says(window) and len(titles(window)) > 5, timeout=WAIT)
    pages = [(entry["intent"]["intent"].get("section"), entry["intent"]["intent"].get("page"))
             for entry in window.app.history if entry["intent"]["type"] == "discoverResult"]
    assert pages and len(pages) == len(set(pages)), pages     # no section page loaded twice


def test_closing_the_window_while_answers_are_on_their_way(qtbot: Any, make_window: WindowFactory) -> None:
    """Queued states are never dispatched into a closed window (its notifier is off), and the
    runtime then closes without waiting for them."""
    window = make_window()
    qtbot.keyClicks(window.search_field, "the lord of the rings")   # searched after the debounce
    press(window, "Tab")                                             # Discover loading
    window.close()
    dispatches = window.core.dispatches
    fd = window.runtime.fileno()
    qtbot.waitUntil(lambda: bool(select.select([fd], [], [], 0)[0]), timeout=WAIT)   # states are waiting
    QApplication.processEvents()
    assert window.core.dispatches == dispatches and not window.core.notifier.isEnabled()
    window.runtime.close()
    assert window.runtime.closed


class SilentServer:
    """Accepts connections and never answers: every request stays in flight."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}"
        self.accepted: List[socket.socket] = []
        self.thread = threading.Thread(target=self._accept, daemon=True)
        self.thread.start()

    def _accept(self) -> None:
        while True:
            try:
                self.accepted.append(self.sock.accept()[0])
            except OSError:
                return

    def close(self) -> None:
        self.sock.close()
        for connection in self.accepted:
            connection.close()


@pytest.fixture
def silent_server() -> Iterator[SilentServer]:
    server = SilentServer()
    yield server
    server.close()


def test_closing_the_window_while_live_requests_hang(qtbot: Any, make_window: WindowFactory,
                                                     silent_server: SilentServer) -> None:
    """The app's own way out (window closed, then the provider, then the runtime: app.run)
    with a search in flight to a server that never answers: nothing waits for its timeout."""
    window = make_window(live_url=silent_server.url)
    provider = window.live_provider
    qtbot.keyClicks(window.search_field, "dune")
    press(window, "Enter")
    qtbot.waitUntil(lambda: len(silent_server.accepted) > 0, timeout=WAIT)   # the request is in flight
    assert window.search_state is not None and window.search_state["results"]["phase"] == "loading"
    window.close()
    closer = threading.Thread(target=lambda: (provider.close(), window.runtime.close()))
    closer.start()
    closer.join(timeout=4)        # the provider's timeout is 5 s: closing must not wait for it
    assert not closer.is_alive() and window.runtime.closed


def test_a_live_server_down_at_start_says_offline(qtbot: Any, make_window: WindowFactory) -> None:
    with socket.socket() as unused:
        unused.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{unused.getsockname()[1]}"
    window = make_window(live_url=url)
    qtbot.keyClicks(window.search_field, "dune")
    press(window, "Enter")
    qtbot.waitUntil(lambda: "Search failed: network" in says(window), timeout=WAIT)
    assert "Check that the movie server is running and reachable; F5 tries again." in says(window)
    press(window, "Tab")
    qtbot.waitUntil(lambda: "Could not load Popular: network" in says(window), timeout=WAIT)


def run_app(tmp_path: Path, *options: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", XDG_CONFIG_HOME=str(tmp_path / "config"),
               XDG_DATA_HOME=str(tmp_path / "data"), XDG_CACHE_HOME=str(tmp_path / "cache"),
               XDG_STATE_HOME=str(tmp_path / "state"),
               PYTHONPATH=os.pathsep.join(str(REPO / p) for p in ("bindings/python", "examples/python",
                                                                   "examples/desktop")))
    return subprocess.run([sys.executable, "-m", "cinematic_desktop", *options], env=env, capture_output=True,
                          text=True, timeout=60)


@pytest.mark.parametrize("option, value, says", [
    ("--record", "{missing}/session.jsonl", "the directory {missing} does not exist"),
    ("--record", "{tmp}", "is not a regular file"),
    ("--favorites", "/proc/cinematic/favorites.sqlite", "the directory /proc/cinematic does not exist"),
    ("--favorites", "{missing}/dir/f.sqlite", "the directory {missing}/dir does not exist"),
    ("--favorites", "{tmp}", "is not a regular file (a directory)"),
    ("--catalog", "{missing}/catalog.idx", "the directory {missing} does not exist"),
    ("--catalog", "{tmp}/catalog.idx", "no catalog index"),
    ("--state-file", "/proc/cinematic/desktop.json", "the directory /proc/cinematic does not exist"),
    ("--state-file", "{missing}/dir/desktop.json", "the directory {missing}/dir does not exist"),
    ("--record", "{missing}/dir/session.jsonl", "the directory {missing}/dir does not exist"),
])
def test_a_file_that_cannot_be_used_is_one_line_and_status_1(tmp_path: Path, option: str, value: str,
                                                               says: str) -> None:
    done = run_app(tmp_path, "--favorites", str(tmp_path / "f.sqlite"),
                   option, value.format(missing=tmp_path / "missing", tmp=tmp_path))
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 1 and len(lines) == 1, done.stderr
    assert lines[0].startswith("cinematic-desktop: cannot start: ") and \
        says.format(missing=tmp_path / "missing") in lines[0], lines[0]
    assert not (tmp_path / "missing").exists()     # a folder the person named is never created


def test_a_live_url_that_is_not_http_is_one_line_and_status_2(tmp_path: Path) -> None:
    done = run_app(tmp_path, "--favorites", str(tmp_path / "f.sqlite"), "--live", "ftp://example.org")
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2 and len(lines) == 1 and lines[0].startswith("cinematic-desktop: --live: "), done.stderr
