"""Keyboard first (issue 34): a menu bar with every action and its keys, a help screen (F1 or
?), a focus that can be seen, and Down past the last row moving on to the first film of the
next page once it arrives. Real widgets and key presses, offscreen; waits are bounded."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Dict, List, Optional

from PySide6.QtCore import QPoint, QSettings, Qt
from PySide6.QtGui import QColor

import cinematic
from cinematic_desktop.window import MainWindow

from cinematic_desktop.menus import entries
from conftest import WindowFactory

WAIT = 10_000


def test_the_menu_bar_has_every_action_with_its_keys(qtbot: Any, make_window: WindowFactory) -> None:
    window = make_window()
    menus = [action.text() for action in window.menuBar().actions()]
    assert menus == ["&File", "&Go", "F&ilm", "&View", "&Help"]
    shown = {}
    for menu in window.menuBar().actions():
        for action in menu.menu().actions():
            keys = action.shortcut().toString() or action.text().partition("\t")[2]
            shown[action.text().partition("\t")[0]] = keys
    assert all(shown.values()), shown                      # every action says its keys
    for text in ("&Quit", "&Search", "&Discover", "&Favorites", "&Try again what failed", "&Keyboard shortcuts",
                 "Debug &panel (time travel)"):
        assert text in shown, shown
    assert shown["&Quit"] == "Ctrl+Q" and shown["&Keyboard shortcuts"] == "F1"
    # The menu's keys act: Ctrl+2 shows Discover.
    qtbot.keyClick(window, Qt.Key.Key_2, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: window.tabs.currentIndex() == 1, timeout=WAIT)


def test_f1_and_question_mark_show_the_help_and_a_question_mark_is_still_typed(qtbot: Any,
                                                                             make_window: WindowFactory) -> None:
    window = make_window()
    qtbot.keyClick(window.search_field, Qt.Key.Key_F1)
    qtbot.waitUntil(lambda: window.help_dialog is not None and window.help_dialog.isVisible(), timeout=WAIT)
    table = window.help_dialog.table.text()
    for entry in entries(window):                          # the help lists what the menus do
        assert entry.text.replace("&", "") in table and entry.keys[0] in table
    qtbot.keyClick(window.help_dialog, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: not window.help_dialog.isVisible(), timeout=WAIT)
    window.activateWindow()
    window.search_field.setFocus()
    qtbot.keyClicks(window.search_field, "who?")           # in the field, ? is a character
    assert window.search_field.text() == "who?" and not window.help_dialog.isVisible()
    window.favorites_list.setFocus()
    qtbot.keyClick(window, Qt.Key.Key_3, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClick(window.focusWidget(), Qt.Key.Key_Question)
    qtbot.waitUntil(lambda: window.help_dialog.isVisible(), timeout=WAIT)


def test_the_focused_widget_wears_a_visible_frame(qtbot: Any, make_window: WindowFactory) -> None:
    window = make_window()
    qtbot.keyClicks(window.search_field, "dune")
    qtbot.waitUntil(lambda: window.search_list.topLevelItemCount() > 0, timeout=WAIT)
    frame = QColor("#1f6fd1")

    def left_edge(widget: Any) -> QColor:
        image = widget.grab().toImage()
        return image.pixelColor(0, image.height() // 2)

    window.search_field.setFocus()
    qtbot.waitUntil(lambda: window.search_field.hasFocus(), timeout=WAIT)
    assert left_edge(window.search_field) == frame and left_edge(window.search_list) != frame
    window.search_list.setFocus()
    qtbot.waitUntil(lambda: window.search_list.hasFocus(), timeout=WAIT)
    assert left_edge(window.search_list) == frame and left_edge(window.search_field) != frame


def page_of(query: str, page: int) -> Dict[str, Any]:
    """A page of 20 films titled "<query> <n>" (ids from page * 100)."""
    return {"movies": [{"id": page * 100 + n, "title": f"{query} {(page - 1) * 20 + n + 1}", "year": 2000}
                       for n in range(20)]}


def test_down_past_the_last_row_moves_to_the_first_film_of_the_next_page(qtbot: Any, tmp_path: Path) -> None:
    """Page 2 is held back until after Down: the selection waits on the row past the last,
    then lands on the first film of the page once it arrives."""
    runtime = cinematic.Runtime({"delivery": "queued", "catalog": "host", "offlineCache": False,
                                 "favorites": str(tmp_path / "f.sqlite")})
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
        qtbot.waitUntil(lambda: window.search_list.topLevelItemCount() == 20, timeout=WAIT)
        window.search_list.setFocus()
        qtbot.keyClick(window.search_list, Qt.Key.Key_End)
        qtbot.waitUntil(lambda: window.search_list.current_row() == 19, timeout=WAIT)
        qtbot.keyClick(window.search_list, Qt.Key.Key_Down)
        qtbot.waitUntil(lambda: len(held) == 1 and window.state is not None
                        and window.state["search"]["isLoadingMore"], timeout=WAIT)
        assert window.search_list.current_row() == 19          # nothing to move to yet
        runtime.respond(held[0], page_of("film", 2))
        qtbot.waitUntil(lambda: window.search_list.topLevelItemCount() == 40, timeout=WAIT)
        qtbot.waitUntil(lambda: window.search_list.current_row() == 20, timeout=WAIT)
        assert window.search_list.currentItem().text(0) == "film 21"      # the first film of the new page
        assert window.state is not None and window.state["positions"]["search"]["selection"] == 20
    finally:
        window.close()
        runtime.close()


def test_columns_sort_by_title_year_rating_and_votes_and_positions_stay_the_apps(
        qtbot: Any, make_window: WindowFactory) -> None:
    window = make_window()
    qtbot.keyClicks(window.search_field, "star wars")
    qtbot.waitUntil(lambda: window.search_list.topLevelItemCount() >= 5 and window.search_state is not None
                    and not window.search_state["isLoadingMore"], timeout=WAIT)
    movies = list(window.search_list.movies)
    header = window.search_list.header()
    qtbot.mouseClick(header.viewport(), Qt.MouseButton.LeftButton,
                     pos=header.viewport().rect().topLeft() + QPoint(header.sectionPosition(1) + 5, 5))
    years = [int(item) for item in (window.search_list.topLevelItem(i).text(1)
                                    for i in range(window.search_list.topLevelItemCount()))]
    assert years == sorted(m["year"] for m in movies)                       # Year, ascending
    window.search_list.setFocus()
    qtbot.keyClick(window, Qt.Key.Key_4, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier)
    votes = [int(window.search_list.topLevelItem(i).text(3).replace(",", ""))
             for i in range(window.search_list.topLevelItemCount())]
    assert votes == sorted(m["votes"] for m in movies)                      # Votes (menu key)
    qtbot.keyClick(window, Qt.Key.Key_4, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier)
    assert window.search_list.titles()[0] == max(movies, key=lambda m: m["votes"])["title"]   # again: reversed
    for column, key in ((0, lambda m: m["title"].casefold()), (2, lambda m: m["rating"])):
        window.sort_shown(column)
        assert window.search_list.titles() == [m["title"] for m in sorted(movies, key=key)]
    # The row the person picks is sent as its place in the app's order, and opens that film.
    qtbot.keyClick(window.search_list, Qt.Key.Key_Home)
    qtbot.keyClick(window.search_list, Qt.Key.Key_Down)
    picked = window.search_list.current_movie()
    assert picked is not None and picked["title"] == window.search_list.titles()[1]
    qtbot.waitUntil(lambda: window.state is not None and window.state["positions"].get("search", {}).get("selection")
                    == movies.index(picked), timeout=WAIT)
    qtbot.keyClick(window.search_list, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: window.detail_state is not None and window.detail_state["movieId"] == picked["id"],
                    timeout=WAIT)
