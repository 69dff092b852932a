"""The app store's resume, drawn (issue 31): the scenario a person plays (search "alien", open
the third result, heart it, go to Favorites, remove it, undo, open Discover's Comedy, scroll to
page 3, open the film there) by real key presses, then a new window over a new runtime and the
same state file shows the same tab, places, Detail stack and favorites. The offline Detail of
a favorite shows the film's row and a working heart. Bounded waits on widgets and on the
state file; nothing sleeps."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Dict, Tuple

from PySide6.QtCore import Qt

from cinematic_desktop.window import MainWindow
from conftest import WindowFactory
from screenshots import DUNE, add_favorites

WAIT = 10_000
CTRL = Qt.KeyboardModifier.ControlModifier


def saved(path: Path) -> Dict[str, Any]:
    """The snapshot data in the app's state file ({} while there is none)."""
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return document.get("snapshot", {}).get("data", {}) if isinstance(document, dict) else {}


def play_the_scenario(qtbot: Any, window: MainWindow) -> Tuple[str, str]:
    """The issue's scenario by keys; returns (the hearted alien film, the Comedy film opened)."""
    qtbot.keyClicks(window.search_field, "alien")
    qtbot.waitUntil(lambda: window.search_state is not None and window.search_state["results"]["phase"] == "loaded"
                    and window.search_state["results"]["query"] == "alien" and len(window.search_list.movies) > 3,
                    timeout=WAIT)
    qtbot.keyClick(window.search_field, Qt.Key.Key_Down)            # into the results, on the first
    for _ in range(2):
        qtbot.keyClick(window.search_list, Qt.Key.Key_Down)
    third = window.search_list.movies[2]["title"]
    assert window.search_list.current_row() == 2 and window.state is not None
    assert window.state["positions"]["search"] == {"selection": 2, "firstVisible": 0}
    qtbot.keyClick(window.search_list, Qt.Key.Key_Return)
    heart = window.detail_page.heart
    qtbot.waitUntil(lambda: heart.isEnabled() and heart.hasFocus(), timeout=WAIT)
    assert window.detail_page.title.text().startswith(third)
    qtbot.keyClick(heart, Qt.Key.Key_F)
    qtbot.waitUntil(lambda: heart.text() == "♥ Favorite", timeout=WAIT)
    qtbot.keyClick(window, Qt.Key.Key_3, CTRL)                      # Favorites: the Detail closes
    qtbot.waitUntil(lambda: window.favorites_list.titles() == [third] and window.favorites_list.hasFocus(), timeout=WAIT)
    qtbot.keyClick(window.favorites_list, Qt.Key.Key_Delete)
    assert window.notice == f"Removed {third}" and window.notice_undo.isVisible()
    qtbot.waitUntil(lambda: window.favorites_list.titles() == [], timeout=WAIT)
    qtbot.keyClick(window.favorites_list, Qt.Key.Key_Z, CTRL)
    qtbot.waitUntil(lambda: window.favorites_list.titles() == [third] and window.notice == f"Restored {third}",
                    timeout=WAIT)
    qtbot.keyClick(window, Qt.Key.Key_2, CTRL)                      # Discover: the keyboard on its sections
    assert window.sections.hasFocus()
    for _ in range(4):
        qtbot.keyClick(window.sections, Qt.Key.Key_Down)
    assert window.state["section"] == "comedy" and window.sections.currentItem().text().startswith("Comedy")
    comedy = window.section_lists["comedy"]
    qtbot.waitUntil(lambda: comedy.topLevelItemCount() == 20, timeout=WAIT)
    qtbot.keyClick(window.sections, Qt.Key.Key_Right)
    assert comedy.hasFocus() and comedy.current_row() == 0
    for rows in (40, 60):                                           # End, then Down past the last row
        qtbot.keyClick(comedy, Qt.Key.Key_End)
        qtbot.keyClick(comedy, Qt.Key.Key_Down)                     # the app loads the next page, moves on
        qtbot.waitUntil(lambda: comedy.topLevelItemCount() == rows and comedy.current_row() == rows - 20,
                        timeout=WAIT)
    film = comedy.movies[40]["title"]
    qtbot.keyClick(comedy, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: window.detail_page.title.text().startswith(film), timeout=WAIT)
    return third, film


