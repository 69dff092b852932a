"""The main window: a renderer of ONE app store. It draws the app state (the tab, the three
tab pages, the top of the Detail stack over them, the notice with its Undo) and turns keys
and clicks into app intents; navigation, undo, query fitting, saving and resuming are the
app store's. Keys: Ctrl+1/2/3 switch tabs, Ctrl+F goes to the search field, F5 tries again
what failed, F12 or Ctrl+D opens the debug panel, Ctrl+Q quits; in Detail, F toggles the
favorite and Esc/Backspace/Alt+Left go back. The window's size is kept in QSettings."""

from __future__ import annotations

from typing import Any, Callable, Dict, Mapping, Optional, Sequence, Tuple

from PySide6.QtCore import QByteArray, QSettings, QSize, Qt, QTimer
from PySide6.QtGui import QCloseEvent, QKeySequence, QShortcut
from PySide6.QtWidgets import QLabel, QMainWindow, QPushButton, QStackedWidget, QTabWidget, QWidget

import cinematic
from cinematic import wire

from .bridge import CoreNotifier
from .debug import DebugDock
from .detail import DetailPage
from .discover import DiscoverPage
from .favorites import FavoritesPage
from .menus import HelpDialog, build_menus, show_help
from .movies import MovieList
from .search import SearchPage
from .states import shortened, wrapping

ORGANIZATION, APPLICATION = "Cinematic", "cinematic-desktop"
DEFAULT_SIZE = QSize(960, 640)
#: The frame the focused widget wears (visible focus, whatever the platform's style).
FOCUS_STYLE = ("QTreeView:focus, QListWidget:focus, QLineEdit:focus, QPushButton:focus, QScrollArea:focus "
               "{ border: 2px solid #1f6fd1; }")
TABS: Tuple[wire.AppTab, ...] = ("search", "discover", "favorites")
SEARCH, DISCOVER, FAVORITES = range(3)


