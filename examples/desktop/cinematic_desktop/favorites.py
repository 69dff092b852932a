"""The Favorites screen: live (another process's changes show up), Delete removes the selected
film, Ctrl+Z or Undo brings the last removal back."""

from __future__ import annotations

from typing import Optional, cast

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

import cinematic
from cinematic import wire
from cinematic_tui.app import movies_of, phase_of

from .movies import MovieList, Shell, error_text


class FavoritesPage(QWidget):
    def __init__(self, shell: Shell, runtime: cinematic.Runtime, store: cinematic.FavoritesStore) -> None:
        super().__init__()
        self.setObjectName("favoritesPage")
        self.shell = shell
        self.runtime = runtime
        self.store = store
        self.state: Optional[wire.FavoritesState] = None
        self.undo_movie: Optional[wire.Movie] = None
        self.restoring: Optional[cinematic.DetailStore] = None
        layout = QVBoxLayout(self)
        self.header = QLabel("Your favorites")
        self.header.setObjectName("favoritesHeader")
        layout.addWidget(self.header)
        self.list = MovieList("favoritesList", shell.open_detail)
        layout.addWidget(self.list, 1)
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
            shortcut = QShortcut(QKeySequence(sequence), self)
            shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            shortcut.activated.connect(action)
        store.subscribe(self.on_state)
        store.task()

    def on_state(self, raw: wire.FavoritesState) -> None:
        self.state = raw
        favorites = self.state["favorites"]
        movies = movies_of(cast(wire.MoviesPhase, favorites))
        self.list.set_movies(movies)
        error = self.state["removalError"]
        if error is not None:
            self.header.setText(f"Could not remove: {error_text(error)}")
        elif phase_of(favorites) == "failed":
            self.header.setText(f"Could not load favorites: {error_text(cast(wire.FailedPhase, favorites)['error'])}")
        elif phase_of(favorites) == "loaded" and not movies:
            self.header.setText("No favorites yet: open a movie and click the heart (or press F).")
        else:
            self.header.setText("Your favorites")
        self.remove_button.setEnabled(bool(movies))
        self.shell.state_changed()

    def count(self) -> int:
        return len(self.list.movies)

    def remove_selected(self) -> None:
        movie = self.list.current_movie()
        if movie is None:
            return
        self.store.removed(int(movie["id"]))
        self.undo_movie = movie
        self.undo_button.setEnabled(True)
        self.shell.notice = f"Removed {movie['title']}: Ctrl+Z or Undo brings it back"

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
        self.shell.notice = f"Restoring {movie['title']}…"

        def on_state(raw: wire.DetailState) -> None:
            state = raw
            if store is not self.restoring or state["isSaving"]:
                return
            loaded = state["detail"]["phase"] == "loaded"
            if loaded and not state["isFavorite"] and state["favoriteError"] is None:
                store.favorite_toggled()
            elif state["isFavorite"] or state["favoriteError"] is not None or state["detail"]["phase"] == "failed":
                self.shell.notice = f"Restored {movie['title']}" if state["isFavorite"] else "Could not restore the favorite"
                store.close()
                self.restoring = None

        store.subscribe(on_state)
        store.task()
