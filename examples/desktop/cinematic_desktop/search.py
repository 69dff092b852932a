"""The Search screen: the query field, the results with year, rating, runtime and genres, and
what the search is doing; drawn from the app state's ``search`` part."""

from __future__ import annotations

from typing import Any, Mapping, Optional, cast

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QHBoxLayout, QLabel, QLineEdit, QVBoxLayout, QWidget

from cinematic import wire, wording

from .movies import MovieList, Shell, movies_of, phase_of, position_of
from .states import StateView, wrapping

SEARCH_MORE = {"type": "search", "intent": {"type": "loadMore"}}


class SearchField(QLineEdit):
    """The query; Down moves into the results."""

    def __init__(self, page: "SearchPage") -> None:
        super().__init__()
        self.page = page

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Down:
            self.page.focus_results()
            return
        super().keyPressEvent(event)


class SearchPage(QWidget):
    """The field, a status on its right, the source note, the results and a message line."""

    def __init__(self, shell: Shell, live_url: Optional[str]) -> None:
        super().__init__()
        self.setObjectName("searchPage")
        self.shell = shell
        self.live_url = live_url
        self.state: Optional[wire.SearchState] = None
        layout = QVBoxLayout(self)
        row = QHBoxLayout()
        self.field = SearchField(self)
        self.field.setObjectName("searchField")
        self.field.setPlaceholderText("Search 58,788 films (at least two characters)")
        self.field.setClearButtonEnabled(True)
        self.field.textEdited.connect(lambda text: shell.send({"type": "queryChanged", "query": text}))
        self.field.returnPressed.connect(self.enter)
        row.addWidget(self.field, 1)
        self.status = QLabel()
        self.status.setObjectName("searchStatus")
        row.addWidget(self.status)
        layout.addLayout(row)
        self.note = wrapping(QLabel())
        self.note.setObjectName("searchNote")
        self.note.hide()
        layout.addWidget(self.note)
        self.hint = wrapping(QLabel())
        self.hint.setObjectName("searchHint")
        self.hint.setStyleSheet("font-weight: bold; color: #1f4e99;")
        self.hint.hide()
        layout.addWidget(self.hint)
        self.list = MovieList("searchResults", "search", shell, SEARCH_MORE)
        self.view = StateView("search", self.list, lambda: shell.send({"type": "retried"}))
        layout.addWidget(self.view, 1)
        self.message = wrapping(QLabel())
        self.message.setObjectName("searchMessage")
        self.message.hide()
        layout.addWidget(self.message)
        QWidget.setTabOrder(self.field, self.list)

    def enter(self) -> None:
        """Enter in the field: tries again after a failure, opens the selected (or first)
        result of the query shown, else searches now."""
        state = self.state
        if state is None:
            return
        results = state["results"]
        movie = self.list.current_movie() or (self.list.movies[0] if self.list.movies else None)
        if results["phase"] == "failed" or state["loadMoreError"] is not None:
            self.shell.send({"type": "retried"})
        elif results["phase"] == "loaded" and results["query"] == state["query"].strip() and movie is not None:
            self.shell.send({"type": "opened", "movieId": movie["id"]})
        else:
            self.shell.send({"type": "search", "intent": {"type": "submitted"}})

    def focus_results(self) -> None:
        if self.list.topLevelItemCount():
            self.list.setFocus()

    # ------------------------------------------------------------------ drawing

    def draw(self, app: wire.AppState) -> None:
        state = self.state = app["search"]
        if self.field.text() != state["query"]:
            # Not what was typed: a resume, time travel, or a query the app shortened.
            self.field.setText(state["query"])             # setText does not emit textEdited
        results: Mapping[str, Any] = state["results"]
        phase = phase_of(results)
        movies = movies_of(results)
        self.list.show_movies(movies, position_of(app, "search"))
        query = state["query"].strip()
        self.status.setText(self._status(state, results, phase, len(movies), query))
        note = wording.source_note(results, self.live_url)
        self.note.setText(note)
        self.note.setVisible(bool(note))
        self.note.setStyleSheet("font-weight: bold; color: #a05a00;" if "offline" in note else "color: gray;")
        hint = state["hint"]
        self.hint.setText(hint["text"] if hint else "")
        self.hint.setVisible(hint is not None)
        if movies:
            self.view.show_content()
        elif phase == "failed":
            said, advice = wording.failure("Search failed", cast(wire.ResultsFailed, results)["error"],
                                           "Enter or F5", self.live_url)
            self.view.show_message(said, advice, failed=True)
        elif phase == "loading" or (len(query) >= 2 and phase != "loaded"):
            self.view.show_loading(f"Searching for “{query}”…")
        elif phase == "loaded":
            self.view.show_message("No films match.", wording.search_empty(cast(wire.ResultsLoaded, results)["query"]))
        else:
            self.view.show_message("Search the catalog", wording.SEARCH_IDLE)
        message = ""
        error = state["loadMoreError"]
        if error is not None and movies:
            said, advice = wording.failure("Loading more failed", error, "Enter or F5", self.live_url)
            message = f"{said}. {advice}"
        self.message.setText(message)
        self.message.setVisible(bool(message))

    @staticmethod
    def _status(state: wire.SearchState, results: Mapping[str, Any], phase: str, count: int, query: str) -> str:
        current = phase == "loaded" and results.get("query") == query
        if len(query) < 2:
            status = ""
        elif phase == "loading" or not current and phase != "failed":
            status = "searching…"
        elif phase == "failed":
            status = f"failed: {cast(wire.ResultsFailed, results)['error']['code']}"
        else:
            status = f"{count} movie{'s' if count != 1 else ''}"
            if state["isLoadingMore"]:
                status += ", loading more…"
            elif not state["isExhausted"]:
                status += ", scroll for more"
        if state["loadMoreError"] is not None:
            status += f" (more failed: {state['loadMoreError']['code']})"
        return status


__all__ = ["SearchPage", "SearchField"]
