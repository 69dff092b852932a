"""The Favorites screen: live (another process's changes show up), drawn from the app state's
``favorites`` part and its undo stack (``removed``). Delete removes the selected film only
while the list has the focus; Ctrl+Z or Undo asks the app to undo the newest removal."""

from __future__ import annotations

from typing import Optional, cast

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from cinematic import wire, wording

from .movies import MovieList, Shell, error_text, movies_of, phase_of, position_of
from .states import StateView, wrapping


class FavoritesPage(QWidget):
    def __init__(self, shell: Shell) -> None:
        super().__init__()
        self.setObjectName("favoritesPage")
        self.shell = shell
        self.state: Optional[wire.FavoritesState] = None
        layout = QVBoxLayout(self)
        self.header = wrapping(QLabel("Your favorites"))
        self.header.setObjectName("favoritesHeader")
        layout.addWidget(self.header)
        self.list = MovieList("favoritesList", "favorites", shell)
        self.view = StateView("favorites", self.list)
        layout.addWidget(self.view, 1)
        row = QHBoxLayout()
        self.remove_button = QPushButton("Remove (Delete)")
        self.remove_button.setObjectName("removeButton")
        self.remove_button.clicked.connect(self.remove_selected)
        self.undo_button = QPushButton("Undo (Ctrl+Z)")
        self.undo_button.setObjectName("undoButton")
        self.undo_button.setEnabled(False)
        self.undo_button.clicked.connect(lambda: shell.send({"type": "undo"}))
        row.addWidget(self.remove_button)
        row.addWidget(self.undo_button)
        row.addStretch(1)
        layout.addLayout(row)
        # Delete acts only while the list has the focus; Ctrl+Z anywhere on the page.
        remove = QShortcut(QKeySequence("Delete"), self.list)
        remove.setContext(Qt.ShortcutContext.WidgetShortcut)
        remove.activated.connect(self.remove_selected)
        undo = QShortcut(QKeySequence("Ctrl+Z"), self)
        undo.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        undo.activated.connect(lambda: shell.send({"type": "undo"}))

    def remove_selected(self) -> None:
        movie = self.list.current_movie()
        if movie is not None:
            self.shell.send({"type": "removed", "movieId": movie["id"]})

    def count(self) -> int:
        return len(self.list.movies)

    # ------------------------------------------------------------------ drawing

    def draw(self, app: wire.AppState) -> None:
        state = self.state = app["favorites"]
        favorites = state["favorites"]
        movies = movies_of(favorites)
        self.list.show_movies(movies, position_of(app, "favorites"))
        error = state["removalError"]
        if error is not None:
            self.header.setText(f"Could not remove: {error_text(error)}")
        else:
            self.header.setText("Your favorites")
        if movies:
            self.view.show_content()
        elif phase_of(favorites) == "failed":
            said, advice = wording.failure("Could not load the favorites", cast(wire.FailedPhase, favorites)["error"],
                                           "reopening the app")
            self.view.show_message(said, advice, failed=False)
        elif phase_of(favorites) == "loaded":
            heading, _, body = wording.favorites_empty("F").partition(". ")   # "No favorites yet", what to do
            self.view.show_message(f"{heading}.", body)
        else:
            self.view.show_loading("Loading your favorites…")
        self.remove_button.setEnabled(bool(movies))
        undoable = len(app["removed"])
        self.undo_button.setEnabled(undoable > 0)
        self.undo_button.setText(f"Undo {undoable} (Ctrl+Z)" if undoable > 1 else "Undo (Ctrl+Z)")
