"""What every screen shares: the list of movies (columns, elision, paging at the bottom),
the source note of a live catalog, how an error reads, and the window as the pages see it."""

from __future__ import annotations

import time
from typing import Any, Callable, List, Mapping, Optional, Protocol, cast

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QKeyEvent, QResizeEvent, QShowEvent
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTreeWidget, QTreeWidgetItem

from cinematic import wire
from cinematic_tui.app import phase_of

ID_ROLE = Qt.ItemDataRole.UserRole


class Shell(Protocol):
    """The window, as a page sees it: open a film, say something in the status bar, and
    hear that a store on screen changed (the debug panel follows)."""

    notice: str

    def open_detail(self, movie: wire.Movie) -> None: ...

    def state_changed(self) -> None: ...

    def catch_up(self) -> None:
        """Takes the states the library already delivered to the queue (a key press acts on
        the newest one, not on one still waiting behind the event loop). Never waits."""
        ...


def source_note(phase: Mapping[str, object], live_url: Optional[str]) -> str:
    """Where a loaded value came from (a live catalog): "live from URL", or the offline note
    "offline, showing saved results from HH:MM"; "" for the embedded catalog."""
    source = phase.get("source") if phase_of(phase) == "loaded" else None
    if source == "cache":
        saved = time.strftime("%H:%M", time.localtime(cast(int, phase.get("cachedAt", 0))))
        return f"offline, showing saved results from {saved}"
    if source == "live":
        return f"live from {live_url}" if live_url else "live"
    return ""


def error_text(error: Mapping[str, Any]) -> str:
    return f"{error['code']}: {error['message']}"


class MovieList(QTreeWidget):
    """Movies in columns (title, year, rating, runtime, genres); the title elides. Keeps its
    rows when a state only appends (load more), and asks for more at the bottom."""

    COLUMNS = ("Title", "Year", "Rating", "Runtime", "Genres")

    def __init__(self, name: str, on_open: Callable[[wire.Movie], None],
                 on_more: Optional[Callable[[], None]] = None) -> None:
        super().__init__()
        self.setObjectName(name)
        self.on_open = on_open
        self.on_more = on_more
        self.movies: List[wire.Movie] = []
        self.setColumnCount(len(self.COLUMNS))
        self.setHeaderLabels(list(self.COLUMNS))
        self.setRootIsDecorated(False)
        self.setUniformRowHeights(True)
        self.setAlternatingRowColors(True)
        self.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        header = self.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for column, width in ((1, 56), (2, 70), (3, 76), (4, 200)):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.Fixed)
            self.setColumnWidth(column, width)
        self.itemActivated.connect(self._activated)
        self.verticalScrollBar().valueChanged.connect(self._scrolled)
        self.verticalScrollBar().rangeChanged.connect(lambda low, high: self._fill())

    def set_movies(self, movies: List[wire.Movie]) -> None:
        old = [m["id"] for m in self.movies]
        new = [m["id"] for m in movies]
        if new == old:
            self.movies = movies
            return
        if old and new[: len(old)] == old:
            self.movies = movies
            self.addTopLevelItems([self._item(m) for m in movies[len(old):]])
            QTimer.singleShot(0, self._fill)
            return
        self.movies = movies
        self.clear()
        self.addTopLevelItems([self._item(m) for m in movies])
        self.select_first()
        QTimer.singleShot(0, self._fill)   # once laid out (not a polling timer: one shot)

    def _fill(self) -> None:
        """Rows that do not fill the view leave nothing to scroll: ask for more now."""
        if self.on_more is None or not self.movies or not self.isVisible():
            return
        row = self.sizeHintForRow(0)
        if row > 0 and row * self.topLevelItemCount() <= self.viewport().height():
            self.on_more()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        QTimer.singleShot(0, self._fill)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fill()

    @staticmethod
    def _item(movie: wire.Movie) -> QTreeWidgetItem:
        minutes = movie["runtime"]
        item = QTreeWidgetItem([
            movie["title"], str(movie["year"] or ""), f"★ {movie['rating']:.1f}",
            f"{minutes} min" if minutes else "", ", ".join(movie["genres"])])
        item.setToolTip(0, movie["title"])
        item.setData(0, ID_ROLE, movie["id"])
        for column in (1, 2, 3):
            item.setTextAlignment(column, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return item

    def select_first(self) -> None:
        first = self.topLevelItem(0)
        if first is not None:
            self.setCurrentItem(first)

    def titles(self) -> List[str]:
        """What the rows show in the title column (top to bottom)."""
        items = (self.topLevelItem(i) for i in range(self.topLevelItemCount()))
        return [item.text(0) for item in items if item is not None]

    def current_movie(self) -> Optional[wire.Movie]:
        row = self.indexOfTopLevelItem(self.currentItem()) if self.currentItem() is not None else -1
        return self.movies[row] if 0 <= row < len(self.movies) else None

    def _activated(self, item: QTreeWidgetItem, column: int) -> None:
        row = self.indexOfTopLevelItem(item)
        if 0 <= row < len(self.movies):
            self.on_open(self.movies[row])

    def _scrolled(self, value: int) -> None:
        bar = self.verticalScrollBar()
        if self.on_more is not None and bar.maximum() > 0 and value >= bar.maximum():
            self.on_more()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        at_end = self.topLevelItemCount() > 0 and self.currentItem() is self.topLevelItem(self.topLevelItemCount() - 1)
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            movie = self.current_movie()
            if movie is not None:
                self.on_open(movie)
            return
        super().keyPressEvent(event)
        if at_end and self.on_more is not None and event.key() in (
                Qt.Key.Key_Down, Qt.Key.Key_PageDown, Qt.Key.Key_End):
            self.on_more()
