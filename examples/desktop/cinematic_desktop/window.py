"""The main window: three tabs (Search, Discover, Favorites), the Detail page over them, the
debug dock and a status bar. Keys: Ctrl+1/2/3 switch tabs, Ctrl+F goes to the search field,
F12 or Ctrl+D opens the debug panel, Ctrl+Q quits; in Detail, F toggles the favorite and
Esc/Backspace/Alt+Left go back. The window's size is kept in QSettings."""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from PySide6.QtCore import QByteArray, QSettings, QSize, Qt
from PySide6.QtGui import QCloseEvent, QKeySequence, QShortcut
from PySide6.QtWidgets import QMainWindow, QStackedWidget, QTabWidget, QWidget

import cinematic
from cinematic import wire

from .bridge import CoreNotifier
from .debug import DebugDock
from .detail import DetailPage
from .discover import DiscoverPage
from .favorites import FavoritesPage
from .movies import MovieList
from .search import SearchPage

ORGANIZATION, APPLICATION = "Cinematic", "cinematic-desktop"
DEFAULT_SIZE = QSize(960, 640)
SEARCH, DISCOVER, FAVORITES = range(3)


class MainWindow(QMainWindow):
    """The pages are built by their modules; the window routes between them, and is the
    ``Shell`` they see (notices, open a film, a store changed) and the debug panel's host."""

    def __init__(self, runtime: cinematic.Runtime, live_url: Optional[str] = None,
                 settings: Optional[QSettings] = None) -> None:
        super().__init__()
        self.setObjectName("mainWindow")
        self.setWindowTitle("Cinematic")
        self.runtime = runtime
        self.live_url = live_url
        self.settings = settings if settings is not None else QSettings(ORGANIZATION, APPLICATION)
        self.dirty = False                  # DebugPanel's model sets it; Qt repaints on its own
        self.ready = False                  # pages call state_changed while being built
        self.core = CoreNotifier(runtime, self.callback_failed)
        self.status = self.statusBar()
        self.status.setObjectName("statusBar")
        self.debug_dock = DebugDock(self)
        self.debug_dock.hide()
        self.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, self.debug_dock)

        self.search = runtime.search()
        self.discover = runtime.discover()
        self.favorites = runtime.favorites()
        self.search_page = SearchPage(self, self.search, live_url)
        self.discover_page = DiscoverPage(self, self.discover, live_url)
        self.favorites_page = FavoritesPage(self, runtime, self.favorites)
        self.detail_page = DetailPage(self, runtime, live_url, self.close_detail)
        self.tabs = QTabWidget()
        self.tabs.setObjectName("tabs")
        self.tabs.addTab(self.search_page, "&Search")
        self.tabs.addTab(self.discover_page, "&Discover")
        self.tabs.addTab(self.favorites_page, "&Favorites")
        self.tabs.currentChanged.connect(self._tab_changed)
        self.stack = QStackedWidget()
        self.stack.addWidget(self.tabs)
        self.stack.addWidget(self.detail_page.scroll_area)
        self.setCentralWidget(self.stack)
        # The widgets scripts and tests reach (their objectName says the same).
        self.search_field, self.search_list = self.search_page.field, self.search_page.list
        self.search_status, self.search_note = self.search_page.status, self.search_page.note
        self.search_message = self.search_page.message
        self.sections, self.section_lists = self.discover_page.sections, self.discover_page.lists
        self.section_stack, self.section_info = self.discover_page.stack, self.discover_page.info
        self.favorites_list, self.favorites_header = self.favorites_page.list, self.favorites_page.header
        self.remove_button, self.undo_button = self.favorites_page.remove_button, self.favorites_page.undo_button
        self.detail_scroll = self.detail_page.scroll_area
        self._shortcuts()
        self._restore_size()
        self.ready = True
        self.state_changed()
        self.search_page.field.setFocus()

    def _shortcuts(self) -> None:
        shortcuts: Sequence[Tuple[str, Callable[[], object]]] = (
            ("F12", self.toggle_debug), ("Ctrl+D", self.toggle_debug), ("Ctrl+Q", self.close),
            ("Ctrl+1", lambda: self.show_tab(SEARCH)), ("Ctrl+2", lambda: self.show_tab(DISCOVER)),
            ("Ctrl+3", lambda: self.show_tab(FAVORITES)), ("Ctrl+F", self.focus_search),
        )
        for sequence, run in shortcuts:
            QShortcut(QKeySequence(sequence), self).activated.connect(run)
        for sequence, action in (("Esc", self.close_detail), ("Backspace", self.close_detail),
                                 ("Alt+Left", self.close_detail), ("F", self.detail_page.toggle_favorite)):
            shortcut = QShortcut(QKeySequence(sequence), self.detail_scroll)
            shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            shortcut.activated.connect(action)

    def _restore_size(self) -> None:
        size = self.settings.value("window/size")
        self.resize(size if isinstance(size, QSize) and size.isValid() else DEFAULT_SIZE)
        geometry = self.settings.value("window/geometry")
        if isinstance(geometry, QByteArray):
            self.restoreGeometry(geometry)

    # ------------------------------------------------------------------ what the pages see (Shell)

    @property
    def notice(self) -> str:
        return self.status.currentMessage()

    @notice.setter
    def notice(self, text: str) -> None:
        if text:
            self.status.showMessage(text)
        else:
            self.status.clearMessage()

    def catch_up(self) -> None:
        """Dispatches what the runtime already queued (the notifier's own dispatch: non-blocking)."""
        self.core.dispatch()

    def state_changed(self) -> None:
        if not self.ready:
            return
        if self.favorites_page.state is not None:
            self.tabs.setTabText(FAVORITES, f"&Favorites ({self.favorites_page.count()})")
        self.debug_dock.refresh()

    def callback_failed(self, error: BaseException) -> None:
        self.notice = f"error: {error}"

    # ------------------------------------------------------------------ navigation

    def open_detail(self, movie: wire.Movie) -> None:
        self.detail_page.open(movie)
        self.stack.setCurrentWidget(self.detail_scroll)
        self.detail_scroll.setFocus()
        self.debug_dock.refresh()

    def close_detail(self) -> None:
        if self.detail_page.close_store():
            self.stack.setCurrentWidget(self.tabs)
            self._tab_changed(self.tabs.currentIndex())

    def show_tab(self, index: int) -> None:
        self.close_detail()
        self.tabs.setCurrentIndex(index)

    def focus_search(self) -> None:
        self.show_tab(SEARCH)
        self.search_field.setFocus()
        self.search_field.selectAll()

    def _tab_changed(self, index: int) -> None:
        if index == DISCOVER:
            self.discover_page.start()
        focus: Dict[int, QWidget] = {SEARCH: self.search_field, DISCOVER: self.discover_page.focus_target(),
                                     FAVORITES: self.favorites_list}
        focus.get(index, self.tabs).setFocus()
        self.debug_dock.refresh()

    # ------------------------------------------------------------------ debugging

    def toggle_debug(self) -> None:
        self.debug_dock.setVisible(not self.debug_dock.isVisible())
        if self.debug_dock.isVisible():
            self.debug_dock.back.setFocus()

    def debug_store(self) -> Optional[cinematic.Store[Any]]:
        """The store behind the screen: Detail's when open, else the current tab's."""
        if self.detail_page.store is not None:
            return self.detail_page.store
        stores: List[cinematic.Store[Any]] = [self.search, self.discover, self.favorites]
        return stores[self.tabs.currentIndex()]

    def reverted(self, store: cinematic.Store[Any], entry: wire.HistoryEntry) -> None:
        """After a time-travel step: the search field shows that state's query (setText does
        not emit textEdited, so no intent is sent); the state itself arrives by dispatch."""
        query = entry["state"].get("query")
        if store is self.search and isinstance(query, str):
            self.search_page.show_query(query)

    # ------------------------------------------------------------------ window

    def closeEvent(self, event: QCloseEvent) -> None:
        self.settings.setValue("window/size", self.size())
        self.settings.setValue("window/geometry", self.saveGeometry())
        self.settings.sync()
        self.core.close()
        super().closeEvent(event)

    # ------------------------------------------------------------------ states by their old names

    @property
    def search_state(self) -> Optional[wire.SearchState]:
        return self.search_page.state

    @property
    def discover_state(self) -> Optional[wire.DiscoverState]:
        return self.discover_page.state

    @property
    def detail_state(self) -> Optional[wire.DetailState]:
        return self.detail_page.state

    @property
    def detail(self) -> Optional[cinematic.DetailStore]:
        return self.detail_page.store


__all__ = ["MainWindow", "MovieList", "ORGANIZATION", "APPLICATION"]
