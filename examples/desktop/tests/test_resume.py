"""The app store's resume, drawn (issue 31): the scenario a person plays (search "alien", open
the third result, heart it, go to Favorites, remove it, undo, open Discover's Comedy, scroll to
page 3, open the film there) by real key presses, then a new window over a new runtime and the
same state file shows the same tab, places, Detail stack and favorites. The offline Detail of
a favorite shows the film's row and a working heart. Bounded waits on widgets and on the
state file; nothing sleeps."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Dict, List, Tuple

from PySide6.QtCore import Qt

from cinematic_desktop.window import MainWindow
from conftest import WindowFactory
from drive import press
from screenshots import DUNE, add_favorites
from seen import heart, says, selected, titles

WAIT = 10_000
CTRL = Qt.KeyboardModifier.ControlModifier


def saved(path: Path) -> Dict[str, Any]:
    """The snapshot data in the app's state file ({} while there is none)."""
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return document.get("snapshot", {}).get("data", {}) if isinstance(document, dict) else {}


def comedies(window: MainWindow) -> List[str]:
    """The titles of Comedy's loaded films, in the order shown (from the app state)."""
    assert window.state is not None
    section = next(s for s in window.state["discover"]["sections"] if s["section"] == "comedy")
    return [movie["title"] for movie in section["movies"].get("value", [])]


def play_the_scenario(qtbot: Any, window: MainWindow) -> Tuple[str, str]:
    """The issue's scenario by keys; returns (the hearted alien film, the Comedy film opened)."""
    qtbot.keyClicks(window.search_field, "alien")
    qtbot.waitUntil(lambda: len(titles(window)) > 3 and "more match" in says(window), timeout=WAIT)
    press(window, "Down", "Down")                            # the third row
    third = titles(window)[2]
    assert selected(window) == third and window.state is not None
    assert window.state["positions"]["search"] == {"selection": 2, "firstVisible": 0}
    press(window, "Enter")
    qtbot.waitUntil(lambda: window.detail_page.title.text().startswith(third) and "Budget" in says(window),
                    timeout=WAIT)
    press(window, "F")
    qtbot.waitUntil(lambda: heart(window) == "♥ In your favorites", timeout=WAIT)
    press(window, "Shift+Tab")                               # Favorites: the Detail closes
    qtbot.waitUntil(lambda: titles(window) == [third], timeout=WAIT)
    press(window, "Delete")
    assert window.notice == f"Removed {third}" and window.notice_undo.isVisible()
    qtbot.waitUntil(lambda: titles(window) == [], timeout=WAIT)
    press(window, "Ctrl+Z")
    qtbot.waitUntil(lambda: titles(window) == [third] and window.notice == f"Restored {third}", timeout=WAIT)
    press(window, "Shift+Tab", "Right", "Right", "Right", "Right")   # Discover, its fifth section
    qtbot.waitUntil(lambda: "Discover: Comedy" in says(window) and len(comedies(window)) == 20, timeout=WAIT)
    assert selected(window) == comedies(window)[0]
    for rows in (40, 60):                                    # End, then Down past the last row
        press(window, "End", "Down")                         # the app loads the next page, moves on
        qtbot.waitUntil(lambda: len(comedies(window)) == rows and selected(window) == comedies(window)[rows - 20],
                        timeout=WAIT)
    film = comedies(window)[40]
    press(window, "Enter")
    qtbot.waitUntil(lambda: window.detail_page.title.text().startswith(film), timeout=WAIT)
    return third, film


def test_the_scenario_comes_back_in_a_new_window(qtbot: Any, make_window: WindowFactory, tmp_path: Path) -> None:
    state_file = tmp_path / "desktop.json"
    window = make_window(state_file=state_file, settings_name="resume.ini")
    window.resize(900, 400)          # fewer rows than a page fit: the rows shown follow the selection
    third, film = play_the_scenario(qtbot, window)
    before = window.state
    assert before is not None and before["tab"] == "discover" and before["section"] == "comedy"
    window.close()
    window.runtime.close()                      # the app store saves on its way out
    data = saved(state_file)
    assert data["tab"] == "discover" and data["positions"] == before["positions"]
    assert [d["movieId"] for d in data["details"]] == [d["movieId"] for d in before["details"]]

    again = make_window(state_file=state_file, settings_name="resume.ini")
    qtbot.waitUntil(lambda: again.detail_page.title.text().startswith(film), timeout=WAIT)
    assert again.tab_bar.tabText(again.tab_bar.currentIndex()) == "Discover"
    qtbot.waitUntil(lambda: again.state is not None and again.state["positions"] == before["positions"], timeout=WAIT)
    press(again, "Escape")                                   # back: Comedy, where it was
    qtbot.waitUntil(lambda: "Discover: Comedy" in says(again) and selected(again) == film, timeout=WAIT)
    assert "60 shown, more match" in says(again)
    press(again, "Tab")                                      # Favorites: the hearted film
    qtbot.waitUntil(lambda: titles(again) == [third], timeout=WAIT)
    press(again, "Tab")                                      # Search, where it was
    qtbot.waitUntil(lambda: selected(again) == third, timeout=WAIT)
    assert again.search_field.text() == "alien"


