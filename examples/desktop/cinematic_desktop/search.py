"""The Search screen: the query (the library debounces it), the results with year, rating,
runtime and genres, more as you scroll, and what the search is doing."""

from __future__ import annotations

from typing import Any, Callable, Mapping, Optional, Tuple, cast

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QHBoxLayout, QLabel, QLineEdit, QVBoxLayout, QWidget

import cinematic
from cinematic import wire
from cinematic_tui.app import movies_of, phase_of

from .movies import MovieList, Shell, error_text, source_note

#: The library's bound on a query (include/cinematic.h: 256 characters and 1024 UTF-8 bytes;
#: longer ones are refused). A longer paste is cut to fit, and the status bar says so.
MAX_QUERY_CHARS, MAX_QUERY_BYTES = 256, 1024


def fit_query(text: str) -> Tuple[str, bool]:
    """``text`` cut to the library's bounds (code points, then whole UTF-8 characters), and
    whether it changed. Characters that UTF-8 cannot carry (lone surrogates) become U+FFFD."""
    fitted = "".join("\ufffd" if 0xD800 <= ord(c) <= 0xDFFF else c for c in text[:MAX_QUERY_CHARS])
    data = fitted.encode("utf-8")
    if len(data) > MAX_QUERY_BYTES:
        fitted = data[:MAX_QUERY_BYTES].decode("utf-8", "ignore")
    return fitted, fitted != text


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


class SearchPage(QWidget):
    """The field, a status on its right, the source note, the results and a message line."""

    def __init__(self, shell: Shell, store: cinematic.SearchStore, live_url: Optional[str]) -> None:
        super().__init__()
        self.setObjectName("searchPage")
        self.shell = shell
        self.store = store
        self.live_url = live_url
        self.state: Optional[wire.SearchState] = None
        layout = QVBoxLayout(self)
        row = QHBoxLayout()
        self.field = SearchField(self.focus_results)
        self.field.setObjectName("searchField")
        self.field.setPlaceholderText("Search 58,788 films (at least two characters)")
        self.field.setClearButtonEnabled(True)
        self.field.textEdited.connect(self.query_edited)
        self.field.returnPressed.connect(self.enter)
        row.addWidget(self.field, 1)
        self.status = QLabel()
        self.status.setObjectName("searchStatus")
        row.addWidget(self.status)
        layout.addLayout(row)
        self.note = QLabel()
        self.note.setObjectName("searchNote")
        self.note.hide()
        layout.addWidget(self.note)
        self.list = MovieList("searchResults", shell.open_detail, self.more)
        layout.addWidget(self.list, 1)
        self.message = QLabel("Type at least two characters to search.")
        self.message.setObjectName("searchMessage")
        layout.addWidget(self.message)
        QWidget.setTabOrder(self.field, self.list)
        store.subscribe(self.on_state)
        self.update_view()

    # ------------------------------------------------------------------ actions

    def query_edited(self, text: str) -> None:
        query, cut = fit_query(text)
        if cut:
            self.field.setText(query)          # setText does not emit textEdited
            if len(text) > MAX_QUERY_CHARS:    # else only unsendable characters were replaced
                self.shell.notice = (f"The query was cut to {MAX_QUERY_CHARS} characters "
                                     f"({MAX_QUERY_BYTES} bytes), the longest the catalog searches")
        try:
            self.store.query_changed(query)
        except cinematic.CinematicError as error:   # the store closed under us: say so
            self.shell.notice = f"error: {error}"
        self.update_view()

    def enter(self) -> None:
        self.shell.catch_up()  # results already delivered but not yet dispatched count too
        state = self.state
        query = self.field.text().strip()
        if state is not None and state["results"]["phase"] == "loaded" and state["results"]["query"] == query:
            movies = self.list.movies
            movie = self.list.current_movie() or (movies[0] if movies else None)
            if movie is not None:
                self.shell.open_detail(movie)
        elif len(query) >= 2:
            self.store.submitted()
            self.shell.notice = "searching…"

    def more(self) -> None:
        state = self.state
        if state is not None and state["results"]["phase"] == "loaded" and not state["isExhausted"] \
                and not state["isLoadingMore"]:
            self.store.load_more()

    def focus_results(self) -> None:
        if self.list.topLevelItemCount():
            self.list.setFocus()
            if self.list.currentItem() is None:
                self.list.select_first()

    def show_query(self, query: str) -> None:
        """Time travel: the field shows a past state's query (no intent is sent)."""
        self.field.setText(query)

    # ------------------------------------------------------------------ states (GUI thread)

    def on_state(self, raw: wire.SearchState) -> None:
        self.state = raw
        self.update_view()
        self.shell.state_changed()

    def update_view(self) -> None:
        state = self.state
        results: Mapping[str, Any] = state["results"] if state else {"phase": "idle"}
        phase = phase_of(results)
        movies = movies_of(cast(wire.MoviesPhase, results))
        self.list.set_movies(movies)
        query = self.field.text().strip()
        self.status.setText(self._status(state, results, phase, len(movies), query))
        note = source_note(results, self.live_url)
        self.note.setText(note)
        self.note.setVisible(bool(note))
        self.note.setStyleSheet("font-weight: bold; color: #a05a00;" if "offline" in note else "color: gray;")
        message = ""
        if phase == "failed":
            error = cast(wire.ResultsFailed, results)["error"]
            message = f"Search failed: {error_text(error)}"
            if self.live_url and error["code"] in ("network", "timeout"):
                message += " (offline, and nothing saved for this search)"
            message += ". Press Enter to try again."
        elif phase == "loaded" and not movies:
            message = "No movies match."
        elif len(query) < 2 and not movies:
            message = "Type at least two characters to search 58,788 films."
        self.message.setText(message)
        self.message.setVisible(bool(message))

    @staticmethod
    def _status(state: Optional[wire.SearchState], results: Mapping[str, Any], phase: str, count: int,
                query: str) -> str:
        current = phase == "loaded" and results.get("query") == query
        if len(query) < 2:
            status = ""
        elif phase == "loading" or not current and phase != "failed":
            status = "searching…"
        elif phase == "failed":
            status = f"failed: {cast(wire.ResultsFailed, results)['error']['code']}"
        else:
            status = f"{count} movie{'s' if count != 1 else ''}"
            if state is not None and state["isLoadingMore"]:
                status += ", loading more…"
            elif state is not None and not state["isExhausted"]:
                status += ", scroll for more"
        if state is not None and state["loadMoreError"] is not None:
            status += f" (more failed: {state['loadMoreError']['code']})"
        return status