def test_the_scenario_comes_back_in_a_new_window(qtbot: Any, make_window: WindowFactory, tmp_path: Path) -> None:
    state_file = tmp_path / "desktop.json"
    window = make_window(state_file=state_file, settings_name="resume.ini")
    window.resize(900, 400)          # a page of 20 rows overflows its list: pages load as the scenario asks
    third, film = play_the_scenario(qtbot, window)
    before = window.state
    assert before is not None and before["tab"] == "discover" and before["section"] == "comedy"
    window.close()
    window.runtime.close()                      # the app store saves on its way out
    data = saved(state_file)
    assert data["tab"] == "discover" and data["positions"] == before["positions"]
    assert [d["movieId"] for d in data["details"]] == [d["movieId"] for d in before["details"]]

    again = make_window(state_file=state_file, settings_name="resume.ini")
    comedy = again.section_lists.get("comedy")
    qtbot.waitUntil(lambda: again.detail_page.title.text().startswith(film), timeout=WAIT)
    assert again.stack.currentWidget() is again.detail_scroll and again.tabs.currentIndex() == 1
    qtbot.waitUntil(lambda: again.state is not None and again.state["positions"] == before["positions"]
                    and again.favorites_list.titles() == [third], timeout=WAIT)
    qtbot.keyClick(again.detail_page.heart, Qt.Key.Key_Escape)       # back: Comedy, where it was
    comedy = again.section_lists["comedy"]
    qtbot.waitUntil(lambda: comedy.topLevelItemCount() == 60 and comedy.current_row() == 40, timeout=WAIT)
    assert again.stack.currentWidget() is again.tabs and again.sections.currentItem().text().startswith("Comedy")
    assert comedy.first_visible() <= 40 < comedy.first_visible() + 20
    qtbot.keyClick(again, Qt.Key.Key_1, CTRL)
    qtbot.waitUntil(lambda: again.search_list.current_row() == 2, timeout=WAIT)
    assert again.search_field.text() == "alien" and again.search_list.movies[2]["title"] == third


def test_the_offline_detail_of_a_favorite_shows_its_row_and_a_working_heart(
        qtbot: Any, make_window: WindowFactory, tmp_path: Path) -> None:
    path = tmp_path / "favorites.sqlite"
    add_favorites(path, [DUNE])
    window = make_window(favorites=str(path), live_url="http://127.0.0.1:9")   # nothing answers there
    qtbot.keyClick(window, Qt.Key.Key_3, CTRL)
    qtbot.waitUntil(lambda: window.favorites_list.titles() == ["Dune"], timeout=WAIT)
    qtbot.keyClick(window.favorites_list, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: window.detail_state is not None and window.detail_state["detail"]["phase"] == "failed",
                    timeout=WAIT)
    page = window.detail_page
    assert page.title.text() == "Dune (1984)" and page.fields["Year"].text() == "1984"
    assert page.fields["Runtime"].text().endswith(" min") and page.retry.isVisible()
    assert "Could not load the detail: network" in page.message.text()
    assert page.heart.isEnabled() and page.heart.text() == "♥ Favorite"
    qtbot.mouseClick(page.heart, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: page.heart.text() == "♡ Add to favorites" and window.favorites_list.titles() == [],
                    timeout=WAIT)
    qtbot.keyClick(page.heart, Qt.Key.Key_F)                         # and back again
    qtbot.waitUntil(lambda: page.heart.text() == "♥ Favorite" and window.favorites_list.titles() == ["Dune"],
                    timeout=WAIT)


def test_a_state_file_that_is_not_ours_is_left_alone_and_said_so(qtbot: Any, make_window: WindowFactory,
                                                                  tmp_path: Path) -> None:
    state_file = tmp_path / "notes.txt"
    state_file.write_text("my notes\n", encoding="utf-8")
    window = make_window(state_file=state_file)
    qtbot.waitUntil(lambda: window.state is not None and window.state["notice"] is not None, timeout=WAIT)
    assert window.state["notice"]["kind"] == "stateFile" and window.notice == window.state["notice"]["text"]
    qtbot.keyClicks(window.search_field, "dune")
    qtbot.waitUntil(lambda: window.search_list.titles()[:1] == ["Dune"], timeout=WAIT)
    window.close()
    window.runtime.close()
    assert state_file.read_text(encoding="utf-8") == "my notes\n"


def test_one_step_in_the_debug_panel_brings_the_whole_app_back(qtbot: Any, make_window: WindowFactory) -> None:
    """Time travel is one revert of the app store: the tab, the query, the list and the Detail
    stack of that moment come back together, and Latest returns to now."""
    window = make_window()
    qtbot.keyClicks(window.search_field, "dune")
    qtbot.waitUntil(lambda: window.search_list.titles()[:1] == ["Dune"], timeout=WAIT)
    qtbot.keyClick(window.search_field, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: window.detail_page.heart.isEnabled(), timeout=WAIT)
    qtbot.keyClick(window, Qt.Key.Key_3, CTRL)
    assert window.stack.currentWidget() is window.tabs and window.tabs.currentIndex() == 2
    qtbot.keyClick(window, Qt.Key.Key_F12)
    dock = window.debug_dock
    qtbot.waitUntil(lambda: dock.entries.count() == len(window.app.history) > 5, timeout=WAIT)
    opened = max(i for i, entry in enumerate(window.app.history) if entry["intent"]["type"] == "opened")
    item = dock.entries.item(opened)
    dock.entries.setCurrentItem(item)
    qtbot.keyClick(dock.entries, Qt.Key.Key_Return)                 # activates that entry
    assert window.stack.currentWidget() is window.detail_scroll and window.detail_page.title.text() == "Dune (1984)"
    assert window.tabs.currentIndex() == 0 and window.search_field.text() == "dune"
    assert window.search_list.titles()[:1] == ["Dune"] and "time travel" in dock.header.text()
    qtbot.mouseClick(dock.latest, Qt.MouseButton.LeftButton)
    assert window.stack.currentWidget() is window.tabs and window.tabs.currentIndex() == 2
    assert "the latest" in dock.header.text()
