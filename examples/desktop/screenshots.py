"""Renders each screen of the desktop app (offscreen) to PNG, in real states reached the way
a person would reach them (key presses, the catalog's own answers):

- search.png: "dune" typed key by key, Dune (1984) the first result;
- discover.png: the Discover tab (Tab) with its first section's first page;
- favorites.png: two films, Dune and Star Wars (a temporary favorites file: the user's are
  never touched);
- detail.png: Dune's detail, opened from Search by Enter (it is a favorite: the heart is full).

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

from PySide6.QtCore import QSettings, QSize  # noqa: E402
from PySide6.QtGui import QImage  # noqa: E402
from PySide6.QtTest import QTest  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

import cinematic  # noqa: E402

from drive import press, shown_texts, type_slowly, wait_until  # noqa: E402

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


def rows_of(window: object) -> List[str]:
    """What the list shows, row by row: "Title (Year)"."""
    from cinematic_desktop.window import MainWindow
    assert isinstance(window, MainWindow)
    table = window.rows
    return [f"{table.item(r, 0).text()} ({table.item(r, 1).text()})" for r in range(table.rowCount())
            if table.item(r, 0) is not None and table.item(r, 1) is not None]


def capture(out: Path, scratch: Optional[Path] = None) -> Dict[str, Shot]:
    """The four screenshots in ``out`` (created); ``scratch`` holds the temporary favorites
    and settings (a temporary directory by default)."""
    if scratch is None:
        with tempfile.TemporaryDirectory() as temporary:
            return capture(out, Path(temporary))
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

            def status() -> str:
                return window.list_screen.status.text() if window.list_screen.status.isVisible() else ""

            window.search_field.setFocus()
            type_slowly(window.search_field, "dune", 20)
            wait_until(lambda: rows_of(window)[:1] == ["Dune (1984)"] and status().endswith(" movies"),
                       "Dune (1984) first")
            shot("search", rows_of(window))

            press(window, "Tab")                                     # Discover
            wait_until(lambda: len(rows_of(window)) >= 20 and status().endswith("more match")
                       and "Popular" in shown_texts(window), "Discover's first section, its first page")
            shot("discover", rows_of(window))

            press(window, "Tab")                                     # Favorites
            wait_until(lambda: len(rows_of(window)) == 2, "two favorites")
            shot("favorites", rows_of(window))

            press(window, "Tab", "Enter")                            # Search again: Dune opens
            wait_until(lambda: window.detail_page.heart.text() == "♥ In your favorites"
                       and "Budget" in shown_texts(window.detail_page), "Dune's detail")
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
