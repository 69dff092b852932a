"""What a person sees in the window, read back from the widgets shown: the rows' titles, the
highlighted row, every text on screen. Tests assert on these, not on which widget exists."""

from __future__ import annotations

from typing import List

from cinematic_desktop.window import MainWindow
from drive import row_titles, shown_text


def titles(window: MainWindow) -> List[str]:
    """The titles of the rows shown (none while a message or a Detail stands instead)."""
    return row_titles(window.rows) if window.rows.isVisible() else []


def rows(window: MainWindow) -> List[str]:
    """The rows shown as a person reads them: "Title | Year | Rating | Genres"."""
    table = window.rows
    if not table.isVisible():
        return []
    return [" | ".join(table.item(r, c).text() for c in range(table.columnCount()) if table.item(r, c) is not None)
            for r in range(table.rowCount())]


def selected(window: MainWindow) -> str:
    """The title of the highlighted row ("" when none is)."""
    items = [item for item in window.rows.selectedItems() if item.column() == 0] if window.rows.isVisible() else []
    return items[0].text() if items else ""


def says(window: MainWindow) -> str:
    """Every text on screen, one per line."""
    return shown_text(window)


def heart(window: MainWindow) -> str:
    """What the Detail's heart says ("" when no Detail is shown)."""
    return window.detail_page.heart.text() if window.detail_page.heart.isVisible() else ""
