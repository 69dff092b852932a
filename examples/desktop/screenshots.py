"""Renders each screen of the desktop app (offscreen) to PNG, in real states reached the way
a person would reach them (key presses, the catalog's own answers):

- search.png: "dune" typed key by key, Dune (1984) the first result;
- discover.png: the Discover tab with its first two sections loaded;
- favorites.png: two films, Dune and Star Wars (a temporary favorites file: the user's are
  never touched);
- detail.png: Dune's detail (it is a favorite: the heart is full).

Each capture checks its state first and fails if it is not there. Then the states of each
screen (empty, loading, failed, offline; screenshots_states.py) at two window sizes, into
states/. `make screenshots` writes docs/screenshots/; the tests write to a temporary directory.

    examples/desktop/screenshots.sh [OUT_DIR]     (default: docs/screenshots)
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path
from typing import Dict, List, NamedTuple, Optional

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QSettings, QSize, Qt  # noqa: E402
from PySide6.QtGui import QImage  # noqa: E402
from PySide6.QtTest import QTest  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

import cinematic  # noqa: E402

from drive import type_slowly, wait_until  # noqa: E402

SIZE = QSize(960, 600)
DUNE, STAR_WARS = 15249, 48908
NAMES = ("search", "discover", "favorites", "detail")


class Shot(NamedTuple):
    path: Path
    rows: List[str]     # what the screen's list showed at capture time, "Title (Year)"


def add_favorites(path: Path, movie_ids: List[int]) -> None:
    """Favorites written by another runtime (the app reads the same file)."""
    with cinematic.Runtime(favorites=str(path)) as runtime:
        for movie_id in movie_ids:
            with runtime.detail(movie_id) as detail:
                detail.task()
                detail.wait_for(lambda s: s["detail"]["phase"] == "loaded" and not s["isSaving"], timeout=10)
                if not detail.state["isFavorite"]:
                    detail.favorite_toggled()
                    detail.wait_for(lambda s: s["isFavorite"] and not s["isSaving"], timeout=10)


def rows_of(movie_list: object) -> List[str]:
    from cinematic_desktop.movies import MovieList
    assert isinstance(movie_list, MovieList)
    items = [movie_list.topLevelItem(i) for i in range(movie_list.topLevelItemCount())]
    return [f"{item.text(0)} ({item.text(1)})" for item in items if item is not None]


def capture(out: Path, scratch: Optional[Path] = None) -> Dict[str, Shot]:
    """The four screenshots in ``out`` (created); ``scratch`` holds the temporary favorites
    and settings (a temporary directory by default)."""
    if scratch is None:
        with tempfile.TemporaryDirectory() as temporary:
            return capture(out, Path(temporary))
    from cinematic_desktop.movies import MovieList
    from cinematic_desktop.window import MainWindow

    out.mkdir(parents=True, exist_ok=True)
    favorites = scratch / "favorites.sqlite"
    add_favorites(favorites, [DUNE, STAR_WARS])
    app = QApplication.instance() or QApplication(sys.argv[:1])   # alive while capturing
    flash = app.cursorFlashTime()
    app.setCursorFlashTime(0)            # a steady text cursor: the same picture every time
    shots: Dict[str, Shot] = {}
    with cinematic.Runtime({"delivery": "queued", "favorites": str(favorites)}) as runtime:
        window = MainWindow(runtime, settings=QSettings(str(scratch / "settings.ini"), QSettings.Format.IniFormat))
        try:
            window.resize(SIZE)
            window.show()
            QTest.qWaitForWindowExposed(window)

            def shot(name: str, rows: List[str]) -> None:
                path = out / f"{name}.png"
                if not window.grab().save(str(path)):
                    raise OSError(f"cannot write {path}")
                shots[name] = Shot(path, rows)

            window.search_field.setFocus()
            type_slowly(window.search_field, "dune", 20)
            wait_until(lambda: rows_of(window.search_list)[:1] == ["Dune (1984)"]
                       and " movie" in window.search_status.text(), "Dune (1984) first")
            shot("search", rows_of(window.search_list))

            QTest.keyClick(window, Qt.Key.Key_2, Qt.KeyboardModifier.ControlModifier)
            def discover_settled() -> bool:
                """Two sections loaded, the one shown filling its view (it pages until it
                does), nothing in flight."""
                lists = list(window.section_lists.values())
                shown = window.section_stack.currentWidget()
                return len(lists) >= 2 and all(movie_list.topLevelItemCount() > 0 for movie_list in lists[:2]) \
                    and isinstance(shown, MovieList) and shown.verticalScrollBar().maximum() > 0 \
                    and shown.verticalScrollBar().parentWidget().isVisible() \
                    and window.section_info.text().endswith("movies, scroll for more")

            wait_until(discover_settled, "two Discover sections, the first filling its view")
            shot("discover", rows_of(window.section_stack.currentWidget()))

            QTest.keyClick(window, Qt.Key.Key_3, Qt.KeyboardModifier.ControlModifier)
            wait_until(lambda: window.favorites_list.topLevelItemCount() == 2, "two favorites")
            shot("favorites", rows_of(window.favorites_list))

            QTest.keyClick(window, Qt.Key.Key_1, Qt.KeyboardModifier.ControlModifier)
            QTest.keyClick(window.search_field, Qt.Key.Key_Return)   # opens the first result
            wait_until(lambda: window.detail_page.heart.text() == "♥ Favorite"
                       and window.detail_page.fields["Votes"].text() != "", "Dune's detail")
            shot("detail", [window.detail_page.title.text()])
        finally:
            window.close()
            app.setCursorFlashTime(flash)
    return shots


def distinct_colors(path: Path) -> int:
    """How many colours the picture has (a blank or flat one has a handful)."""
    image = QImage(str(path))
    return len({image.pixel(x, y) for x in range(0, image.width(), 2) for y in range(0, image.height(), 2)})


def main(argv: List[str]) -> int:
    """The four screens, then their states at two sizes (screenshots_states.py); fails when a
    state picture does not show its words, cuts a label or changed the window's size."""
    from screenshots_states import capture_states

    out = Path(argv[0]) if argv else Path(__file__).resolve().parents[2] / "docs" / "screenshots"
    for name, shot in capture(out).items():
        print(f"{shot.path}: {QImage(str(shot.path)).width()}x{QImage(str(shot.path)).height()}, "
              f"{distinct_colors(shot.path)} colours; first row: {shot.rows[0] if shot.rows else '-'}")
    failed = 0
    with tempfile.TemporaryDirectory() as scratch:
        for state in capture_states(out / "states", Path(scratch)):
            problems = state.cut + ([f"window {state.shown.toTuple()} instead of {state.size.toTuple()}"]
                                    if state.shown != state.size else [])
            failed += bool(problems)
            print(f"{state.path}: {state.screen}, {state.state}, {state.size.width()}x{state.size.height()}: "
                  f"{'; '.join(problems) if problems else 'shows ' + repr(state.words)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
