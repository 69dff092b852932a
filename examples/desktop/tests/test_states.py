"""Every state drawn (issue 34), in the view's words: a skeleton while loading, a sentence for
an empty list, what failed with what to do and the retry key, the search's hint, the
histogram on a fixed 0–100% scale, and a window that keeps its size whatever it shows. Real widgets, offscreen;
every wait is bounded (qtbot.waitUntil)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator, List

import pytest
from PySide6.QtCore import QSettings, QSize
from PySide6.QtWidgets import QApplication

import cinematic
from cinematic_desktop.window import MainWindow
from conftest import WindowFactory
from drive import press
from seen import says
from test_desktop import open_dune
from test_favorites_and_hints import free_port

WAIT = 10_000


@pytest.fixture
def held_window(qtbot: Any, tmp_path: Path) -> Iterator[MainWindow]:
    """A window over a host catalog that never answers: every load stays loading."""
    runtime = cinematic.Runtime({"delivery": "queued", "catalog": "host", "favorites": str(tmp_path / "f.sqlite")})
    requests: List[Any] = []
    runtime.set_provider(lambda request_id, request: requests.append(request))
    window = MainWindow(runtime, settings=QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    window.show()
    qtbot.waitExposed(window)
    yield window
    window.close()
    runtime.close()


def test_loading_shows_a_skeleton_shaped_like_the_list(qtbot: Any, held_window: MainWindow) -> None:
    window = held_window
    view = window.list_screen.state_view
    assert "Search the catalog" in says(window) and "Type at least 2 characters" in says(window)
    qtbot.keyClicks(window.search_field, "dune")
    press(window, "Enter")
    qtbot.waitUntil(lambda: view.skeleton.isVisible() and "Searching for “dune”…" in says(window), timeout=WAIT)
    press(window, "Tab")
    qtbot.waitUntil(lambda: view.skeleton.isVisible() and "Loading Popular…" in says(window), timeout=WAIT)


def test_an_empty_search_says_what_to_try(qtbot: Any, make_window: WindowFactory) -> None:
    window = make_window()
    qtbot.keyClicks(window.search_field, "qqzzqqzz")
    qtbot.waitUntil(lambda: "Nothing found" in says(window), timeout=WAIT)
    assert "Try fewer words" in says(window) and "Try again" not in says(window)
    # What the catalog holds, as the catalog says it (issue "Search that knows a film by every name").
    assert "No film in the catalog matches “qqzzqqzz”: it holds 58,788 films from 1893 to 2005" in says(window)


def test_the_search_hint_is_shown(qtbot: Any, make_window: WindowFactory) -> None:
    window = make_window()
    qtbot.keyClicks(window.search_field, "tom hanks")
    qtbot.waitUntil(lambda: "looks like a person" in says(window), timeout=WAIT)
    window.search_field.clear()
    qtbot.keyClicks(window.search_field, "the dark knight")
    qtbot.waitUntil(lambda: "No title holds every word: these leave out “dark”. The catalog holds 58,788 films" in says(window),
                    timeout=WAIT)


def test_a_failure_says_what_failed_what_to_do_and_the_retry_key(qtbot: Any, make_window: WindowFactory) -> None:
    url = f"http://127.0.0.1:{free_port()}"
    window = make_window(live_url=url)
    qtbot.keyClicks(window.search_field, "dune")
    qtbot.waitUntil(lambda: "Try again" in says(window), timeout=WAIT)
    assert "Search failed: network" in says(window)
    assert "Check that the movie server is running and reachable; F5 tries again." in says(window)
    press(window, "Tab")
    qtbot.waitUntil(lambda: "Could not load Popular: network" in says(window) and "Try again" in says(window),
                    timeout=WAIT)
    assert "F5 tries again" in says(window)


def test_a_long_error_wraps_and_the_window_keeps_its_size(qtbot: Any, make_window: WindowFactory) -> None:
    window = make_window(live_url=f"http://127.0.0.1:{free_port()}")
    window.resize(QSize(640, 420))
    qtbot.waitUntil(lambda: window.size() == QSize(640, 420), timeout=WAIT)
    window.callback_failed(RuntimeError("a very long error message " * 60))   # the status bar's line
    qtbot.keyClicks(window.search_field, "dune " * 40)                           # a long failing search
    qtbot.waitUntil(lambda: "Try again" in says(window), timeout=WAIT)
    QApplication.processEvents()
    assert window.size() == QSize(640, 420)
    assert window.minimumSizeHint().width() <= 640 and window.minimumSize().width() <= 640
    assert window.notice_label.wordWrap() and window.notice_label.width() <= 640


def test_the_histogram_is_the_share_on_a_fixed_0_to_100_scale(qtbot: Any, make_window: WindowFactory) -> None:
    window = make_window()
    open_dune(qtbot, window)
    page = window.detail_page
    qtbot.waitUntil(lambda: "Share of votes per star rating (bars on a 0-100% scale)" in says(window), timeout=WAIT)
    # Dune: 14.5% for 6 to 10 stars, 4.5% for 1 to 5 (the bars are 10 stars first).
    assert [label.text() for label in page.stars] == [f"{n}★" for n in range(10, 0, -1)]
    assert [label.text() for label in page.shares] == ["14.5%"] * 5 + ["4.5%"] * 5
    values = [bar.value() / bar.maximum() for bar in page.bars]
    assert values == pytest.approx([0.145] * 5 + [0.045] * 5)
    assert "4.5% means 0-10%" in says(window)
    # Drawn so: the 14.5% bar's fill is about 14.5% of its track.
    image = page.bars[0].grab().toImage()
    y = image.height() // 2
    filled = [x for x in range(image.width()) if image.pixelColor(x, y) == image.pixelColor(2, y)]
    assert 0.08 <= len(filled) / image.width() <= 0.22, len(filled) / image.width()
