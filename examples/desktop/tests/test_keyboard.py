"""Keyboard first, through the app's one keymap (cinematic.keymap): every key sends its
binding's action on the screens it names, the menu bar lists every binding with its keys, F1
shows the keys of the screen shown, the debug panel's keys are the keymap's "debug" screen,
Down past the last row moves on to the first film of the next page once it arrives, a key
acts on the newest state, a column's header and F2 sort (the rows come sorted), and text
typed anywhere on Search goes to the field. Real widgets and key presses, offscreen; waits
are bounded."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Dict, List, Optional

from PySide6.QtCore import QPoint, QSettings, Qt
from PySide6.QtGui import QColor

import cinematic
from cinematic import keymap
from cinematic_desktop.window import MainWindow
from conftest import WindowFactory
from drive import press
from screenshots import DUNE, add_favorites
from seen import says, selected, titles

WAIT = 10_000
#: Intents the app store makes itself (effect results), and the rows the window tells it.
NOT_KEYS = {"searchResult", "discoverResult", "favoritesResult", "detailResult", "undoSaved", "undoFailed",
            "noticeExpired", "restored", "stateFileProblem", "resized"}


def sent(window: MainWindow) -> List[Dict[str, Any]]:
    """The intents the window sent for what the person did, oldest first."""
    return [entry["intent"] for entry in window.app.history if entry["intent"]["type"] not in NOT_KEYS]


def test_every_key_sends_its_bindings_action_on_the_screens_it_names(qtbot: Any, make_window: WindowFactory,
                                                                     tmp_path: Path) -> None:
    add_favorites(tmp_path / "favorites.sqlite", [DUNE])
    window = make_window(favorites=str(tmp_path / "favorites.sqlite"))
    qtbot.keyClicks(window.search_field, "dune")
    qtbot.waitUntil(lambda: titles(window)[:1] == ["Dune"], timeout=WAIT)
    checked = 0
    for binding in keymap.KEYMAP:
        if binding.action is None:
            continue
        for screen in binding.screens:
            window.send({"type": "tabSelected", "tab": "search" if screen == "detail" else screen})
            if screen == "detail":
                window.send({"type": "opened", "movieId": DUNE})
            assert window.view is not None and window.view["screen"] == screen
            press(window, binding.keys[0])
            assert sent(window)[-1] == binding.action, (binding.keys, screen)
            checked += 1
    assert checked > 40


def test_the_menu_bar_lists_every_binding_with_its_keys(qtbot: Any, make_window: WindowFactory) -> None:
    window = make_window()
    menus = {menu.text(): [action.text() for action in menu.menu().actions() if action.text()]
             for menu in window.menuBar().actions()}
    assert list(menus) == ["&File", "&Go", "F&ilm", "&View", "&Help"]
    listed = [text for texts in menus.values() for text in texts]
    for binding in keymap.KEYMAP:
        if binding.screens != (keymap.DEBUG_SCREEN,):            # the debug panel's own keys: its buttons
            assert f"{binding.help}\t{', '.join(binding.keys)}" in listed
    assert "Quit\tCtrl+Q" in menus["&File"] and "This help\tF1" in menus["&Help"]
    entries = {action.text(): action for menu in window.menuBar().actions() for action in menu.menu().actions()}
    assert not entries["Heart: keep or drop the film\tF"].isEnabled()        # a Detail's, not Search's
    entries["Discover"].trigger()                                            # the tab, as clicked in Go
    qtbot.waitUntil(lambda: "Discover: Popular" in says(window), timeout=WAIT)
    entries["Next tab\tTab"].trigger()
    qtbot.waitUntil(lambda: "Favorites" in says(window) and "No favorites yet" in says(window), timeout=WAIT)


def test_f1_shows_the_keys_of_the_screen_shown(qtbot: Any, make_window: WindowFactory) -> None:
    window = make_window()
    press(window, "F1")
    dialog = window.help_dialog
    qtbot.waitUntil(lambda: dialog is not None and dialog.isVisible(), timeout=WAIT)
    assert dialog is not None
    table = dialog.table.text()
    for keys, what in keymap.help_lines("search", "", ("help", "debug", "quit")):
        assert f"<b>{keys}</b></td><td>{what}" in table
    assert "Heart" not in table
    qtbot.keyClick(dialog, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: not dialog.isVisible(), timeout=WAIT)


def test_the_debug_panels_keys_are_the_keymaps_and_f1_lists_them(qtbot: Any, make_window: WindowFactory) -> None:
    """While the debug panel has the keys they are the keymap's "debug" screen: Up (as [) steps
    back, Down forward, F1 lists the panel's keys, Escape closes the panel."""
    window = make_window()
    qtbot.keyClicks(window.search_field, "dune")
    qtbot.waitUntil(lambda: titles(window)[:1] == ["Dune"], timeout=WAIT)
    press(window, "F12")
    qtbot.waitUntil(lambda: window.debug_dock.entries.count() > 3 and window.debug_dock.has_keys(), timeout=WAIT)
    press(window, "Up")
    qtbot.waitUntil(lambda: "(time travel)" in window.debug_dock.header.text(), timeout=WAIT)
    press(window, "Down")
    qtbot.waitUntil(lambda: "showing the latest" in window.debug_dock.header.text(), timeout=WAIT)
    assert window.search_field.text() == "dune" and titles(window)[:1] == ["Dune"]
    press(window, "F1")
    dialog = window.help_dialog
    qtbot.waitUntil(lambda: dialog is not None and dialog.isVisible(), timeout=WAIT)
    assert dialog is not None
    table = dialog.table.text()
    assert "Keys: the debug panel" in table and "<b>[, Up, Left</b></td><td>Step back" in table
    assert "<b>Escape</b></td><td>Close the panel" in table and "Next row" not in table
    qtbot.keyClick(dialog, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: not dialog.isVisible() and window.debug_dock.has_keys(), timeout=WAIT)
    press(window, "Escape")
    qtbot.waitUntil(lambda: not window.debug_dock.isVisible() and window.search_field.hasFocus(), timeout=WAIT)


