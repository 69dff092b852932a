"""The desktop app follows the app store's rules (issues 25, 31): Delete removes the selected
favorite on Favorites (on Search it edits the query), and every removal can be undone one by
one, newest first (the app's undo stack), the status bar showing the app's notice and its
Undo; a failed search or section says which key tries again, and that key does. Real widgets and key presses
(pytest-qt, offscreen); bounded waits."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt

from conftest import REPO, WindowFactory
from drive import press
from screenshots import DUNE, STAR_WARS, add_favorites
from seen import says, selected, titles

WAIT = 10_000  # ms


def favorites_window(qtbot: Any, make_window: WindowFactory, tmp_path: Path) -> Any:
    path = tmp_path / "favorites.sqlite"
    add_favorites(path, [DUNE, STAR_WARS])
    window = make_window(favorites=str(path))
    press(window, "Shift+Tab")                               # the tab before Search: Favorites
    qtbot.waitUntil(lambda: sorted(titles(window)) == ["Dune", "Star Wars"], timeout=WAIT)
    return window


def test_delete_removes_a_favorite_only_on_favorites(qtbot: Any, make_window: WindowFactory, tmp_path: Path) -> None:
    window = favorites_window(qtbot, make_window, tmp_path)
    press(window, "Tab")                                     # Search: Delete edits the query there
    qtbot.keyClicks(window.search_field, "dune")
    press(window, "Left", "Delete")
    assert window.search_field.text() == "dun"
    press(window, "Shift+Tab")
    qtbot.waitUntil(lambda: sorted(titles(window)) == ["Dune", "Star Wars"] and "2 favorites" in says(window),
                    timeout=WAIT)
    assert not window.list_screen.undo.isEnabled() and "Removed" not in window.notice
    first = selected(window)
    press(window, "Delete")                                  # no question: the notice offers undo
    qtbot.waitUntil(lambda: first not in titles(window) and "1 favorite" in says(window), timeout=WAIT)
    assert window.notice == f"Removed {first}" and window.notice_undo.isVisible()


def test_every_removal_is_undone_one_by_one_newest_first(qtbot: Any, make_window: WindowFactory,
                                                        tmp_path: Path) -> None:
    window = favorites_window(qtbot, make_window, tmp_path)
    removed = []
    for count in (1, 0):   # two removals in a row: each one the selected film
        removed.append(selected(window))
        press(window, "Delete")
        qtbot.waitUntil(lambda: len(titles(window)) == count, timeout=WAIT)
    assert window.notice == f"Removed {removed[1]} (2 to undo)" and "No favorites yet" in says(window)
    assert window.list_screen.undo.isEnabled()
    # Two undos at once (the second before the first is stored): both come back at once.
    press(window, "Ctrl+Z")
    assert titles(window) == [removed[1]]                    # optimistic: back before it is stored
    qtbot.mouseClick(window.list_screen.undo, Qt.MouseButton.LeftButton)
    assert sorted(titles(window)) == ["Dune", "Star Wars"] and not window.list_screen.undo.isEnabled()
    qtbot.waitUntil(lambda: window.notice == f"Restored {removed[0]}", timeout=WAIT)
    press(window, "Ctrl+Z")
    assert window.notice == "Nothing to undo"
    press(window, "Escape")                                  # the notice goes when dismissed
    assert window.notice == "" and not window.notice_dismiss.isVisible()
    press(window, "Delete")
    qtbot.waitUntil(lambda: window.notice.startswith("Removed"), timeout=WAIT)
    qtbot.mouseClick(window.notice_dismiss, Qt.MouseButton.LeftButton)   # or its button
    assert window.notice == ""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_a_network_error_says_which_key_tries_again_and_that_key_does(qtbot: Any,
                                                                     make_window: WindowFactory) -> None:
    port = free_port()   # nothing listens there yet
    window = make_window(live_url=f"http://127.0.0.1:{port}")
    qtbot.keyClicks(window.search_field, "dune")
    press(window, "Enter")
    qtbot.waitUntil(lambda: "Search failed: network" in says(window), timeout=WAIT)
    assert "F5 tries again." in says(window) and window.list_screen.state_view.panel.retry.isVisible()
    press(window, "Tab")
    qtbot.waitUntil(lambda: "Could not load Popular: network" in says(window), timeout=WAIT)
    assert "F5 tries again." in says(window)
    server = subprocess.Popen([sys.executable, str(REPO / "examples" / "catalog-server" / "server.py"),
                               "--port", str(port), "--quiet"], stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None and server.stdout.readline().startswith("listening on")
        press(window, "F5")                                  # retried: what failed on the screen shown
        qtbot.waitUntil(lambda: "Discover: Popular" in says(window) and len(titles(window)) > 5, timeout=WAIT)
        assert "Could not load" not in says(window)
        press(window, "Shift+Tab", "F5")
        qtbot.waitUntil(lambda: titles(window)[:1] == ["Dune"], timeout=WAIT)
        assert "Search failed" not in says(window)
    finally:
        server.terminate()
        server.wait(timeout=10)
