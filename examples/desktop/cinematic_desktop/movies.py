"""What every screen shares: the list of movies (columns, elision, the person's place in it),
how a phase, a source, an error and an amount read, and the window as the pages see it."""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Mapping, Optional, Protocol, Tuple, cast

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QKeyEvent, QResizeEvent, QShowEvent
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTreeWidget, QTreeWidgetItem

from cinematic import wire

ID_ROLE = Qt.ItemDataRole.UserRole
#: Where a list is when the person never moved in it (the app's default).
TOP: Tuple[int, int] = (0, 0)


class Shell(Protocol):
    """The window, as a page sees it: it turns what the person did into an app intent."""

    def send(self, intent: Mapping[str, Any]) -> None: ...


def phase_of(value: Optional[Mapping[str, object]]) -> str:
    phase = value.get("phase", "idle") if value is not None else "idle"
    return phase if isinstance(phase, str) else "idle"


def movies_of(value: Optional[Mapping[str, Any]]) -> List[wire.Movie]:
    """The movies of a loaded phase, else none."""
    return cast(List[wire.Movie], value["value"]) if value is not None and value.get("phase") == "loaded" else []


def position_of(state: wire.AppState, name: str) -> Tuple[int, int]:
    """(selection, first visible row) of a list in the app state."""
    position = cast(Optional[Mapping[str, int]], state["positions"].get(name))
    return (position["selection"], position["firstVisible"]) if position else TOP


def money(amount: Optional[int]) -> str:
    return "unknown" if amount is None else f"${amount:,}"


def error_text(error: Mapping[str, Any]) -> str:
    return f"{error['code']}: {error['message']}"


