"""The desktop movie app (PySide6) over libcinematic: Search, Discover, Favorites, Detail.

The core runs on Qt's event loop: the runtime uses queued delivery, and a ``QSocketNotifier``
on ``runtime.fileno()`` calls ``runtime.dispatch()`` when states wait, so every state callback
(and every widget it touches) runs on the GUI thread. No polling timer, no other thread
touches a widget.

Keys: Ctrl+1/2/3 (or Ctrl+Tab) switch tabs; typing in Search searches (the library debounces);
Down moves from the search field into the results; Enter opens the selected film (in the
search field: searches now, or opens the first result); Down/PgDn/End at the bottom of a list
loads more (so does scrolling to it); F toggles the favorite in Detail, Esc/Backspace/Alt+Left
go back; Delete removes a favorite, Ctrl+Z undoes it; F12 or Ctrl+D opens the debug panel
(history of the store on screen; Alt+Left / Alt+Right or its buttons step back and forward).

Options as in the terminal app (examples/python): ``--favorites PATH``, ``--catalog PATH``,
``--record FILE``, ``--live URL``.
"""

from __future__ import annotations

import os
import signal
import socket
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Mapping, Optional, Sequence, cast

from PySide6.QtCore import QByteArray, QSettings, QSize, QSocketNotifier, Qt, QTimer
from PySide6.QtGui import QCloseEvent, QKeyEvent, QKeySequence, QResizeEvent, QShortcut, QShowEvent
from PySide6.QtWidgets import (
    QAbstractItemView, QApplication, QDockWidget, QFrame, QGridLayout, QHBoxLayout, QHeaderView, QLabel,
    QLineEdit, QListWidget, QListWidgetItem, QMainWindow, QProgressBar, QPushButton, QScrollArea, QStackedWidget,
    QTabWidget, QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget,
)

import cinematic
from cinematic import wire
# The terminal app's UI-independent pieces: phases, money, the debug panel's model
# (history entries and time travel through store.revert) and its history size.
from cinematic_tui.app import favorites_path, money, movies_of, phase_of
from cinematic_tui.debug import HISTORY, DebugPanel, entry_line

if TYPE_CHECKING:
    from cinematic_tui.app import App as TuiApp

ORGANIZATION, APPLICATION = "Cinematic", "cinematic-desktop"
DEFAULT_SIZE = QSize(960, 640)
ID_ROLE = Qt.ItemDataRole.UserRole


def source_note(phase: Mapping[str, object], live_url: Optional[str]) -> str:
    """Where a loaded value came from (a live catalog): "live from URL", or the offline note
    "offline, showing saved results from HH:MM"; "" for the embedded catalog."""
    source = phase.get("source") if phase_of(phase) == "loaded" else None
    if source == "cache":
        saved = time.strftime("%H:%M", time.localtime(cast(int, phase.get("cachedAt", 0))))
        return f"offline, showing saved results from {saved}"
    if source == "live":
        return f"live from {live_url}" if live_url else "live"
    return ""


def error_text(error: Mapping[str, Any]) -> str:
    return f"{error['code']}: {error['message']}"


class CoreNotifier:
    """The runtime on Qt's loop: a read notifier on its fd runs ``dispatch`` (GUI thread)."""

    def __init__(self, runtime: cinematic.Runtime, on_error: Callable[[BaseException], None]) -> None:
        self.runtime = runtime
        self.on_error = on_error
        self.notifier = QSocketNotifier(runtime.fileno(), QSocketNotifier.Type.Read)
        self.notifier.activated.connect(self.dispatch)

    def dispatch(self, *_: object) -> None:
        if self.runtime.closed:
            self.notifier.setEnabled(False)
            return
        try:
            self.runtime.dispatch()
        except Exception as error:  # a callback raised: report it, keep the app running
            self.on_error(error)

    def close(self) -> None:
        self.notifier.setEnabled(False)


