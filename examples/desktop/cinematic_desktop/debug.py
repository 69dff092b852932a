"""The debug panel (a dock): the store on screen's last intents, stepped back and forward
through (store.revert). The model is the terminal app's DebugPanel: the same selection and
pin logic; the window gives it ``debug_store()``, ``reverted()``, ``notice`` and ``dirty``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QDockWidget, QHBoxLayout, QLabel, QListWidget, QListWidgetItem, QPushButton, QVBoxLayout, QWidget

from cinematic_tui.debug import HISTORY, DebugPanel, entry_line

if TYPE_CHECKING:
    from cinematic_tui.app import App as TuiApp


class DebugDock(QDockWidget):
    def __init__(self, window: Any) -> None:
        super().__init__("Debug")
        self.setObjectName("debugDock")
        self.model = DebugPanel(cast("TuiApp", window))
        self.model.open = True
        body = QWidget()
        layout = QVBoxLayout(body)
        self.header = QLabel()
        self.header.setObjectName("debugHeader")
        layout.addWidget(self.header)
        buttons = QHBoxLayout()
        self.back = QPushButton("◀ Step back")
        self.back.setObjectName("debugBack")
        self.back.setToolTip("Alt+Left, or [")
        self.forward = QPushButton("Step forward ▶")
        self.forward.setObjectName("debugForward")
        self.forward.setToolTip("Alt+Right, or ]")
        self.latest = QPushButton("Latest")
        self.latest.setObjectName("debugLatest")
        self.back.clicked.connect(lambda: self.step(-1))
        self.forward.clicked.connect(lambda: self.step(1))
        self.latest.clicked.connect(lambda: self.step(HISTORY))
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
        for sequence, delta in (("Alt+Left", -1), ("[", -1), ("Alt+Right", 1), ("]", 1)):
            shortcut = QShortcut(QKeySequence(sequence), body)
            shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            shortcut.activated.connect(lambda d=delta: self.step(d))
        self.visibilityChanged.connect(lambda visible: self.refresh())

    def step(self, delta: int) -> None:
        self.model.step(delta)
        self.refresh()

    def _go_to(self, item: QListWidgetItem) -> None:
        store = self.model.store()
        if store is None:
            return
        entries = self.model.entries(store)
        index = self.entries.row(item)
        if 0 <= index < len(entries):
            self.model.go(store, entries, index)
            self.refresh()

    def refresh(self) -> None:
        if not self.isVisible():
            return
        store = self.model.store()
        entries = self.model.entries(store) if store is not None else []
        index = self.model.selected(store, entries) if store is not None else -1
        if store is None:
            self.header.setText("No store on this screen")
        else:
            shown = "the latest" if index == len(entries) - 1 else f"#{entries[index]['seq']} (time travel)"
            self.header.setText(f"{store.feature} store, {len(entries)} intents, showing {shown}")
        lines = [entry_line(entry) for entry in entries]
        if [self.entries.item(i).text() for i in range(self.entries.count())] != lines:
            self.entries.clear()
            self.entries.addItems(lines)
        if 0 <= index < self.entries.count():
            self.entries.setCurrentRow(index)
            self.entries.scrollToItem(self.entries.item(index))