class MovieList(QTreeWidget):
    """Movies in columns (title, year, rating, votes, runtime, genres); the title elides. It
    shows the app's position for its list (``show``) and tells the window what the person did:
    ``moved`` (a selection change; Down on the last row is a selection one past it, the app
    loads the next page), ``opened``, and a scroll to the bottom (the part's ``loadMore``).

    A click on the Title, Year, Rating or Votes header (or View > Sort) shows the rows in that
    order, again for the reverse: a way of looking, kept by the list alone. Positions on the
    wire stay indices in the app's order (``order`` maps a shown row to it)."""

    COLUMNS = ("Title", "Year", "Rating", "Votes", "Runtime", "Genres")
    #: The columns a click sorts, and what they sort by.
    SORT_KEYS: Dict[int, Callable[[wire.Movie], Any]] = {
        0: lambda m: m["title"].casefold(), 1: lambda m: m["year"] or 0, 2: lambda m: m["rating"], 3: lambda m: m["votes"]}

    def __init__(self, name: str, list_id: str, shell: Shell, more: Optional[Mapping[str, Any]] = None) -> None:
        super().__init__()
        self.setObjectName(name)
        self.list_id = list_id
        self.shell = shell
        self.more = more                      # the intent that loads the next page, if any
        self.movies: List[wire.Movie] = []
        self.position = TOP                   # the app's position for this list
        self.applied: Optional[Tuple[int, int]] = None
        self.rendering = False
        self.sort: Optional[Tuple[int, Qt.SortOrder]] = None   # (column, order), None: the app's order
        self.order: List[int] = []                               # shown row -> index in ``movies``
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
        header.setSectionsClickable(True)
        header.sectionClicked.connect(self.sort_by)
        header.setSectionResizeMode(5, QHeaderView.ResizeMode.Stretch)   # genres share the room with the title
        header.setMinimumSectionSize(40)
        for column, width in ((1, 56), (2, 70), (3, 80), (4, 76)):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.Fixed)
            self.setColumnWidth(column, width)
        self.itemActivated.connect(lambda item, column: self._open(self.indexOfTopLevelItem(item)))
        self.currentItemChanged.connect(lambda current, previous: self._moved(self.current_row()))
        self.verticalScrollBar().valueChanged.connect(self._scrolled)
        self.verticalScrollBar().rangeChanged.connect(lambda low, high: self._fill())

    # ------------------------------------------------------------------ rendering

    def show_movies(self, movies: List[wire.Movie], position: Tuple[int, int]) -> None:
        """Shows ``movies`` (appending when a state only appends) at ``position``."""
        self.rendering = True
        try:
            old, new = [m["id"] for m in self.movies], [m["id"] for m in movies]
            replaced = new != old and (self.sort is not None or not (old and new[: len(old)] == old))
            if replaced:
                self.clear()
                self.applied = None
            self.movies = movies
            if new != old:
                self.order = self._ordered()
                start = self.topLevelItemCount()
                self.addTopLevelItems([self._item(movies[i]) for i in self.order[start:]])
                QTimer.singleShot(0, self._fill)   # once laid out (one shot, not a polling timer)
            if position != self.applied or position != self.position:
                self.position = position
                self._apply()
        finally:
            self.rendering = False

    def _apply(self) -> None:
        """Selects and scrolls to ``position`` once its rows are there and the list is shown."""
        selection, first = self.position
        chosen, top = self.topLevelItem(self.shown_row(selection)), self.topLevelItem(self.shown_row(first))
        if chosen is not None and self.current_row() != self.shown_row(selection):
            self.setCurrentItem(chosen)
        if top is not None and self.first_visible() != self.shown_row(first):
            self.scrollToItem(top, QAbstractItemView.ScrollHint.PositionAtTop)
        if chosen is not None:
            self.scrollToItem(chosen)
            if self.isVisible():
                self.applied = self.position

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self._reapply()
        QTimer.singleShot(0, self._fill)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._reapply()
        self._fill()

    def _reapply(self) -> None:
        if self.applied != self.position:
            self.rendering = True
            try:
                self._apply()
            finally:
                self.rendering = False

    @staticmethod
    def _item(movie: wire.Movie) -> QTreeWidgetItem:
        minutes = movie["runtime"]
        item = QTreeWidgetItem([
            movie["title"], str(movie["year"] or ""), f"★ {movie['rating']:.1f}", f"{movie['votes']:,}",
            f"{minutes} min" if minutes else "", ", ".join(movie["genres"])])
        item.setToolTip(0, movie["title"])
        item.setData(0, ID_ROLE, movie["id"])
        for column in (1, 2, 3, 4):
            item.setTextAlignment(column, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return item

    # ------------------------------------------------------------------ reading

    def titles(self) -> List[str]:
        """What the rows show in the title column (top to bottom)."""
        items = (self.topLevelItem(i) for i in range(self.topLevelItemCount()))
        return [item.text(0) for item in items if item is not None]

    def current_row(self) -> int:
        item = self.currentItem()
        return self.indexOfTopLevelItem(item) if item is not None else -1

    def first_visible(self) -> int:
        return max(0, self.indexAt(self.viewport().rect().topLeft()).row())

    def current_movie(self) -> Optional[wire.Movie]:
        row = self.current_row()
        return self.movies[self.order[row]] if 0 <= row < len(self.order) else None

    # ------------------------------------------------------------------ sorting (a way of looking)

    def sort_by(self, column: int) -> None:
        """Shows the rows by ``column`` (ascending; again: descending); another column's click
        sorts by it. Columns that do not sort are ignored."""
        if column not in self.SORT_KEYS:
            return
        ascending = Qt.SortOrder.AscendingOrder
        descending = Qt.SortOrder.DescendingOrder
        same = self.sort is not None and self.sort[0] == column and self.sort[1] == ascending
        self.sort = (column, descending if same else ascending)
        self.header().setSortIndicatorShown(True)
        self.header().setSortIndicator(*self.sort)
        self.rendering = True
        try:
            self.clear()
            self.order = self._ordered()
            self.addTopLevelItems([self._item(self.movies[i]) for i in self.order])
            self.applied = None
            self._apply()
        finally:
            self.rendering = False

    def _ordered(self) -> List[int]:
        indices = list(range(len(self.movies)))
        if self.sort is None:
            return indices
        key = self.SORT_KEYS[self.sort[0]]
        return sorted(indices, key=lambda i: key(self.movies[i]), reverse=self.sort[1] == Qt.SortOrder.DescendingOrder)

    def shown_row(self, index: int) -> int:
        """The row showing ``movies[index]`` (``index`` itself past the end: a page to come)."""
        if self.sort is None or not 0 <= index < len(self.order):
            return index
        return self.order.index(index)

    def index_of(self, row: int) -> int:
        """The index in ``movies`` (the app's order) of the shown ``row``."""
        return self.order[row] if 0 <= row < len(self.order) else row

    # ------------------------------------------------------------------ what the person did

    def select_first(self) -> None:
        first = self.topLevelItem(0)
        if first is not None:
            self.setCurrentItem(first)

    def _moved(self, row: int) -> None:
        item = self.topLevelItem(row)
        if not self.rendering and item is not None:
            self.scrollToItem(item)        # what the view does next: then read the row it shows first
            selection = self.index_of(row)
            self.shell.send({"type": "moved", "list": self.list_id, "selection": selection,
                             "firstVisible": min(self.index_of(self.first_visible()), selection)})

    def _open(self, row: int) -> None:
        if 0 <= row < len(self.order):
            self.shell.send({"type": "opened", "movieId": self.movies[self.order[row]]["id"]})

    def _more(self) -> None:
        if self.more is not None and not self.rendering and self.movies:
            self.shell.send(self.more)

    def _fill(self) -> None:
        """Rows that do not fill the view leave nothing to scroll: ask for more now."""
        row = self.sizeHintForRow(0)
        if self.isVisible() and row > 0 and row * self.topLevelItemCount() <= self.viewport().height():
            self._more()

    def _scrolled(self, value: int) -> None:
        bar = self.verticalScrollBar()
        if bar.maximum() > 0 and value >= bar.maximum():
            self._more()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        count = self.topLevelItemCount()
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self._open(self.current_row())
            return
        at_end = count > 0 and self.current_row() == count - 1
        super().keyPressEvent(event)
        if at_end and event.key() in (Qt.Key.Key_Down, Qt.Key.Key_PageDown, Qt.Key.Key_End):
            self.shell.send({"type": "moved", "list": self.list_id, "selection": count,
                             "firstVisible": min(self.index_of(self.first_visible()), count)})