class MovieList(QTreeWidget):
    """Movies in columns (title, year, rating, runtime, genres); the title elides. Keeps its
    rows when a state only appends (load more), and asks for more at the bottom."""

    COLUMNS = ("Title", "Year", "Rating", "Runtime", "Genres")

    def __init__(self, name: str, on_open: Callable[[wire.Movie], None],
                 on_more: Optional[Callable[[], None]] = None) -> None:
        super().__init__()
        self.setObjectName(name)
        self.on_open = on_open
        self.on_more = on_more
        self.movies: List[wire.Movie] = []
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
        for column, width in ((1, 56), (2, 70), (3, 76), (4, 200)):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.Fixed)
            self.setColumnWidth(column, width)
        self.itemActivated.connect(self._activated)
        self.verticalScrollBar().valueChanged.connect(self._scrolled)
        self.verticalScrollBar().rangeChanged.connect(lambda low, high: self._fill())

    def set_movies(self, movies: List[wire.Movie]) -> None:
        old = [m["id"] for m in self.movies]
        new = [m["id"] for m in movies]
        if new == old:
            self.movies = movies
            return
        if old and new[: len(old)] == old:
            self.movies = movies
            self.addTopLevelItems([self._item(m) for m in movies[len(old):]])
            QTimer.singleShot(0, self._fill)
            return
        self.movies = movies
        self.clear()
        self.addTopLevelItems([self._item(m) for m in movies])
        self.select_first()
        QTimer.singleShot(0, self._fill)   # once laid out (not a polling timer: one shot)

    def _fill(self) -> None:
        """Rows that do not fill the view leave nothing to scroll: ask for more now."""
        if self.on_more is None or not self.movies or not self.isVisible():
            return
        row = self.sizeHintForRow(0)
        if row > 0 and row * self.topLevelItemCount() <= self.viewport().height():
            self.on_more()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        QTimer.singleShot(0, self._fill)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fill()

    @staticmethod
    def _item(movie: wire.Movie) -> QTreeWidgetItem:
        minutes = movie["runtime"]
        item = QTreeWidgetItem([
            movie["title"], str(movie["year"] or ""), f"★ {movie['rating']:.1f}",
            f"{minutes} min" if minutes else "", ", ".join(movie["genres"])])
        item.setToolTip(0, movie["title"])
        item.setData(0, ID_ROLE, movie["id"])
        for column in (1, 2, 3):
            item.setTextAlignment(column, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return item

    def select_first(self) -> None:
        first = self.topLevelItem(0)
        if first is not None:
            self.setCurrentItem(first)

    def titles(self) -> List[str]:
        """What the rows show in the title column (top to bottom)."""
        items = (self.topLevelItem(i) for i in range(self.topLevelItemCount()))
        return [item.text(0) for item in items if item is not None]

    def current_movie(self) -> Optional[wire.Movie]:
        row = self.indexOfTopLevelItem(self.currentItem()) if self.currentItem() is not None else -1
        return self.movies[row] if 0 <= row < len(self.movies) else None

    def _activated(self, item: QTreeWidgetItem, column: int) -> None:
        row = self.indexOfTopLevelItem(item)
        if 0 <= row < len(self.movies):
            self.on_open(self.movies[row])

    def _scrolled(self, value: int) -> None:
        bar = self.verticalScrollBar()
        if self.on_more is not None and bar.maximum() > 0 and value >= bar.maximum():
            self.on_more()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        at_end = self.topLevelItemCount() > 0 and self.currentItem() is self.topLevelItem(self.topLevelItemCount() - 1)
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            movie = self.current_movie()
            if movie is not None:
                self.on_open(movie)
            return
        super().keyPressEvent(event)
        if at_end and self.on_more is not None and event.key() in (
                Qt.Key.Key_Down, Qt.Key.Key_PageDown, Qt.Key.Key_End):
            self.on_more()


class SearchField(QLineEdit):
    """The query; Down moves into the results."""

    def __init__(self, on_down: Callable[[], None]) -> None:
        super().__init__()
        self.on_down = on_down

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Down:
            self.on_down()
            return
        super().keyPressEvent(event)


class DetailPage(QWidget):
    """Everything the catalog has about a film, and the heart."""

    def __init__(self, window: "MainWindow") -> None:
        super().__init__()
        self.setObjectName("detailPage")
        self.window_ = window
        layout = QVBoxLayout(self)
        top = QHBoxLayout()
        self.back = QPushButton("← Back")
        self.back.setObjectName("backButton")
        self.back.setToolTip("Back (Esc, Backspace, Alt+Left)")
        self.back.clicked.connect(window.close_detail)
        top.addWidget(self.back)
        self.title = QLabel()
        self.title.setObjectName("detailTitle")
        self.title.setWordWrap(True)
        self.title.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        font = self.title.font()
        font.setPointSizeF(font.pointSizeF() * 1.6)
        font.setBold(True)
        self.title.setFont(font)
        top.addWidget(self.title, 1)
        self.heart = QPushButton()
        self.heart.setObjectName("heartButton")
        self.heart.setToolTip("Toggle favorite (F)")
        self.heart.clicked.connect(window.toggle_favorite)
        top.addWidget(self.heart)
        layout.addLayout(top)
        self.error = QLabel()
        self.error.setObjectName("favoriteError")
        self.error.setWordWrap(True)
        self.error.setStyleSheet("color: #b00020; font-weight: bold;")
        self.error.hide()
        layout.addWidget(self.error)
        self.note = QLabel()
        self.note.setObjectName("detailNote")
        layout.addWidget(self.note)
        self.message = QLabel()
        self.message.setObjectName("detailMessage")
        layout.addWidget(self.message)
        grid = QGridLayout()
        self.fields: Dict[str, QLabel] = {}
        for row, name in enumerate(("Year", "Runtime", "Genres", "MPAA", "Budget", "Rating", "Votes")):
            label = QLabel(name)
            label.setStyleSheet("font-weight: bold;")
            value = QLabel()
            value.setObjectName(f"field{name}")
            value.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            grid.addWidget(label, row, 0)
            grid.addWidget(value, row, 1)
            self.fields[name] = value
        grid.setColumnStretch(1, 1)
        layout.addLayout(grid)
        heading = QLabel("Share of votes per star rating (IMDb rounds each share; they need not add up to 100%)")
        heading.setWordWrap(True)
        heading.setStyleSheet("font-weight: bold;")
        layout.addWidget(heading)
        bars = QGridLayout()
        self.bars: List[QProgressBar] = []
        for i in range(10):
            stars = 10 - i
            bars.addWidget(QLabel(f"{stars:>2} ★"), i, 0)
            bar = QProgressBar()
            bar.setRange(0, 1000)
            bar.setTextVisible(True)
            bar.setFormat("")
            bars.addWidget(bar, i, 1)
            self.bars.append(bar)
        layout.addLayout(bars)
        layout.addStretch(1)
        for widget in (self.back, self.heart):
            widget.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        QWidget.setTabOrder(self.heart, self.back)

    def show_state(self, state: wire.DetailState, row: Optional[wire.Movie], live_url: Optional[str]) -> None:
        detail = state["detail"]
        loaded = cast(wire.DetailLoaded, detail)["value"] if phase_of(detail) == "loaded" else None
        shown: Optional[Mapping[str, Any]] = loaded if loaded is not None else row
        self.title.setText(f"{shown['title']} ({shown['year']})" if shown else "")
        heart = "♥ Favorite" if state["isFavorite"] else "♡ Add to favorites"
        if state["isSaving"]:
            heart += " (saving…)"
        self.heart.setText(heart)
        self.heart.setEnabled(loaded is not None)
        error = state["favoriteError"]
        if error is not None:
            self.error.setText(f"Could not save the favorite, so it was rolled back: {error_text(error)}")
            self.error.show()
        else:
            self.error.hide()
        note = source_note(detail, live_url)
        self.note.setText(note)
        self.note.setVisible(bool(note))
        phase = phase_of(detail)
        if phase == "loading":
            self.message.setText("Loading the detail…")
        elif phase == "failed":
            self.message.setText(f"Could not load the detail: {error_text(cast(wire.FailedPhase, detail)['error'])}")
        else:
            self.message.setText("")
        self.message.setVisible(phase in ("loading", "failed"))
        movie = loaded
        values = {name: "" for name in self.fields}
        if movie is not None:
            values = {
                "Year": str(movie["year"]),
                "Runtime": f"{movie['runtime']} min",
                "Genres": ", ".join(movie["genres"]) or "none listed",
                "MPAA": movie["mpaa"] or "unknown",
                "Budget": money(movie["budget"]),
                "Rating": f"{movie['rating']:.1f} / 10",
                "Votes": f"{movie['votes']:,}",
            }
        for name, label in self.fields.items():
            label.setText(values[name])
        distribution = [float(x) for x in movie["ratingDistribution"]] if movie is not None else []
        scale = 100.0 if distribution and max(distribution) <= 1.0 else 1.0
        peak = max(distribution) if distribution and max(distribution) > 0 else 1.0
        for i, bar in enumerate(self.bars):
            stars = 10 - i
            share = distribution[stars - 1] if stars - 1 < len(distribution) else None
            bar.setValue(int(share / peak * 1000) if share is not None else 0)
            bar.setFormat(f"{share * scale:.1f}%" if share is not None else "")


class DebugDock(QDockWidget):
    """The store on screen's last intents; step back / forward through them (store.revert).
    The model is the terminal app's DebugPanel: the same selection and pin logic."""

    def __init__(self, window: "MainWindow") -> None:
        super().__init__("Debug")
        self.setObjectName("debugDock")
        self.window_ = window
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


class MainWindow(QMainWindow):
    """The app: three tabs, a Detail page over them, a debug dock and a status bar."""

    def __init__(self, runtime: cinematic.Runtime, live_url: Optional[str] = None,
                 settings: Optional[QSettings] = None) -> None:
        super().__init__()
        self.setObjectName("mainWindow")
        self.setWindowTitle("Cinematic")
        self.runtime = runtime
        self.live_url = live_url
        self.settings = settings if settings is not None else QSettings(ORGANIZATION, APPLICATION)
        self.dirty = False                  # DebugPanel's model sets it; Qt repaints on its own
        self.search_state: Optional[wire.SearchState] = None
        self.discover_state: Optional[wire.DiscoverState] = None
        self.favorites_state: Optional[wire.FavoritesState] = None
        self.detail_state: Optional[wire.DetailState] = None
        self.detail_movie: Optional[wire.Movie] = None
        self.detail: Optional[cinematic.DetailStore] = None
        self.undo_movie: Optional[wire.Movie] = None
        self.restoring: Optional[cinematic.DetailStore] = None
        self.discover_started = False
        self.core = CoreNotifier(runtime, self.callback_failed)

        # Search
        search_page = QWidget()
        search_page.setObjectName("searchPage")
        layout = QVBoxLayout(search_page)
        row = QHBoxLayout()
        self.search_field = SearchField(self._focus_results)
        self.search_field.setObjectName("searchField")
        self.search_field.setPlaceholderText("Search 58,788 films (at least two characters)")
        self.search_field.setClearButtonEnabled(True)
        self.search_field.textEdited.connect(self.query_edited)
        self.search_field.returnPressed.connect(self.search_enter)
        row.addWidget(self.search_field, 1)
        self.search_status = QLabel()
        self.search_status.setObjectName("searchStatus")
        row.addWidget(self.search_status)
        layout.addLayout(row)
        self.search_note = QLabel()
        self.search_note.setObjectName("searchNote")
        self.search_note.hide()
        layout.addWidget(self.search_note)
        self.search_list = MovieList("searchResults", self.open_detail, self.search_more)
        layout.addWidget(self.search_list, 1)
        self.search_message = QLabel("Type at least two characters to search.")
        self.search_message.setObjectName("searchMessage")
        layout.addWidget(self.search_message)
        QWidget.setTabOrder(self.search_field, self.search_list)

        # Discover: the sections on the left, each section's own list (own scroll) on the right
        discover_page = QWidget()
        discover_page.setObjectName("discoverPage")
        columns = QHBoxLayout(discover_page)
        self.sections = QListWidget()
        self.sections.setObjectName("discoverSections")
        self.sections.setMaximumWidth(200)
        self.sections.currentRowChanged.connect(self._section_chosen)
        columns.addWidget(self.sections)
        right = QVBoxLayout()
        self.section_info = QLabel()
        self.section_info.setObjectName("sectionInfo")
        right.addWidget(self.section_info)
        self.section_stack = QStackedWidget()
        right.addWidget(self.section_stack, 1)
        columns.addLayout(right, 1)
        self.section_lists: Dict[str, MovieList] = {}
        refresh = QShortcut(QKeySequence("F5"), discover_page)
        refresh.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        refresh.activated.connect(self.refresh_discover)

        # Favorites
        favorites_page = QWidget()
        favorites_page.setObjectName("favoritesPage")
        layout = QVBoxLayout(favorites_page)
        self.favorites_header = QLabel("Your favorites")
        self.favorites_header.setObjectName("favoritesHeader")
        layout.addWidget(self.favorites_header)
        self.favorites_list = MovieList("favoritesList", self.open_detail)
        layout.addWidget(self.favorites_list, 1)
        row = QHBoxLayout()
        self.remove_button = QPushButton("Remove (Delete)")
        self.remove_button.setObjectName("removeButton")
        self.remove_button.clicked.connect(self.remove_selected)
        self.undo_button = QPushButton("Undo (Ctrl+Z)")
        self.undo_button.setObjectName("undoButton")
        self.undo_button.setEnabled(False)
        self.undo_button.clicked.connect(self.undo_removal)
        row.addWidget(self.remove_button)
        row.addWidget(self.undo_button)
        row.addStretch(1)
        layout.addLayout(row)
        for sequence, action in (("Delete", self.remove_selected), ("Ctrl+Z", self.undo_removal)):
            shortcut = QShortcut(QKeySequence(sequence), favorites_page)
            shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            shortcut.activated.connect(action)

        self.tabs = QTabWidget()
        self.tabs.setObjectName("tabs")
        self.tabs.addTab(search_page, "&Search")
        self.tabs.addTab(discover_page, "&Discover")
        self.tabs.addTab(favorites_page, "&Favorites")
        self.tabs.currentChanged.connect(self._tab_changed)
        self.detail_page = DetailPage(self)
        self.stack = QStackedWidget()
        self.stack.addWidget(self.tabs)
        self.detail_scroll = QScrollArea()
        self.detail_scroll.setWidgetResizable(True)
        self.detail_scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.detail_scroll.setWidget(self.detail_page)
        self.stack.addWidget(self.detail_scroll)
        self.setCentralWidget(self.stack)

        self.debug_dock = DebugDock(self)
        self.debug_dock.hide()
        self.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, self.debug_dock)
        self.debug_dock.visibilityChanged.connect(lambda visible: self.debug_dock.refresh())
        self.status = self.statusBar()
        self.status.setObjectName("statusBar")

        shortcuts: Sequence[tuple[str, Callable[[], object]]] = (
            ("F12", self.toggle_debug), ("Ctrl+D", self.toggle_debug), ("Ctrl+Q", self.close),
            ("Ctrl+1", lambda: self.show_tab(0)), ("Ctrl+2", lambda: self.show_tab(1)),
            ("Ctrl+3", lambda: self.show_tab(2)), ("Ctrl+F", self.focus_search),
        )
        for sequence, run in shortcuts:
            QShortcut(QKeySequence(sequence), self).activated.connect(run)
        for sequence, action in (("Esc", self.close_detail), ("Backspace", self.close_detail),
                                 ("Alt+Left", self.close_detail), ("F", self.toggle_favorite)):
            shortcut = QShortcut(QKeySequence(sequence), self.detail_scroll)
            shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            shortcut.activated.connect(action)

        self.search = runtime.search()
        self.search.subscribe(self._on_search)
        self.discover = runtime.discover()
        self.discover.subscribe(self._on_discover)
        self.favorites = runtime.favorites()
        self.favorites.subscribe(self._on_favorites)
        self.favorites.task()

        size = self.settings.value("window/size")
        self.resize(size if isinstance(size, QSize) and size.isValid() else DEFAULT_SIZE)
        geometry = self.settings.value("window/geometry")
        if isinstance(geometry, QByteArray):
            self.restoreGeometry(geometry)
        self.search_field.setFocus()
        self._update_search()

    # ------------------------------------------------------------------ notices

    @property
    def notice(self) -> str:
        return self.status.currentMessage()

    @notice.setter
    def notice(self, text: str) -> None:
        if text:
            self.status.showMessage(text)
        else:
            self.status.clearMessage()

    def callback_failed(self, error: BaseException) -> None:
        self.notice = f"error: {error}"

    # ------------------------------------------------------------------ states (GUI thread)

    def _on_search(self, raw: cinematic.State) -> None:
        self.search_state = cast(wire.SearchState, raw)
        self._update_search()
        self.debug_dock.refresh()

    def _update_search(self) -> None:
        state = self.search_state
        results: Mapping[str, Any] = state["results"] if state else {"phase": "idle"}
        phase = phase_of(results)
        movies = movies_of(cast(wire.MoviesPhase, results))
        self.search_list.set_movies(movies)
        query = self.search_field.text().strip()
        current = phase == "loaded" and results.get("query") == query
        if len(query) < 2:
            status = ""
        elif phase == "loading" or not current and phase != "failed":
            status = "searching…"
        elif phase == "failed":
            status = f"failed: {cast(wire.ResultsFailed, results)['error']['code']}"
        else:
            count = len(movies)
            status = f"{count} movie{'s' if count != 1 else ''}"
            if state is not None and state["isLoadingMore"]:
                status += ", loading more…"
            elif state is not None and not state["isExhausted"]:
                status += ", scroll for more"
        if state is not None and state["loadMoreError"] is not None:
            status += f" (more failed: {state['loadMoreError']['code']})"
        self.search_status.setText(status)
        note = source_note(results, self.live_url)
        self.search_note.setText(note)
        self.search_note.setVisible(bool(note))
        self.search_note.setStyleSheet("font-weight: bold; color: #a05a00;" if "offline" in note else "color: gray;")
        message = ""
        if phase == "failed":
            error = cast(wire.ResultsFailed, results)["error"]
            message = f"Search failed: {error_text(error)}"
            if self.live_url and error["code"] in ("network", "timeout"):
                message += " (offline, and nothing saved for this search)"
        elif phase == "loaded" and not movies:
            message = "No movies match."
        elif len(query) < 2 and not movies:
            message = "Type at least two characters to search 58,788 films."
        self.search_message.setText(message)
        self.search_message.setVisible(bool(message))

    def _on_discover(self, raw: cinematic.State) -> None:
        self.discover_state = cast(wire.DiscoverState, raw)
        sections = self.discover_state["sections"]
        for i, section in enumerate(sections):
            name = section["section"]
            busy = phase_of(section["movies"]) == "loading" or section["isLoadingMore"]
            label = f"{section['title']}{' …' if busy else ''}"
            if i >= self.sections.count():
                self.sections.addItem(label)
            elif self.sections.item(i).text() != label:
                self.sections.item(i).setText(label)
            if name not in self.section_lists:
                movie_list = MovieList(f"discover-{name}", self.open_detail, self._more_of(name))
                self.section_lists[name] = movie_list
                self.section_stack.addWidget(movie_list)
            self.section_lists[name].set_movies(movies_of(section["movies"]))
        if self.sections.currentRow() < 0 and sections:
            self.sections.setCurrentRow(0)
        self._update_section_info()
        self.debug_dock.refresh()

    def _more_of(self, name: str) -> Callable[[], None]:
        return lambda: self.discover_more(name)

    def current_section(self) -> Optional[wire.DiscoverSection]:
        sections = self.discover_state["sections"] if self.discover_state else []
        row = self.sections.currentRow()
        return sections[row] if 0 <= row < len(sections) else None

    def _section_chosen(self, row: int) -> None:
        section = self.current_section()
        if section is not None:
            self.section_stack.setCurrentWidget(self.section_lists[section["section"]])
        self._update_section_info()

    def _update_section_info(self) -> None:
        section = self.current_section()
        if section is None:
            self.section_info.setText("Loading…" if self.discover_started else "")
            return
        phase = section["movies"]
        if phase_of(phase) == "failed":
            info = f"{section['title']}: could not load: {error_text(cast(wire.FailedPhase, phase)['error'])}"
        elif phase_of(phase) == "loading":
            info = f"{section['title']}: loading…"
        else:
            info = f"{section['title']}: {len(movies_of(phase))} movies"
            if section["isLoadingMore"]:
                info += ", loading more…"
            elif section["isExhausted"]:
                info += ", all loaded"
            else:
                info += ", scroll for more"
        if section["loadMoreError"]:
            info += f" (more failed: {section['loadMoreError']['code']})"
        note = source_note(phase, self.live_url)
        if note:
            info += f" ({note})"
        self.section_info.setText(info)

    def _on_favorites(self, raw: cinematic.State) -> None:
        self.favorites_state = cast(wire.FavoritesState, raw)
        favorites = self.favorites_state["favorites"]
        movies = movies_of(cast(wire.MoviesPhase, favorites))
        self.favorites_list.set_movies(movies)
        self.tabs.setTabText(2, f"&Favorites ({len(movies)})")
        error = self.favorites_state["removalError"]
        if error is not None:
            self.favorites_header.setText(f"Could not remove: {error_text(error)}")
        elif phase_of(favorites) == "failed":
            self.favorites_header.setText(
                f"Could not load favorites: {error_text(cast(wire.FailedPhase, favorites)['error'])}")
        elif phase_of(favorites) == "loaded" and not movies:
            self.favorites_header.setText("No favorites yet: open a movie and click the heart (or press F).")
        else:
            self.favorites_header.setText("Your favorites")
        self.remove_button.setEnabled(bool(movies))
        self.debug_dock.refresh()

    def _on_detail(self, raw: cinematic.State) -> None:
        self.detail_state = cast(wire.DetailState, raw)
        heart = self.detail_page.heart
        was_enabled = heart.isEnabled()
        self.detail_page.show_state(self.detail_state, self.detail_movie, self.live_url)
        if heart.isEnabled() and not was_enabled and self.focusWidget() in (None, self.detail_scroll):
            heart.setFocus()   # once loaded, the heart takes the focus (Space or F toggles)
        self.debug_dock.refresh()

    # ------------------------------------------------------------------ actions

    def query_edited(self, text: str) -> None:
        self.search.query_changed(text)
        self._update_search()

    def search_enter(self) -> None:
        state = self.search_state
        query = self.search_field.text().strip()
        if state is not None and state["results"]["phase"] == "loaded" and state["results"]["query"] == query:
            movies = self.search_list.movies
            movie = self.search_list.current_movie() or (movies[0] if movies else None)
            if movie is not None:
                self.open_detail(movie)
        elif len(query) >= 2:
            self.search.submit()
            self.notice = "searching…"

    def search_more(self) -> None:
        state = self.search_state
        if state is not None and state["results"]["phase"] == "loaded" and not state["isExhausted"] \
                and not state["isLoadingMore"]:
            self.search.load_more()

    def discover_more(self, name: str) -> None:
        sections = self.discover_state["sections"] if self.discover_state else []
        for section in sections:
            if section["section"] == name and not section["isExhausted"] and not section["isLoadingMore"] \
                    and phase_of(section["movies"]) == "loaded":
                self.discover.load_more(name)

    def refresh_discover(self) -> None:
        self.discover.refresh()

    def _focus_results(self) -> None:
        if self.search_list.topLevelItemCount():
            self.search_list.setFocus()
            if self.search_list.currentItem() is None:
                self.search_list.select_first()

    def focus_search(self) -> None:
        self.show_tab(0)
        self.search_field.setFocus()
        self.search_field.selectAll()

    def show_tab(self, index: int) -> None:
        self.close_detail()
        self.tabs.setCurrentIndex(index)

    def _tab_changed(self, index: int) -> None:
        if index == 1 and not self.discover_started:
            self.discover_started = True
            self.discover.task()
        page = self.tabs.widget(index)
        focus = {0: self.search_field, 1: self.section_stack.currentWidget() or self.sections,
                 2: self.favorites_list}.get(index, page)
        if focus is not None:
            focus.setFocus()
        self._update_section_info()
        self.debug_dock.refresh()

    def open_detail(self, movie: wire.Movie) -> None:
        self.close_detail()
        self.detail = self.runtime.detail(int(movie["id"]))
        self.detail_movie = movie
        self.detail_state = {"movieId": movie["id"], "detail": {"phase": "loading"}, "isFavorite": False,
                             "isSaving": False, "favoriteError": None}
        self.detail_page.show_state(self.detail_state, movie, self.live_url)
        self.detail.subscribe(self._on_detail)
        self.detail.task()
        self.stack.setCurrentWidget(self.detail_scroll)
        self.detail_scroll.setFocus()
        self.debug_dock.refresh()

    def close_detail(self) -> None:
        if self.detail is None:
            return
        self.detail.close()
        self.detail = None
        self.detail_state = None
        self.detail_movie = None
        self.stack.setCurrentWidget(self.tabs)
        self._tab_changed(self.tabs.currentIndex())

    def toggle_favorite(self) -> None:
        if self.detail is None or self.detail_state is None:
            return
        if phase_of(self.detail_state["detail"]) != "loaded":
            self.notice = "wait for the detail to load"
            return
        self.detail.toggle_favorite()

    def remove_selected(self) -> None:
        movie = self.favorites_list.current_movie()
        if movie is None:
            return
        self.favorites.remove(int(movie["id"]))
        self.undo_movie = movie
        self.undo_button.setEnabled(True)
        self.notice = f"Removed {movie['title']}: Ctrl+Z or Undo brings it back"

    def undo_removal(self) -> None:
        """A Detail store of the removed movie toggles it back once loaded (as in the terminal app)."""
        movie = self.undo_movie
        if movie is None:
            return
        self.undo_movie = None
        self.undo_button.setEnabled(False)
        if self.restoring is not None:
            self.restoring.close()
        store = self.restoring = self.runtime.detail(int(movie["id"]))
        self.notice = f"Restoring {movie['title']}…"

        def on_state(raw: cinematic.State) -> None:
            state = cast(wire.DetailState, raw)
            if store is not self.restoring or state["isSaving"]:
                return
            loaded = state["detail"]["phase"] == "loaded"
            if loaded and not state["isFavorite"] and state["favoriteError"] is None:
                store.toggle_favorite()
            elif state["isFavorite"] or state["favoriteError"] is not None or state["detail"]["phase"] == "failed":
                self.notice = f"Restored {movie['title']}" if state["isFavorite"] else "Could not restore the favorite"
                store.close()
                self.restoring = None

        store.subscribe(on_state)
        store.task()

    # ------------------------------------------------------------------ debugging

    def toggle_debug(self) -> None:
        self.debug_dock.setVisible(not self.debug_dock.isVisible())
        if self.debug_dock.isVisible():
            self.debug_dock.back.setFocus()

    def debug_store(self) -> Optional[cinematic.Store]:
        """The store behind the screen: Detail's when open, else the current tab's."""
        if self.detail is not None:
            return self.detail
        stores: List[cinematic.Store] = [self.search, self.discover, self.favorites]
        return stores[self.tabs.currentIndex()]

    def reverted(self, store: cinematic.Store, entry: wire.HistoryEntry) -> None:
        """After a time-travel step: the search field shows that state's query (setText does
        not emit textEdited, so no intent is sent); the state itself arrives by dispatch."""
        query = entry["state"].get("query")
        if store is self.search and isinstance(query, str):
            self.search_field.setText(query)

    # ------------------------------------------------------------------ window

    def closeEvent(self, event: QCloseEvent) -> None:
        self.settings.setValue("window/size", self.size())
        self.settings.setValue("window/geometry", self.saveGeometry())
        self.settings.sync()
        self.core.close()
        super().closeEvent(event)


