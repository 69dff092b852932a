"""The rows in view of the shown list (the view's ``list``: from ``firstVisible``, as many as
the window told the app it shows), with a scroll bar that says where they are in the list.
The app chose them, sorted them and selected one; the table draws them and turns pointer
events into intents: a click selects (``moved``), a double click opens (``opened``), a wheel
notch moves (``moveBy``), the bar's arrows and troughs are the keymap's Down, Up, PageDown,
PageUp, Home and End, a drag moves to the row dragged to, and a column's header sorts by it
(``sortChanged``). Nothing here counts pages or sorts."""

from __future__ import annotations

from typing import Any, Dict, Mapping, Optional, Protocol

from PySide6.QtCore import Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import (
    QAbstractItemView, QAbstractSlider, QApplication, QHBoxLayout, QHeaderView, QScrollBar, QTableWidget,
    QTableWidgetItem, QWidget,
)

from cinematic import keymap, wire

COLUMNS = ("Title", "Year", "Rating", "Genres")
#: The sort a column's header asks for, and how its arrow points (Genres sorts nothing).
SORTS: Dict[int, "tuple[wire.AppSort, Qt.SortOrder]"] = {
    0: ("title", Qt.SortOrder.AscendingOrder), 1: ("year", Qt.SortOrder.DescendingOrder),
    2: ("rating", Qt.SortOrder.DescendingOrder)}
Slider = QAbstractSlider.SliderAction
#: The scroll bar's arrows and troughs, as the keys that do the same.
BAR_KEYS = {Slider.SliderSingleStepAdd: "Down", Slider.SliderSingleStepSub: "Up", Slider.SliderPageStepAdd: "PageDown",
            Slider.SliderPageStepSub: "PageUp", Slider.SliderToMinimum: "Home", Slider.SliderToMaximum: "End"}
SELECTED = "QTableWidget::item:selected { background: #1f6fd1; color: white; }"


class Shell(Protocol):
    """The window, as a part of it sees it: it sends an app intent."""

    def send(self, intent: Mapping[str, Any]) -> None: ...


class RowsTable(QTableWidget):
    """The rows: title (elided), year, rating, genres; the selected one highlighted."""

    def __init__(self, shell: Shell) -> None:
        super().__init__(0, len(COLUMNS))
        self.setObjectName("rows")
        self.shell = shell
        self.shown: Optional[wire.AppListView] = None
        self.turned = 0                                    # a wheel's angle not yet a notch
        self.setHorizontalHeaderLabels(list(COLUMNS))
        self.verticalHeader().hide()
        self.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.verticalHeader().setDefaultSectionSize(self.row_height())
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.setWordWrap(False)
        self.setAlternatingRowColors(True)
        self.setShowGrid(False)
        self.setStyleSheet(SELECTED)
        header = self.horizontalHeader()
        header.setMinimumSectionSize(40)
        for column, mode in enumerate((QHeaderView.ResizeMode.Stretch, QHeaderView.ResizeMode.Fixed,
                                       QHeaderView.ResizeMode.Fixed, QHeaderView.ResizeMode.Stretch)):
            header.setSectionResizeMode(column, mode)
        self.setColumnWidth(1, 56)
        self.setColumnWidth(2, 70)
        header.sectionClicked.connect(self._sort)
        self.cellClicked.connect(lambda row, column: self._select(row))
        self.cellDoubleClicked.connect(self._open)

    def row_height(self) -> int:
        return self.fontMetrics().height() + 8

    def rows_fitting(self, height: int) -> int:
        """How many rows a table ``height`` pixels high shows (at least 1, at most 500)."""
        room = height - self.horizontalHeader().sizeHint().height() - 2 * self.frameWidth()
        return max(1, min(500, room // self.row_height()))

    def draw(self, shown: wire.AppListView, sort: wire.AppSort) -> None:
        self.shown = shown
        rows = shown["rows"]
        self.setRowCount(len(rows))
        for i, row in enumerate(rows):
            for column, text in enumerate((row["title"], row["year"], f"★ {row['rating']}", row["genres"])):
                item = self.item(i, column)
                if item is None:
                    item = QTableWidgetItem()
                    if column in (1, 2):
                        item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                    self.setItem(i, column, item)
                if item.text() != text:
                    item.setText(text)
                    item.setToolTip(text if column in (0, 3) else "")
        selected = [i for i, row in enumerate(rows) if row["selected"]]
        if selected:
            self.selectRow(selected[0])
        else:
            self.clearSelection()
        header = self.horizontalHeader()
        columns = [c for c, (name, _) in SORTS.items() if name == sort]
        header.setSortIndicatorShown(bool(columns))
        if columns:
            header.setSortIndicator(columns[0], SORTS[columns[0]][1])

    # ------------------------------------------------------------------ what the person did

    def _select(self, row: int) -> None:
        if self.shown is not None:
            first = self.shown["firstVisible"]
            self.shell.send({"type": "moved", "list": self.shown["list"], "selection": first + row, "firstVisible": first})

    def _open(self, row: int, column: int) -> None:
        if self.shown is not None and 0 <= row < len(self.shown["rows"]):
            self.shell.send({"type": "opened", "movieId": self.shown["rows"][row]["id"]})

    def _sort(self, column: int) -> None:
        if column in SORTS:
            self.shell.send({"type": "sortChanged", "sort": SORTS[column][0]})

    def wheelEvent(self, event: QWheelEvent) -> None:
        """A notch moves the selection by the lines a notch scrolls (the rows follow it)."""
        self.turned += event.angleDelta().y()
        notches = int(self.turned / 120)
        self.turned -= notches * 120
        if notches and self.shown is not None:
            self.shell.send({"type": "moveBy", "delta": -notches * QApplication.wheelScrollLines()})
        event.accept()


class RowsView(QWidget):
    """The table and, when the list holds more than it shows, its scroll bar."""

    def __init__(self, shell: Shell) -> None:
        super().__init__()
        self.shell = shell
        self.shown_screen = "search"
        self.table = RowsTable(shell)
        self.bar = QScrollBar(Qt.Orientation.Vertical)
        self.bar.setObjectName("rowsBar")
        self.bar.actionTriggered.connect(self._bar)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.bar)

    def draw(self, view: wire.AppView, shown: wire.AppListView) -> None:
        self.shown_screen = view["screen"]
        self.table.draw(shown, view["sort"])
        self.bar.setVisible(shown["count"] > len(shown["rows"]) or shown["firstVisible"] > 0)
        self.bar.setRange(0, max(0, shown["count"] - shown["visibleRows"]))
        self.bar.setPageStep(shown["visibleRows"])
        if not self.bar.isSliderDown():
            self.bar.setValue(shown["firstVisible"])

    def _bar(self, action: int) -> None:
        """An arrow or a trough: its key's action; a drag: the row dragged to, selected."""
        shown, kind = self.table.shown, Slider(action)
        if kind == Slider.SliderMove and shown is not None:
            row = self.bar.sliderPosition()
            self.shell.send({"type": "moved", "list": shown["list"], "selection": row, "firstVisible": row})
            return
        binding = keymap.binding_for(BAR_KEYS.get(kind), self.shown_screen)
        if binding is not None and binding.action is not None:
            self.shell.send(binding.action)