def test_the_offline_detail_of_a_favorite_shows_its_row_and_a_working_heart(
        qtbot: Any, make_window: WindowFactory, tmp_path: Path) -> None:
    path = tmp_path / "favorites.sqlite"
    add_favorites(path, [DUNE])
    window = make_window(favorites=str(path), live_url="http://127.0.0.1:9")   # nothing answers there
    press(window, "Shift+Tab")
    qtbot.waitUntil(lambda: titles(window) == ["Dune"], timeout=WAIT)
    press(window, "Enter")
    qtbot.waitUntil(lambda: "Could not load Dune: network" in says(window), timeout=WAIT)
    assert "Dune (1984)" in says(window) and "190 min" in says(window) and "Try again" in says(window)
    assert heart(window) == "♥ In your favorites"
    qtbot.mouseClick(window.detail_page.heart, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: heart(window) == "♡ Not in your favorites", timeout=WAIT)
    press(window, "F")                                       # and back again
    qtbot.waitUntil(lambda: heart(window) == "♥ In your favorites", timeout=WAIT)
    press(window, "Escape")
    qtbot.waitUntil(lambda: titles(window) == ["Dune"], timeout=WAIT)


def test_a_state_file_that_is_not_ours_is_left_alone_and_said_so(qtbot: Any, make_window: WindowFactory,
                                                                  tmp_path: Path) -> None:
    state_file = tmp_path / "notes.txt"
    state_file.write_text("my notes\n", encoding="utf-8")
    window = make_window(state_file=state_file)
    qtbot.waitUntil(lambda: window.state is not None and window.state["notice"] is not None, timeout=WAIT)
    assert window.state is not None and window.state["notice"] is not None
    assert window.state["notice"]["kind"] == "stateFile" and window.notice == window.state["notice"]["text"]
    qtbot.keyClicks(window.search_field, "dune")
    qtbot.waitUntil(lambda: titles(window)[:1] == ["Dune"], timeout=WAIT)
    window.close()
    window.runtime.close()
    assert state_file.read_text(encoding="utf-8") == "my notes\n"


def test_one_step_in_the_debug_panel_brings_the_whole_app_back(qtbot: Any, make_window: WindowFactory) -> None:
    """Time travel is one revert of the app store: the tab, the query, the list and the Detail
    stack of that moment come back together."""
    window = make_window()
    qtbot.keyClicks(window.search_field, "dune")
    qtbot.waitUntil(lambda: titles(window)[:1] == ["Dune"], timeout=WAIT)
    press(window, "Enter")
    qtbot.waitUntil(lambda: heart(window) != "", timeout=WAIT)
    press(window, "Shift+Tab")
    qtbot.waitUntil(lambda: "No favorites yet" in says(window), timeout=WAIT)
    press(window, "F12")
    dock = window.debug_dock
    qtbot.waitUntil(lambda: dock.entries.count() == len(window.app.history) > 5, timeout=WAIT)
    opened = max(i for i, entry in enumerate(window.app.history) if entry["intent"]["type"] == "activate")
    dock.entries.setCurrentItem(dock.entries.item(opened))
    qtbot.keyClick(dock.entries, Qt.Key.Key_Return)          # activates that entry
    assert window.detail_page.title.text() == "Dune (1984)" and heart(window) != ""
    assert window.tab_bar.tabText(window.tab_bar.currentIndex()) == "Search"
    assert "time travel" in dock.header.text()
    press(window, "Escape")                                  # in the panel, the keys are the panel's
    assert heart(window) != ""
