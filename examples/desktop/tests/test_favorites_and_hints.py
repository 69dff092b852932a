"""The desktop app follows the app store's rules (issues 25, 31): in Favorites, Delete removes
only while the list has the focus, and every removal can be undone one by one, newest first
(the app's undo stack), the status bar showing the app's notice and its Undo; a failed search
or section says which key tries again, and that key does. Real widgets and key presses
(pytest-qt, offscreen); bounded waits."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt

from conftest import REPO, WindowFactory
from screenshots import DUNE, STAR_WARS, add_favorites

WAIT = 10_000  # ms


def favorites_window(qtbot: Any, make_window: WindowFactory, tmp_path: Path) -> Any:
    path = tmp_path / "favorites.sqlite"
    add_favorites(path, [DUNE, STAR_WARS])
    window = make_window(favorites=str(path))
    qtbot.keyClick(window, Qt.Key.Key_3, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: sorted(window.favorites_list.titles()) == ["Dune", "Star Wars"], timeout=WAIT)
    return window


def test_delete_removes_nothing_unless_the_list_has_the_focus(qtbot: Any, make_window: WindowFactory,
                                                              tmp_path: Path) -> None:
    window = favorites_window(qtbot, make_window, tmp_path)
    for widget in (window.remove_button,):   # (Undo is disabled: nothing to undo yet)
        widget.setFocus()
        qtbot.waitUntil(widget.hasFocus, timeout=WAIT)
        qtbot.keyClick(widget, Qt.Key.Key_Delete)
    window.search_field.setFocus()
    qtbot.keyClick(window.search_field, Qt.Key.Key_Delete)
    qtbot.wait(300)   # a removal would have reached the list by now (the runtime answers in ms)
    assert sorted(window.favorites_list.titles()) == ["Dune", "Star Wars"]
    assert not window.undo_button.isEnabled() and "Removed" not in window.notice
    # With the list focused, Delete removes the selected film.
    window.show_tab(2)
    window.favorites_list.setFocus()
    qtbot.waitUntil(window.favorites_list.hasFocus, timeout=WAIT)
    first = window.favorites_list.titles()[0]
    qtbot.keyClick(window.favorites_list, Qt.Key.Key_Delete)
    qtbot.waitUntil(lambda: first not in window.favorites_list.titles(), timeout=WAIT)
    assert window.notice == f"Removed {first}" and window.notice_undo.isVisible()


def test_every_removal_is_undone_one_by_one_newest_first(qtbot: Any, make_window: WindowFactory,
                                                        tmp_path: Path) -> None:
    window = favorites_window(qtbot, make_window, tmp_path)
    window.favorites_list.setFocus()
    qtbot.waitUntil(window.favorites_list.hasFocus, timeout=WAIT)
    removed = []
    for count in (1, 0):   # two removals in a row: each one the selected film
        window.favorites_list.select_first()
        removed.append(window.favorites_list.titles()[0])
        qtbot.keyClick(window.favorites_list, Qt.Key.Key_Delete)
        qtbot.waitUntil(lambda: len(window.favorites_list.titles()) == count, timeout=WAIT)
    assert window.notice == f"Removed {removed[1]} (2 to undo)"
    assert window.undo_button.isEnabled() and window.undo_button.text() == "Undo 2 (Ctrl+Z)"
    # Two undos at once (the second before the first is stored): both come back at once.
    qtbot.keyClick(window.favorites_list, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert window.favorites_list.titles() == [removed[1]]          # optimistic: back before it is stored
    qtbot.mouseClick(window.undo_button, Qt.MouseButton.LeftButton)
    assert sorted(window.favorites_list.titles()) == ["Dune", "Star Wars"] and not window.undo_button.isEnabled()
    qtbot.waitUntil(lambda: window.notice == f"Restored {removed[0]}", timeout=WAIT)
    window.favorites_list.setFocus()     # the Undo button, now disabled, gave the focus away
    qtbot.waitUntil(window.favorites_list.hasFocus, timeout=WAIT)
    qtbot.keyClick(window.favorites_list, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert window.notice == "Nothing to undo"
    qtbot.mouseClick(window.notice_dismiss, Qt.MouseButton.LeftButton)   # the notice goes when dismissed
    assert window.notice == "" and not window.notice_dismiss.isVisible()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_a_network_error_says_which_key_tries_again_and_that_key_does(qtbot: Any,
                                                                     make_window: WindowFactory) -> None:
    port = free_port()   # nothing listens there yet
    window = make_window(live_url=f"http://127.0.0.1:{port}")
    qtbot.keyClicks(window.search_field, "dune")
    qtbot.keyClick(window.search_field, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: "Search failed: network" in window.search_message.text(), timeout=WAIT)
    assert window.search_message.text().endswith("Enter or F5 tries again.")
    qtbot.keyClick(window, Qt.Key.Key_2, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: "could not load: network" in window.section_info.text(), timeout=WAIT)
    assert window.section_info.text().endswith("Press F5 to try again.")
    server = subprocess.Popen([sys.executable, str(REPO / "examples" / "catalog-server" / "server.py"),
                               "--port", str(port), "--quiet"], stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None and server.stdout.readline().startswith("listening on")
        target = window.sections
        target.setFocus()
        qtbot.keyClick(target, Qt.Key.Key_F5)       # retried: what failed on the screen shown
        qtbot.waitUntil(lambda: "try again" not in window.section_info.text()
                        and window.section_lists["popular"].topLevelItemCount() > 0, timeout=WAIT)
        qtbot.keyClick(window, Qt.Key.Key_1, Qt.KeyboardModifier.ControlModifier)
        window.search_field.setFocus()
        qtbot.keyClick(window.search_field, Qt.Key.Key_Return)
        qtbot.waitUntil(lambda: window.search_list.titles()[:1] == ["Dune"], timeout=WAIT)
        assert not window.search_message.isVisible()
    finally:
        server.terminate()
        server.wait(timeout=10)