class MainWindow(QMainWindow):
    """Shows the app store ``app`` (else opens one: ``{"stateFile": state_file}``, which
    resumes from that file and saves to it by itself); every page is the ``Shell`` its
    intents go through."""

    def __init__(self, runtime: cinematic.Runtime, live_url: Optional[str] = None,
                 settings: Optional[QSettings] = None, state_file: Optional[str] = None, fresh: bool = False,
                 app: Optional[cinematic.AppStore] = None) -> None:
        super().__init__()
        self.setObjectName("mainWindow")
        self.setWindowTitle("Cinematic")
        self.runtime = runtime
        self.live_url = live_url
        self.settings = settings if settings is not None else QSettings(ORGANIZATION, APPLICATION)
        self.state: Optional[wire.AppState] = None
        self.rendering = False
        self.shown: Optional[Tuple[object, ...]] = None     # what is shown: the focus follows it
        self.problem = ""                                    # a host-side error, shown until a notice
        self.core = CoreNotifier(runtime, self.callback_failed)
        args: Dict[str, Any] = {"stateFile": state_file} if state_file else {}
        if fresh:
            args["fresh"] = True
        self.app = app if app is not None else runtime.app(args or None)
        self.search_page = SearchPage(self, live_url)
        self.discover_page = DiscoverPage(self, live_url)
        self.favorites_page = FavoritesPage(self)
        self.detail_page = DetailPage(self, live_url)
        self.tabs = QTabWidget()
        self.tabs.setObjectName("tabs")
        self.tabs.addTab(self.search_page, "&Search")
        self.tabs.addTab(self.discover_page, "&Discover")
        self.tabs.addTab(self.favorites_page, "&Favorites")
        self.tabs.currentChanged.connect(lambda index: None if self.rendering else self.show_tab(index))
        self.stack = QStackedWidget()
        self.stack.addWidget(self.tabs)
        self.stack.addWidget(self.detail_page.scroll_area)
        self.setCentralWidget(self.stack)
        self._status_bar()
        self.debug_dock = DebugDock(self.app, self.core.dispatch)
        self.debug_dock.hide()
        self.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, self.debug_dock)
        # The widgets scripts and tests reach (their objectName says the same).
        self.search_field, self.search_list = self.search_page.field, self.search_page.list
        self.search_status, self.search_note = self.search_page.status, self.search_page.note
        self.search_message, self.search_more_message = self.search_page.view.panel, self.search_page.message
        self.sections, self.section_lists = self.discover_page.sections, self.discover_page.lists
        self.section_stack, self.section_info = self.discover_page.stack, self.discover_page.info
        self.favorites_list, self.favorites_header = self.favorites_page.list, self.favorites_page.header
        self.remove_button, self.undo_button = self.favorites_page.remove_button, self.favorites_page.undo_button
        self.detail_scroll = self.detail_page.scroll_area
        self.help_dialog: Optional[HelpDialog] = None
        self.menu_actions = build_menus(self)
        self._shortcuts()
        self.setStyleSheet(FOCUS_STYLE)
        self._restore_size()
        self.app.subscribe(self.draw)
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
        self.notice_undo.clicked.connect(lambda: self.send({"type": "undo"}))
        self.notice_dismiss = QPushButton("✕")
        self.notice_dismiss.setObjectName("noticeDismiss")
        self.notice_dismiss.setToolTip("Dismiss")
        self.notice_dismiss.clicked.connect(self.dismiss_notice)
        self.status.addWidget(self.notice_label, 1)
        for button in (self.notice_undo, self.notice_dismiss):
            button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            button.hide()
            self.status.addPermanentWidget(button)

    def _shortcuts(self) -> None:
        """A Detail's own keys (the window-wide ones are the menu bar's actions)."""
        for sequence, action in (("Esc", self.detail_page.go_back), ("Backspace", self.detail_page.go_back),
                                 ("Alt+Left", self.detail_page.go_back), ("F", self.detail_page.toggle_favorite)):
            shortcut = QShortcut(QKeySequence(sequence), self.detail_scroll)
            shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            shortcut.activated.connect(action)

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

    def show_tab(self, index: int) -> None:
        self.send({"type": "tabSelected", "tab": TABS[index]})

    def focus_search(self) -> None:
        self.show_tab(SEARCH)
        self.search_field.setFocus()
        self.search_field.selectAll()

    def shown_list(self) -> Optional[MovieList]:
        """The list the tab shows (none while a Detail is open)."""
        if self.state is None or self.state["details"]:
            return None
        lists = {"search": self.search_list, "discover": self.section_stack.currentWidget(),
                 "favorites": self.favorites_list}
        shown = lists.get(self.state["tab"])
        return shown if isinstance(shown, MovieList) else None

    def sort_shown(self, column: int) -> None:
        """Sorts the shown list by ``column`` (title, year, rating, votes), as its header click does."""
        shown = self.shown_list()
        if shown is not None:
            shown.sort_by(column)

    def open_selected(self) -> None:
        """Opens the selected film of the list the tab shows."""
        shown = self.shown_list()
        movie = shown.current_movie() if shown is not None else None
        if movie is not None:
            self.send({"type": "opened", "movieId": movie["id"]})

    def show_help(self) -> None:
        """The help screen (F1 or ?): every action and its keys."""
        self.help_dialog = show_help(self, self.help_dialog)

    def dismiss_notice(self) -> None:
        self.problem = ""
        notice = self.state["notice"] if self.state else None
        if notice is not None:
            self.send({"type": "noticeDismissed", "id": notice["id"]})
        elif self.state is not None:
            self.draw(self.state)

    def callback_failed(self, error: BaseException) -> None:
        self.problem = f"error: {error}"
        self._say(self.problem)
        self.notice_dismiss.show()

    # ------------------------------------------------------------------ drawing (GUI thread)

    def draw(self, state: wire.AppState) -> None:
        self.state = state
        self.rendering = True
        try:
            for page in (self.search_page, self.discover_page, self.favorites_page, self.detail_page):
                page.draw(state)
            self.tabs.setCurrentIndex(TABS.index(state["tab"]))
            self.tabs.setTabText(FAVORITES, f"&Favorites ({self.favorites_page.count()})")
            details = state["details"]
            self.stack.setCurrentWidget(self.detail_scroll if details else self.tabs)
            notice = state["notice"]
            self._say(notice["text"] if notice else self.problem)
            self.notice_undo.setVisible(bool(notice and notice["offersUndo"]))
            self.notice_dismiss.setVisible(notice is not None or bool(self.problem))
            screen = ("detail", len(details), details[-1]["movieId"]) if details else ("tab", state["tab"])
            if screen != self.shown:
                self.shown = screen
                self._focus(state)
        finally:
            self.rendering = False
        self.debug_dock.schedule_refresh()

    def _say(self, text: str) -> None:
        """The status bar's line: wrapped, at most a few lines (the whole text in its tooltip)."""
        self.notice_label.setText(shortened(text, 240))
        self.notice_label.setToolTip(text if text != shortened(text, 240) else "")

    def _focus(self, state: wire.AppState) -> None:
        """The focus follows the screen shown: the heart (or the page) of a Detail, else the tab's."""
        if state["details"]:
            heart = self.detail_page.heart
            (heart if heart.isEnabled() else self.detail_scroll).setFocus()
            return
        focus: Dict[str, QWidget] = {"search": self.search_field, "discover": self.sections,
                                     "favorites": self.favorites_page.view.focus_target()}
        focus[state["tab"]].setFocus()   # (no favorites: the panel that says how to add one)

    @property
    def notice(self) -> str:
        """What the status bar says (the app's notice, or a host error)."""
        return self.notice_label.text()

    # ------------------------------------------------------------------ debugging

    def toggle_debug(self) -> None:
        self.debug_dock.setVisible(not self.debug_dock.isVisible())
        if self.debug_dock.isVisible():
            self.debug_dock.back.setFocus()

    # ------------------------------------------------------------------ window

    def closeEvent(self, event: QCloseEvent) -> None:
        self.settings.setValue("window/size", self.size())
        self.settings.setValue("window/geometry", self.saveGeometry())
        self.settings.sync()
        self.core.close()
        super().closeEvent(event)

    # ------------------------------------------------------------------ the parts of the state

    @property
    def search_state(self) -> Optional[wire.SearchState]:
        return self.state["search"] if self.state else None

    @property
    def discover_state(self) -> Optional[wire.DiscoverState]:
        return self.state["discover"] if self.state else None

    @property
    def detail_state(self) -> Optional[wire.AppDetailState]:
        return self.state["details"][-1] if self.state and self.state["details"] else None


__all__ = ["MainWindow", "MovieList", "ORGANIZATION", "APPLICATION"]
