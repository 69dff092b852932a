"""The menu bar (every action, with its shortcut) and the help screen (F1 or ?) that lists the
same table, so what the menus say and what the help says cannot drift apart. The actions
only send app intents through the window (or show a part of it): nothing here keeps state."""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Dict, List, NamedTuple, Optional, Sequence

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QMenu, QVBoxLayout

if TYPE_CHECKING:
    from .window import MainWindow


class Entry(NamedTuple):
    """One action: its menu, its words, its keys (the first is shown), whether the menu owns
    them (False: a page's own key, listed but handled where it applies), and what it does."""
    menu: str
    text: str
    keys: Sequence[str]
    owned: bool
    run: Callable[[], object]


def entries(window: "MainWindow") -> List[Entry]:
    """Every action of the app, menu by menu."""
    send = window.send
    return [
        Entry("&File", "&Quit", ("Ctrl+Q",), True, window.close),
        Entry("&Go", "&Search", ("Ctrl+1",), True, lambda: window.show_tab(0)),
        Entry("&Go", "&Discover", ("Ctrl+2",), True, lambda: window.show_tab(1)),
        Entry("&Go", "&Favorites", ("Ctrl+3",), True, lambda: window.show_tab(2)),
        Entry("&Go", "Search &field", ("Ctrl+F",), True, window.focus_search),
        Entry("&Go", "&Back from a film", ("Esc", "Backspace", "Alt+Left"), False, lambda: send({"type": "back"})),
        Entry("F&ilm", "&Open the selected film", ("Enter",), False, window.open_selected),
        Entry("F&ilm", "Toggle &favorite (in a film)", ("F",), False,
              lambda: send({"type": "detail", "intent": {"type": "favoriteToggled"}})),
        Entry("F&ilm", "&Remove the selected favorite", ("Delete",), False, window.favorites_page.remove_selected),
        Entry("F&ilm", "&Undo the last removal", ("Ctrl+Z",), False, lambda: send({"type": "undo"})),
        Entry("F&ilm", "&Try again what failed", ("F5",), True, lambda: send({"type": "retried"})),
        Entry("&View", "Sort by &title (again: reversed)", ("Ctrl+Alt+1",), True, lambda: window.sort_shown(0)),
        Entry("&View", "Sort by &year (again: reversed)", ("Ctrl+Alt+2",), True, lambda: window.sort_shown(1)),
        Entry("&View", "Sort by &rating (again: reversed)", ("Ctrl+Alt+3",), True, lambda: window.sort_shown(2)),
        Entry("&View", "Sort by &votes (again: reversed)", ("Ctrl+Alt+4",), True, lambda: window.sort_shown(3)),
        Entry("&View", "&Dismiss the notice", ("Ctrl+X",), True, window.dismiss_notice),
        Entry("&View", "Debug &panel (time travel)", ("F12", "Ctrl+D"), True, window.toggle_debug),
        Entry("&Help", "&Keyboard shortcuts", ("F1", "?"), True, window.show_help),
    ]


def build_menus(window: "MainWindow") -> List[QAction]:
    """Fills the window's menu bar; the actions that own their keys act window-wide."""
    actions: List[QAction] = []
    menus: Dict[str, QMenu] = {}
    for entry in entries(window):
        menu = menus.get(entry.menu)
        if menu is None:
            menu = menus[entry.menu] = window.menuBar().addMenu(entry.menu)
        if entry.owned:
            action = QAction(entry.text, window)
            action.setShortcuts([QKeySequence(key) for key in entry.keys])
            action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        else:   # the key belongs to a page (a Detail, the favorites list): shown, not taken
            action = QAction(f"{entry.text}\t{' / '.join(entry.keys)}", window)
        action.setObjectName("action" + "".join(c for c in entry.text.title() if c.isalnum()))
        action.triggered.connect(lambda _checked=False, run=entry.run: run())
        menu.addAction(action)
        window.addAction(action)
        actions.append(action)
    return actions


def help_html(window: "MainWindow") -> str:
    """The help screen's table: every action, its keys, menu by menu."""
    rows = []
    for entry in entries(window):
        keys = " or ".join(entry.keys)
        rows.append(f"<tr><td>{entry.menu.replace('&', '')}</td><td>{entry.text.replace('&', '')}</td>"
                    f"<td><b>{keys}</b></td></tr>")
    return ("<h3>Keyboard shortcuts</h3><p>Every action is in the menus too. In a list: Up and Down move, "
            "Down on the last row loads the next page and moves to its first film.</p>"
            "<table cellspacing='6'>" + "".join(rows) + "</table>")


class HelpDialog(QDialog):
    """The help screen: the shortcut table; Esc or Close closes it."""

    def __init__(self, window: "MainWindow") -> None:
        super().__init__(window)
        self.setObjectName("helpDialog")
        self.setWindowTitle("Cinematic: keyboard shortcuts")
        layout = QVBoxLayout(self)
        self.table = QLabel(help_html(window))
        self.table.setObjectName("helpTable")
        self.table.setTextFormat(Qt.TextFormat.RichText)
        self.table.setWordWrap(True)
        layout.addWidget(self.table)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)


def show_help(window: "MainWindow", dialog: Optional[HelpDialog]) -> HelpDialog:
    """Shows the help screen (made once), without blocking the event loop."""
    if dialog is None:
        dialog = HelpDialog(window)
    dialog.open()
    dialog.raise_()
    return dialog