def has_display() -> bool:
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
                or os.environ.get("QT_QPA_PLATFORM", "").startswith("offscreen"))


def main(argv: Optional[List[str]] = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(prog="cinematic-desktop", description="A desktop movie app over libcinematic.")
    parser.add_argument("--favorites", help="favorites database (default: $XDG_DATA_HOME/cinematic/favorites.sqlite)")
    parser.add_argument("--catalog", help="a catalog index built by cinematic-index")
    parser.add_argument("--record", metavar="FILE", help="record the session to FILE (replay: python -m cinematic.replay FILE)")
    parser.add_argument("--live", metavar="URL", help="take the catalog from a movie API (examples/catalog-server)")
    args = parser.parse_args(argv)
    if not has_display():
        print("cinematic-desktop: no display (set DISPLAY or WAYLAND_DISPLAY, or QT_QPA_PLATFORM=offscreen)",
              file=sys.stderr)
        return 2
    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setOrganizationName(ORGANIZATION)
    app.setApplicationName(APPLICATION)
    with StopSignals() as stop:
        return run(args, cast(QApplication, app), stop)


def run(args: Any, app: QApplication, stop: "StopSignals") -> int:
    path = Path(args.favorites) if args.favorites else favorites_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    config: Dict[str, Any] = {"delivery": "queued", "favorites": str(path), "history": HISTORY}
    if args.catalog:
        config["catalog"] = {"path": args.catalog}
    if args.record:
        config["record"] = args.record
    if args.live:
        config["catalog"] = "host"
    try:
        runtime = cinematic.Runtime(config)
    except (cinematic.LibraryNotFoundError, cinematic.CinematicError) as error:
        print(f"cinematic-desktop: cannot start: {error}", file=sys.stderr)
        return 1
    provider = None
    if args.live:
        from cinematic.http_provider import HttpCatalogProvider
        try:
            provider = HttpCatalogProvider(runtime, args.live, timeout=5.0)
        except ValueError as error:
            runtime.close()
            print(f"cinematic-desktop: --live: {error}", file=sys.stderr)
            return 2
        runtime.set_provider(provider)
    with runtime:
        try:
            window = MainWindow(runtime, args.live)
            stop.window = window
            window.show()
            status = app.exec() if stop.signal is None else 0
            if stop.signal is not None:
                status = 128 + stop.signal
        finally:
            if provider is not None:
                provider.close()
    return status


class StopSignals:
    """SIGTERM, SIGINT and SIGHUP close the window like Ctrl+Q (the runtime then closes and a
    recording is complete): the signal's byte arrives on a socket a QSocketNotifier watches
    (signal.set_wakeup_fd), so Python sees it while Qt's loop runs, without a timer."""

    SIGNALS = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)

    def __init__(self) -> None:
        self.window: Optional[QMainWindow] = None
        self.signal: Optional[int] = None
        self.reader, self.writer = socket.socketpair()
        self.reader.setblocking(False)
        self.writer.setblocking(False)
        self.notifier = QSocketNotifier(self.reader.fileno(), QSocketNotifier.Type.Read)
        self.notifier.activated.connect(self._woken)

    def __enter__(self) -> "StopSignals":
        self.previous_fd = signal.set_wakeup_fd(self.writer.fileno())
        self.previous = {number: signal.signal(number, self._handler) for number in self.SIGNALS}
        return self

    def __exit__(self, *exc_info: object) -> None:
        for number, handler in self.previous.items():
            signal.signal(number, handler if handler is not None else signal.SIG_DFL)
        signal.set_wakeup_fd(self.previous_fd)
        self.notifier.setEnabled(False)
        self.reader.close()
        self.writer.close()

    def _handler(self, number: int, frame: object) -> None:
        self.signal = number

    def _woken(self, *_: object) -> None:
        try:
            while self.reader.recv(64):
                pass
        except BlockingIOError:
            pass
        if self.signal is not None and self.window is not None:
            self.window.close()
