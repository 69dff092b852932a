"""The menu bar and the help screen, both made from the app's one keymap: every binding of the
app's screens is a menu entry with its keys (choosing it does what the key does; it acts only
on the screens the keymap names; the debug panel's own keys are its buttons), and the help
(F1) lists the keymap's keys for the screen shown, or the debug panel's while it has the keys
(``keymap.help_lines``). The tabs are in the Go menu too, as clicks on them. Nothing here
keeps state or words an action itself."""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING, Dict, List, Optional, Tuple

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QMenu, QVBoxLayout

from cinematic import keymap, wire

if TYPE_CHECKING:
    from .window import MainWindow

MENUS = ("&File", "&Go", "F&ilm", "&View", "&Help")
#: The menu of a binding, by its action's intent type or its host screen (else Film).
MENU_OF = {"quit": "&File", "tabBy": "&Go", "sectionBy": "&Go", "back": "&Go", "moveBy": "&Go", "pageBy": "&Go",
           "moveToStart": "&Go", "moveToEnd": "&Go", "sortNext": "&View", "dismissNotice": "&View", "debug": "&View",
           "help": "&Help"}


def menu_of(binding: keymap.Binding) -> str:
    kind = binding.host or (binding.action or {}).get("type", "")
    return MENU_OF.get(str(kind), "F&ilm")


class Menus:
    """The window's menu bar: the tabs, then every binding of the keymap by menu."""

    def __init__(self, window: "MainWindow") -> None:
        self.window = window
        self.menus: Dict[str, QMenu] = {name: window.menuBar().addMenu(name) for name in MENUS}
        self.tabs: List[QAction] = []
        self.bindings: List[Tuple[QAction, keymap.Binding]] = []
        for binding in keymap.KEYMAP:
            if binding.screens == (keymap.DEBUG_SCREEN,):
                continue                          # the debug panel's: its buttons
            action = QAction(f"{binding.help}\t{', '.join(binding.keys)}", window)
            action.setObjectName("key" + "".join(c for c in binding.help.title() if c.isalnum())[:40])
            action.triggered.connect(lambda _checked=False, chosen=binding: window.run(chosen))
            self.menus[menu_of(binding)].addAction(action)
            self.bindings.append((action, binding))
        self.menus["&Go"].addSeparator()

    def draw(self, view: wire.AppView) -> None:
        """The tabs as the view names them; each binding enabled on the screens it acts on."""
        if [action.text() for action in self.tabs] != [tab["title"] for tab in view["tabs"]]:
            for action in self.tabs:
                self.menus["&Go"].removeAction(action)
            self.tabs = []
            for tab in view["tabs"]:
                action = QAction(tab["title"], self.window)
                action.triggered.connect(lambda _checked=False, chosen=tab["id"]: self.window.show_tab(chosen))
                self.menus["&Go"].addAction(action)
                self.tabs.append(action)
        for action, binding in self.bindings:
            action.setEnabled(view["screen"] in binding.screens)


def help_html(view: wire.AppView, screen: str) -> str:
    """The help screen's table: the keymap's keys for ``screen`` (the view's, or the debug
    panel's), and what they do."""
    rows = "".join(f"<tr><td><b>{escape(keys, quote=False)}</b></td><td>{escape(what, quote=False)}</td></tr>"
                   for keys, what in keymap.help_lines(screen))
    title = "the debug panel" if screen == keymap.DEBUG_SCREEN else view["title"]
    return f"<h3>Keys: {escape(title, quote=False)}</h3><table cellspacing='6'>{rows}</table>"


class HelpDialog(QDialog):
    """The help screen: the keymap's keys; Esc or Close closes it."""

    def __init__(self, window: "MainWindow") -> None:
        super().__init__(window)
        self.setObjectName("helpDialog")
        self.setWindowTitle("Cinematic: keys")
        layout = QVBoxLayout(self)
        self.table = QLabel()
        self.table.setObjectName("helpTable")
        self.table.setTextFormat(Qt.TextFormat.RichText)
        self.table.setWordWrap(True)
        layout.addWidget(self.table)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)


def show_help(window: "MainWindow", dialog: Optional[HelpDialog], view: wire.AppView, screen: str) -> HelpDialog:
    """Shows the help screen for ``screen`` (made once), without blocking the loop."""
    if dialog is None:
        dialog = HelpDialog(window)
    dialog.table.setText(help_html(view, screen))
    dialog.open()
    dialog.raise_()
    return dialog
