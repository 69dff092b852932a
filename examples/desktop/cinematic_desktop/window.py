"""The main window: a renderer of ONE app store. It draws the state's ``view`` (the tabs, the
shown tab's screen or the Detail over it) and the notice with its Undo, and turns what the
person does into app intents: every key through the app's one keymap (``keymap.qt_key_name``
names it; the name and the view's screen give the binding; its action goes to the app as it
is, its host screen is the window's: F1 the help, F12 the debug panel, Ctrl+Q quits), text typed in the
search field as ``queryChanged``, clicks on tabs, sections, rows and buttons, and the rows
the list shows (``resized``). Navigation, paging, sorting, undo, notices, every word shown,
saving and resuming are the app store's. The window's size is kept in QSettings."""

from __future__ import annotations

from typing import Any, Mapping, Optional, cast

from PySide6.QtCore import QByteArray, QEvent, QObject, QSettings, QSize, Qt, QTimer
from PySide6.QtGui import QCloseEvent, QKeyEvent
from PySide6.QtWidgets import (
    QApplication, QLabel, QMainWindow, QPushButton, QStackedWidget, QTabBar, QVBoxLayout, QWidget,
)

import cinematic
from cinematic import keymap, wire
from cinematic.timetravel import STEPS

from .bridge import CoreNotifier
from .debug import DebugDock
from .detail import DetailPage
from .menus import HelpDialog, Menus, show_help
from .screen import ListScreen
from .states import shortened, wrapping

ORGANIZATION, APPLICATION = "Cinematic", "cinematic-desktop"
DEFAULT_SIZE = QSize(960, 640)
#: The frame the focused field wears (visible focus, whatever the platform's style).
FOCUS_STYLE = "QLineEdit:focus { border: 2px solid #1f6fd1; }"


