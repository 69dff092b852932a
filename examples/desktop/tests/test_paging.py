"""Scrolling and paging are the app store's: the window shows the rows in view the app chose,
tells it how many fit (``resized``), and turns the wheel, the scroll bar and PageDown into its
named actions; the next page loads when the selection moves past the last row. Real widgets,
wheel notches and key presses, offscreen; every wait is bounded."""

from __future__ import annotations

from typing import Any, Dict, List

from PySide6.QtWidgets import QAbstractSlider, QApplication

from cinematic_desktop.window import MainWindow
from conftest import WindowFactory
from drive import press, wheel
from seen import says, selected, titles

WAIT = 10_000  # ms: every wait is bounded


def sent(window: MainWindow) -> List[Dict[str, Any]]:
    """The intents the window sent (effect results left out)."""
    return [entry["intent"] for entry in window.app.history
            if not entry["intent"]["type"].endswith("Result")]


def loaded_titles(window: MainWindow) -> List[str]:
    """The titles of every film the search has loaded, in the order shown."""
    assert window.state is not None
    return [movie["title"] for movie in window.state["search"]["results"].get("value", [])]


def love(qtbot: Any, make_window: WindowFactory, height: int = 360) -> MainWindow:
    window = make_window()
    window.resize(800, height)
    qtbot.keyClicks(window.search_field, "love")
    qtbot.waitUntil(lambda: "20 shown, more match" in says(window) and len(titles(window)) > 3, timeout=WAIT)
    return window


def test_the_rows_shown_are_the_rows_that_fit(qtbot: Any, make_window: WindowFactory) -> None:
    window = love(qtbot, make_window)
    few = len(titles(window))
    assert 3 < few < 20 and titles(window) == loaded_titles(window)[:few]
    window.resize(800, 700)
    qtbot.waitUntil(lambda: len(titles(window)) > few, timeout=WAIT)
    assert titles(window) == loaded_titles(window)[:len(titles(window))]
    fitting = [i["rows"] for i in sent(window) if i["type"] == "resized"][-1]
    assert fitting > few and len(titles(window)) == min(20, fitting)


def test_page_down_shows_the_next_page_of_rows(qtbot: Any, make_window: WindowFactory) -> None:
    window = love(qtbot, make_window)
    shown = len(titles(window))
    press(window, "PageDown")
    assert titles(window)[0] == loaded_titles(window)[shown] and selected(window) == titles(window)[0]
    press(window, "PageUp")
    assert titles(window)[0] == loaded_titles(window)[0] and selected(window) == titles(window)[0]


def test_the_wheel_moves_and_at_the_end_of_the_loaded_rows_loads_the_next_page(qtbot: Any,
                                                                              make_window: WindowFactory) -> None:
    window = love(qtbot, make_window)
    step = QApplication.wheelScrollLines()
    wheel(window.rows, 1)
    assert selected(window) == loaded_titles(window)[step]
    wheel(window.rows, -1)
    assert selected(window) == loaded_titles(window)[0]
    wheel(window.rows, 20 // step + 1)                       # past the last row: the app loads more
    qtbot.waitUntil(lambda: "40 shown" in says(window), timeout=WAIT)
    assert selected(window) == loaded_titles(window)[20]     # the first film of the new page
    assert {intent["type"] for intent in sent(window)} == {"task", "queryChanged", "resized", "moveBy"}


def test_the_scroll_bar_shows_where_the_rows_are_and_steps_through_them(qtbot: Any,
                                                                        make_window: WindowFactory) -> None:
    window = love(qtbot, make_window)
    bar = window.list_screen.rows.bar
    shown = len(titles(window))
    assert bar.isVisible() and bar.value() == 0 and bar.maximum() == 20 - shown
    bar.triggerAction(QAbstractSlider.SliderAction.SliderSingleStepAdd)      # its lower arrow: Down
    assert selected(window) == loaded_titles(window)[1]
    bar.triggerAction(QAbstractSlider.SliderAction.SliderPageStepAdd)        # its trough: PageDown
    assert titles(window)[0] == loaded_titles(window)[shown] and bar.value() == shown


def test_a_list_that_has_no_more_stops_on_its_last_row(qtbot: Any, make_window: WindowFactory) -> None:
    window = make_window()
    qtbot.keyClicks(window.search_field, "dune")
    qtbot.waitUntil(lambda: "4 movies" in says(window), timeout=WAIT)
    assert not window.list_screen.rows.bar.isVisible()      # every row is shown: nothing to scroll
    wheel(window.rows, 50)
    assert selected(window) == "Dune 7" and titles(window) == ["Dune", "Suna no onna (Woman in the Dunes)", "Dune Warriors", "Dune 7"]
    assert "4 movies" in says(window)
