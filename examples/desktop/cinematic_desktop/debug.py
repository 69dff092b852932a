"""The debug panel (a dock): the app store's last intents, stepped back and forward through.
A step is one ``revert`` of the app store: the whole app (tab, query, lists, positions,
Detail stack, notice) takes that entry's state, which arrives like any other and is drawn.
While the dock has the keys they are the keymap's "debug" screen (the window looks them up:
[ and ] step, Home and End go to the oldest and the latest, Escape closes); its buttons do the
same steps."""

from __future__ import annotations

from typing import Callable

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QDockWidget, QHBoxLayout, QLabel, QListWidget, QListWidgetItem, QPushButton, QVBoxLayout, QWidget

from cinematic import keymap
from cinematic.timetravel import STEPS, TimeTravel, entry_line
from cinematic.features import AppStore    # (not exported by the package yet)


class DebugDock(QDockWidget):
    def __init__(self, store: AppStore, catch_up: Callable[[], None]) -> None:
        super().__init__("Debug")
        self.setObjectName("debugDock")
        self.store = store
        self.catch_up = catch_up     # draws the reverted state now (it waits in the queue)
        self.travel = TimeTravel(store)
        self.pending = False
        body = QWidget()
        layout = QVBoxLayout(body)
        self.header = QLabel()
        self.header.setObjectName("debugHeader")
        layout.addWidget(self.header)
        buttons = QHBoxLayout()
        self.back = QPushButton("◀ Step back")
        self.back.setObjectName("debugBack")
        self.back.setToolTip(keymap.keys_for("stepBack"))
        self.forward = QPushButton("Step forward ▶")
        self.forward.setObjectName("debugForward")
        self.forward.setToolTip(keymap.keys_for("stepForward"))
        self.latest = QPushButton("Latest")
        self.latest.setObjectName("debugLatest")
        self.latest.setToolTip(keymap.keys_for("latest"))
        self.back.clicked.connect(lambda: self.step(STEPS["stepBack"]))
        self.forward.clicked.connect(lambda: self.step(STEPS["stepForward"]))
        self.latest.clicked.connect(lambda: self.step(STEPS["latest"]))
        for button in (self.back, self.forward, self.latest):
            buttons.addWidget(button)
        buttons.addStretch(1)
        layout.addLayout(buttons)
        self.entries = QListWidget()
        self.entries.setObjectName("debugEntries")
        self.entries.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.entries.itemActivated.connect(self._go_to)
        layout.addWidget(self.entries)
        self.setWidget(body)
        self.visibilityChanged.connect(lambda visible: self.refresh())

    def has_keys(self) -> bool:
        """True while the keys are the dock's (one of its widgets has the focus): the keymap's
        "debug" screen."""
        focused = QApplication.focusWidget()
        return focused is not None and self.isAncestorOf(focused)

    def step(self, delta: int) -> None:
        if self.travel.step(delta) is not None:
            self.reverted()

    def go(self, index: int) -> None:
        """Time travel: the app store takes the state after entry ``index`` (one revert)."""
        if self.travel.go(index) is not None:
            self.reverted()

    def reverted(self) -> None:
        self.catch_up()
        self.refresh()

    def _go_to(self, item: QListWidgetItem) -> None:
        self.go(self.entries.row(item))

    def schedule_refresh(self) -> None:
        """A refresh once the current events are handled (many states: one history read)."""
        if self.isVisible() and not self.pending:
            self.pending = True
            QTimer.singleShot(0, self.refresh)

    def refresh(self) -> None:
        self.pending = False
        if not self.isVisible():
            return
        entries = self.travel.entries()
        index = self.travel.selected(entries)
        self.header.setText(self.travel.caption(entries))
        lines = [entry_line(entry) for entry in entries]
        if [self.entries.item(i).text() for i in range(self.entries.count())] != lines:
            self.entries.clear()
            self.entries.addItems(lines)
        if 0 <= index < self.entries.count():
            self.entries.setCurrentRow(index)
            self.entries.scrollToItem(self.entries.item(index))