def test_the_focused_field_wears_a_visible_frame_and_takes_text_typed_anywhere(qtbot: Any,
                                                                                make_window: WindowFactory) -> None:
    window = make_window()
    image = window.search_field.grab().toImage()
    assert image.pixelColor(0, image.height() // 2) == QColor("#1f6fd1")
    window.stack.setFocus()                                  # the keyboard elsewhere on Search
    qtbot.waitUntil(lambda: not window.search_field.hasFocus(), timeout=WAIT)
    qtbot.keyClicks(window.stack, "dune")
    qtbot.waitUntil(lambda: window.search_field.text() == "dune" and titles(window)[:1] == ["Dune"], timeout=WAIT)


def page_of(query: str, page: int) -> Dict[str, Any]:
    """A page of 20 films titled "<query> <n>" (ids from page * 100)."""
    return {"movies": [{"id": page * 100 + n, "title": f"{query} {(page - 1) * 20 + n + 1}", "year": 2000}
                       for n in range(20)]}


def test_down_past_the_last_row_moves_to_the_first_film_of_the_next_page(qtbot: Any, tmp_path: Path) -> None:
    """Page 2 is held back until after Down: the selection stays on the last row, then lands
    on the first film of the page once it arrives. And a key acts on the newest state."""
    runtime = cinematic.Runtime({"delivery": "queued", "catalog": "host", "offlineCache": False,
                                 "favorites": str(tmp_path / "f.sqlite"), "history": 200})
    held: List[int] = []

    def provider(request_id: int, request: Dict[str, Any]) -> Optional[Dict[str, Any]]:
        if request.get("op") == "search" and request.get("page", 1) == 1:
            return page_of(request["query"], 1)
        if request.get("op") == "search":
            held.append(request_id)
        return None

    runtime.set_provider(provider)
    window = MainWindow(runtime, settings=QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    try:
        window.resize(800, 360)
        window.show()
        qtbot.waitExposed(window)
        qtbot.keyClicks(window.search_field, "film")
        qtbot.waitUntil(lambda: titles(window)[:1] == ["film 1"], timeout=WAIT)
        press(window, *["Down"] * 19)
        assert selected(window) == "film 20" and "20 shown, more match" in says(window)
        press(window, "Down")
        qtbot.waitUntil(lambda: len(held) == 1 and "loading more" in says(window), timeout=WAIT)
        assert selected(window) == "film 20"                 # nothing to move to yet
        runtime.respond(held[0], page_of("film", 2))
        qtbot.waitUntil(lambda: selected(window) == "film 21" and "40 shown" in says(window), timeout=WAIT)
        press(window, *["Down"] * 19)
        assert selected(window) == "film 40"
        press(window, "Down")
        qtbot.waitUntil(lambda: len(held) == 2, timeout=WAIT)
        runtime.respond(held[1], page_of("film", 3))         # queued; the loop has not run
        press(window, "Down")                                # drawn first, then Down moves on from film 41
        assert selected(window) == "film 42"
        assert [intent["type"] for intent in sent(window)] == ["task", "queryChanged", "queryChanged", "queryChanged",
                                                               "queryChanged"] + ["moveBy"] * 41
    finally:
        window.close()
        runtime.close()


def test_a_header_and_f2_sort_the_rows_and_enter_opens_the_row_shown(qtbot: Any, make_window: WindowFactory) -> None:
    window = make_window()
    window.resize(900, 700)
    qtbot.keyClicks(window.search_field, "star wars")
    qtbot.waitUntil(lambda: len(titles(window)) >= 5 and "movies" in says(window), timeout=WAIT)
    header = window.rows.horizontalHeader()
    qtbot.mouseClick(header.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(header.sectionViewportPosition(1) + 5, 5))
    qtbot.waitUntil(lambda: "By year, newest first" in says(window), timeout=WAIT)
    years = [int(window.rows.item(r, 1).text()) for r in range(window.rows.rowCount())]
    assert years == sorted(years, reverse=True) and selected(window) == titles(window)[0]
    press(window, "F2")                                      # the next sort: by rating
    qtbot.waitUntil(lambda: "By rating, highest first" in says(window), timeout=WAIT)
    ratings = [float(window.rows.item(r, 2).text().lstrip("★ ")) for r in range(window.rows.rowCount())]
    assert ratings == sorted(ratings, reverse=True)
    press(window, "Down")
    second = titles(window)[1]
    assert selected(window) == second
    press(window, "Enter")                                   # the row shown second opens
    qtbot.waitUntil(lambda: window.detail_page.title.text().startswith(second), timeout=WAIT)
