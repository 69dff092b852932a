"""The Favorites screen: live (another process's changes show up). The rules are the terminal
app's: Delete removes the selected film only while the list has the focus (a key pressed
elsewhere removes nothing), and every removal of the session can be undone, one by one,
newest first (Ctrl+Z or Undo; an undo stack); the status bar says how."""

from __future__ import annotations

from typing import List, Optional, cast

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
        self.removed: List[wire.Movie] = []                 # the undo stack (newest last)
        self.restoring: List[cinematic.DetailStore] = []    # undos re-adding a favorite
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
        # Delete acts only while the list has the focus; Ctrl+Z anywhere on the page.
        remove = QShortcut(QKeySequence("Delete"), self.list)
        remove.setContext(Qt.ShortcutContext.WidgetShortcut)
        remove.activated.connect(self.remove_selected)
        undo = QShortcut(QKeySequence("Ctrl+Z"), self)
        undo.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        undo.activated.connect(self.undo_removal)
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
        self.removed.append(movie)
        self.update_undo()
        more = f" ({len(self.removed)} to undo)" if len(self.removed) > 1 else ""
        self.shell.notice = f"Removed {movie['title']}: Ctrl+Z or Undo brings it back{more}"

    def update_undo(self) -> None:
        count = len(self.removed)
        self.undo_button.setEnabled(count > 0)
        self.undo_button.setText(f"Undo {count} (Ctrl+Z)" if count > 1 else "Undo (Ctrl+Z)")

    def undo_removal(self) -> None:
        """Undoes the newest removal not undone yet: a Detail store of the movie toggles it back
        once loaded (as in the terminal app; several undos may be in flight, none cancels another)."""
        if not self.removed:
            self.shell.notice = "Nothing to undo"
            return
        movie = self.removed.pop()
        self.update_undo()
        try:
            store = self.runtime.detail(int(movie["id"]))
        except cinematic.CinematicError as error:
            self.removed.append(movie)   # still undoable
            self.update_undo()
            self.shell.notice = f"Cannot undo: {error}"
            return
        self.restoring.append(store)
        self.shell.notice = f"Restoring {movie['title']}…"

        def on_state(raw: wire.DetailState) -> None:
            state = raw
            if store not in self.restoring or state["isSaving"]:
                return
            loaded = state["detail"]["phase"] == "loaded"
            if loaded and not state["isFavorite"] and state["favoriteError"] is None:
                store.favorite_toggled()
            elif state["isFavorite"] or state["favoriteError"] is not None or state["detail"]["phase"] == "failed":
                if state["isFavorite"]:
                    self.shell.notice = f"Restored {movie['title']}"
                else:
                    self.removed.append(movie)   # still undoable
                    self.update_undo()
                    self.shell.notice = f"Could not restore {movie['title']}"
                self.restoring.remove(store)
                store.close()

        store.subscribe(on_state)
        store.task()