class MainWindow(QMainWindow):
    """Shows the app store ``app`` (else opens one: ``{"stateFile": state_file}``, which
    resumes from that file and saves to it by itself)."""

    def __init__(self, runtime: cinematic.Runtime, settings: Optional[QSettings] = None,
                 state_file: Optional[str] = None, app: Optional[cinematic.AppStore] = None) -> None:
        super().__init__()
        self.setObjectName("mainWindow")
        self.setWindowTitle("Cinematic")
        self.runtime = runtime
        self.settings = settings if settings is not None else QSettings(ORGANIZATION, APPLICATION)
        self.state: Optional[wire.AppState] = None
        self.rendering = False
        self.shown = ""                  # the screen shown: the focus follows it
        self.problem = ""                # a host-side error, shown until dismissed
        self.core = CoreNotifier(runtime, self.callback_failed)
        self.app = app if app is not None else runtime.app({"stateFile": state_file} if state_file else None)
        self.tab_bar = QTabBar()
        self.tab_bar.setObjectName("tabs")
        self.tab_bar.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.tab_bar.tabBarClicked.connect(self._tab_clicked)
        self.list_screen = ListScreen(self, self.fit)
        self.detail_page = DetailPage(self)
        self.stack = QStackedWidget()
        self.stack.setFocusPolicy(Qt.FocusPolicy.ClickFocus)   # where keys go when no field takes them
        self.stack.addWidget(self.list_screen)
        self.stack.addWidget(self.detail_page.scroll_area)
        central = QWidget()
        layout = QVBoxLayout(central)
        layout.setContentsMargins(4, 4, 4, 0)
        layout.addWidget(self.tab_bar)
        layout.addWidget(self.stack, 1)
        self.setCentralWidget(central)
        self._status_bar()
        self.debug_dock = DebugDock(self.app, self.core.dispatch)
        self.debug_dock.hide()
        self.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, self.debug_dock)
        self.search_field, self.rows = self.list_screen.field, self.list_screen.rows.table
        self.detail_scroll = self.detail_page.scroll_area
        self.help_dialog: Optional[HelpDialog] = None
        self.menus = Menus(self)
        self.setStyleSheet(FOCUS_STYLE)
        self._restore_size()
        self.app.subscribe(self.draw)
        cast(QApplication, QApplication.instance()).installEventFilter(self)   # every key through the keymap
        self.send({"type": "task"})

    def _status_bar(self) -> None:
        """The notice (the app's words), its Undo when it offers one, and a dismiss button."""
        self.status = self.statusBar()
        self.status.setObjectName("statusBar")
        self.notice_label = wrapping(QLabel())
        # At most four lines (a long error is shortened, whole in the tooltip): never taller.
        self.notice_label.setMaximumHeight(self.notice_label.fontMetrics().lineSpacing() * 4 + 4)
        self.notice_label.setObjectName("noticeLabel")
        self.notice_undo = QPushButton("Undo")
        self.notice_undo.setObjectName("noticeUndo")
        self.notice_undo.setToolTip(keymap.keys_for("undo"))
        self.notice_undo.clicked.connect(lambda: self.send(keymap.action_for("undo")))
        self.notice_dismiss = QPushButton("✕")
        self.notice_dismiss.setObjectName("noticeDismiss")
        self.notice_dismiss.setToolTip(f"Dismiss ({keymap.keys_for('dismissNotice')})")
        self.notice_dismiss.clicked.connect(self.dismiss_notice)
        self.status.addWidget(self.notice_label, 1)
        for button in (self.notice_undo, self.notice_dismiss):
            button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            button.hide()
            self.status.addPermanentWidget(button)

    def _restore_size(self) -> None:
        size = self.settings.value("window/size")
        self.resize(size if isinstance(size, QSize) and size.isValid() else DEFAULT_SIZE)
        geometry = self.settings.value("window/geometry")
        if isinstance(geometry, QByteArray):
            self.restoreGeometry(geometry)

    # ------------------------------------------------------------------ intents

    def send(self, intent: Mapping[str, Any]) -> None:
        """Sends an app intent, then takes the states already waiting (never blocks): what the
        person did is drawn before the next key. A widget signal raised while a state is being
        drawn sends once that is over."""
        if self.rendering or self.core.dispatching:
            QTimer.singleShot(0, lambda: self.send(intent))
            return
        try:
            self.app.send(dict(intent))
        except Exception as error:   # the store closed under us, or a drawing failed: say so
            self.callback_failed(error)
            return
        self.core.dispatch()

    def run(self, binding: keymap.Binding) -> None:
        """What a key (or its menu entry) does: its action, the window's own screen, or a step
        of the debug panel."""
        if binding.action is not None:
            self.send(binding.action)
        elif binding.host == "help":
            self.show_help()
        elif binding.host == "debug":
            self.toggle_debug()
        elif binding.host == "quit":
            self.close()
        elif binding.host in STEPS:
            self.debug_dock.step(STEPS[binding.host])

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Every key pressed in the window: the states already waiting are drawn first (a key
        acts on the newest screen), then its binding on the screen shown (the debug panel's
        while it has the keys) acts. Keys the keymap leaves free go on: to the search field
        (text typed anywhere on Search goes there), to the debug panel's widgets, to a dialog."""
        if event.type() != QEvent.Type.KeyPress or not isinstance(watched, QWidget) or watched.window() is not self:
            return False
        key = cast(QKeyEvent, event)
        if not self.rendering:
            self.core.dispatch()
        if self.state is None:
            return False
        screen = self.keys_screen(self.state["view"])
        binding = keymap.binding_for(keymap.qt_key_name(key.key(), key.modifiers().value), screen)
        if binding is not None:
            self.run(binding)
            return True
        if screen == "search" and watched is not self.search_field and key.text().isprintable() \
                and key.text() and not key.modifiers() & ~Qt.KeyboardModifier.ShiftModifier:
            self.search_field.setFocus()
            QApplication.sendEvent(self.search_field, QKeyEvent(key.type(), key.key(), key.modifiers(), key.text()))
            return True
        return False

    def show_tab(self, tab: str) -> None:
        self.send({"type": "tabSelected", "tab": tab})

    def _tab_clicked(self, index: int) -> None:
        tabs = self.state["view"]["tabs"] if self.state else []
        if 0 <= index < len(tabs):
            self.show_tab(tabs[index]["id"])

    def fit(self) -> None:
        """Tells the app how many rows the shown list has room for when its view says another
        number (never to a state the debug panel travelled to: it stays as it was)."""
        listed = self.state["view"]["list"] if self.state is not None else None
        if listed is None or not self.list_screen.isVisible():
            return
        rows = self.list_screen.rows_fitting()
        if rows != listed["visibleRows"] and not self.debug_dock.travel.in_the_past:
            self.send({"type": "resized", "rows": rows})

    def keys_screen(self, view: wire.AppView) -> str:
        """The keymap's screen the keys act on: the debug panel's while it has them, else the view's."""
        return keymap.DEBUG_SCREEN if self.debug_dock.has_keys() else view["screen"]

    def show_help(self) -> None:
        """The help screen (F1): the keymap's keys for the screen shown, or the debug panel's."""
        if self.state is not None:
            view = self.state["view"]
            self.help_dialog = show_help(self, self.help_dialog, view, self.keys_screen(view))

    def dismiss_notice(self) -> None:
        if self.problem:
            self.problem = ""
            if self.state is not None:
                self.draw(self.state)
        else:
            self.send(keymap.action_for("dismissNotice"))

    def callback_failed(self, error: BaseException) -> None:
        self.problem = f"error: {error}"
        self._say(self.problem)
        self.notice_dismiss.show()

    # ------------------------------------------------------------------ drawing (GUI thread)

    def draw(self, state: wire.AppState) -> None:
        self.state = state
        view = state["view"]
        self.rendering = True
        try:
            self._draw_tabs(view)
            if view["detail"] is not None:
                self.detail_page.draw(view, view["detail"])
                self.stack.setCurrentWidget(self.detail_scroll)
            elif view["list"] is not None:
                self.list_screen.draw(view, view["list"])
                self.stack.setCurrentWidget(self.list_screen)
            notice = state["notice"]
            self._say(notice["text"] if notice else self.problem)
            self.notice_undo.setVisible(bool(notice and notice["offersUndo"]))
            self.notice_dismiss.setVisible(notice is not None or bool(self.problem))
            self.menus.draw(view)
            if view["screen"] != self.shown:
                self.shown = view["screen"]
                self._focus(view)
        finally:
            self.rendering = False
        self.debug_dock.schedule_refresh()
        self.fit()

    def _draw_tabs(self, view: wire.AppView) -> None:
        for i, tab in enumerate(view["tabs"]):
            if i >= self.tab_bar.count():
                self.tab_bar.addTab(tab["title"])
            elif self.tab_bar.tabText(i) != tab["title"]:
                self.tab_bar.setTabText(i, tab["title"])
            if tab["chosen"]:
                self.tab_bar.setCurrentIndex(i)

    def _say(self, text: str) -> None:
        """The status bar's line: wrapped, at most a few lines (the whole text in its tooltip)."""
        self.notice_label.setText(shortened(text, 240))
        self.notice_label.setToolTip(text if text != shortened(text, 240) else "")

    def _focus(self, view: wire.AppView) -> None:
        """The keys follow the screen shown: Search's field takes the text typed; elsewhere the
        screen has the keys (the debug panel keeps them while it has them)."""
        if self.debug_dock.has_keys():
            return
        (self.search_field if view["screen"] == "search" else self.stack).setFocus()

    @property
    def notice(self) -> str:
        """What the status bar says (the app's notice, or a host error)."""
        return self.notice_label.text()

    # ------------------------------------------------------------------ debugging

    def toggle_debug(self) -> None:
        self.debug_dock.setVisible(not self.debug_dock.isVisible())
        if self.debug_dock.isVisible():
            self.debug_dock.back.setFocus()
        elif self.state is not None:
            self._focus(self.state["view"])

    # ------------------------------------------------------------------ window

    def closeEvent(self, event: QCloseEvent) -> None:
        self.settings.setValue("window/size", self.size())
        self.settings.setValue("window/geometry", self.saveGeometry())
        self.settings.sync()
        self.core.close()
        cast(QApplication, QApplication.instance()).removeEventFilter(self)
        super().closeEvent(event)

    # ------------------------------------------------------------------ the parts of the state

    @property
    def view(self) -> Optional[wire.AppView]:
        return self.state["view"] if self.state else None

    @property
    def search_state(self) -> Optional[wire.SearchState]:
        return self.state["search"] if self.state else None


__all__ = ["MainWindow", "ORGANIZATION", "APPLICATION"]
