"""A tab's screen (Search, Discover, Favorites), drawn from the view: the search field (the
view's query) or the screen's title, the list's status line and the sort, where the answers
came from, the search's hint, Discover's sections, and the rows in view or the message shown
instead of them; on Favorites, Remove and Undo. One screen for the three tabs: the view has one
list at a time. Typing in the field sends ``queryChanged``; a click on a section
``sectionSelected``; the buttons send the keymap's actions."""

from __future__ import annotations

from typing import Callable, List, Optional

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QHBoxLayout, QLabel, QLineEdit, QListWidget, QListWidgetItem, QPushButton, QVBoxLayout, QWidget,
)

from cinematic import keymap, wire

from .rows import RowsView, Shell
from .states import StateView, show_text, wrapping


def button(text: str, kind: str, shell: Shell, name: str) -> QPushButton:
    """A button that sends the keymap's action ``kind``, its keys in its tooltip."""
    pushed = QPushButton(text)
    pushed.setObjectName(name)
    pushed.setToolTip(keymap.keys_for(kind))
    pushed.setFocusPolicy(Qt.FocusPolicy.NoFocus)
    pushed.clicked.connect(lambda: shell.send(keymap.action_for(kind)))
    return pushed


class ListScreen(QWidget):
    """The shown tab: header, notes, sections and rows (or the message instead of them)."""

    def __init__(self, shell: Shell, fitted: Callable[[], None]) -> None:
        super().__init__()
        self.setObjectName("listScreen")
        self.shell = shell
        self.view: Optional[wire.AppView] = None
        layout = QVBoxLayout(self)
        top = QHBoxLayout()
        self.field = QLineEdit()
        self.field.setObjectName("searchField")
        self.field.setClearButtonEnabled(True)
        self.field.textEdited.connect(lambda text: shell.send({"type": "queryChanged", "query": text}))
        self.title = wrapping(QLabel())
        self.title.setObjectName("screenTitle")
        font = self.title.font()
        font.setPointSizeF(font.pointSizeF() * 1.3)
        font.setBold(True)
        self.title.setFont(font)
        self.status = QLabel()
        self.status.setObjectName("listStatus")
        self.sort = button("", "sortNext", shell, "sortButton")
        top.addWidget(self.field, 1)
        top.addWidget(self.title, 1)
        top.addWidget(self.status)
        top.addWidget(self.sort)
        layout.addLayout(top)
        self.source = wrapping(QLabel())
        self.source.setObjectName("sourceNote")
        self.source.setStyleSheet("font-weight: bold; color: #a05a00;")
        self.hint = wrapping(QLabel())
        self.hint.setObjectName("searchHint")
        self.hint.setStyleSheet("font-weight: bold; color: #1f4e99;")
        layout.addWidget(self.source)
        layout.addWidget(self.hint)
        body = QHBoxLayout()
        self.sections = QListWidget()
        self.sections.setObjectName("sections")
        self.sections.setMaximumWidth(170)
        self.sections.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.sections.itemClicked.connect(self._section_clicked)
        self.rows = RowsView(shell)
        self.state_view = StateView("list", self.rows, lambda: shell.send(keymap.action_for("retried")))
        self.state_view.on_resize = fitted
        body.addWidget(self.sections)
        body.addWidget(self.state_view, 1)
        layout.addLayout(body, 1)
        self.buttons = QWidget()
        row = QHBoxLayout(self.buttons)
        row.setContentsMargins(0, 0, 0, 0)
        self.remove = button("Remove", "removeSelected", shell, "removeButton")
        self.undo = button("Undo", "undo", shell, "undoButton")
        row.addWidget(self.remove)
        row.addWidget(self.undo)
        row.addStretch(1)
        layout.addWidget(self.buttons)

    def rows_fitting(self) -> int:
        """How many rows the list's area shows now (what the app is told: ``resized``)."""
        return self.rows.table.rows_fitting(self.state_view.height())

    def _section_clicked(self, item: QListWidgetItem) -> None:
        row = self.sections.row(item)
        if self.view is not None and 0 <= row < len(self.view["sections"]):
            self.shell.send({"type": "sectionSelected", "section": self.view["sections"][row]["id"]})

    # ------------------------------------------------------------------ drawing

    def draw(self, view: wire.AppView, shown: wire.AppListView) -> None:
        self.view = view
        search = view["screen"] == "search"
        self.field.setVisible(search)
        self.title.setVisible(not search)
        if self.field.text() != view["query"]:
            self.field.setText(view["query"])        # a resume, time travel, or a query the app cut
        self.field.setPlaceholderText(view["title"])
        self.title.setText(view["title"])
        show_text(self.status, shown["status"])
        self.sort.setText(view["sortLabel"])
        show_text(self.source, view["source"])
        show_text(self.hint, shown["hint"])
        self._draw_sections(view["sections"] if view["screen"] == "discover" else [])
        self.rows.draw(view, shown)
        self.state_view.show_state(shown["message"], view["actions"]["retried"])
        self.buttons.setVisible(view["screen"] == "favorites")
        self.remove.setEnabled(view["actions"]["removeSelected"])
        self.undo.setEnabled(view["actions"]["undo"])

    def _draw_sections(self, sections: List[wire.AppChoice]) -> None:
        titles = [section["title"] for section in sections]
        self.sections.setVisible(bool(titles))
        if [self.sections.item(i).text() for i in range(self.sections.count())] != titles:
            self.sections.clear()
            self.sections.addItems(titles)
        chosen = [i for i, section in enumerate(sections) if section["chosen"]]
        if chosen:
            self.sections.setCurrentRow(chosen[0])
