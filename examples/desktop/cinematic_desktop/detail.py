"""The Detail screen: everything the catalog has about a film, and the heart (its optimistic
state, "saving…", and the rollback message when the write fails). One Detail store per film
shown, closed when the screen closes."""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Mapping, Optional, cast

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QApplication, QFrame, QGridLayout, QHBoxLayout, QLabel, QProgressBar, QPushButton, QScrollArea, QVBoxLayout,
    QWidget,
)

import cinematic
from cinematic import wire
from cinematic_tui.app import money, phase_of

from .movies import Shell, error_text, source_note

FIELDS = ("Year", "Runtime", "Genres", "MPAA", "Budget", "Rating", "Votes")


class DetailPage(QWidget):
    """The page (inside its own scroll area, ``scroll_area``) and the Detail store it shows."""

    def __init__(self, shell: Shell, runtime: cinematic.Runtime, live_url: Optional[str],
                 on_back: Callable[[], None]) -> None:
        super().__init__()
        self.setObjectName("detailPage")
        self.shell = shell
        self.runtime = runtime
        self.live_url = live_url
        self.store: Optional[cinematic.DetailStore] = None
        self.state: Optional[wire.DetailState] = None
        self.movie: Optional[wire.Movie] = None
        layout = QVBoxLayout(self)
        top = QHBoxLayout()
        self.back = QPushButton("← Back")
        self.back.setObjectName("backButton")
        self.back.setToolTip("Back (Esc, Backspace, Alt+Left)")
        self.back.clicked.connect(on_back)
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
        self.heart.clicked.connect(self.toggle_favorite)
        top.addWidget(self.heart)
        layout.addLayout(top)
        self.error = self._label("favoriteError", layout)
        self.error.setWordWrap(True)
        self.error.setStyleSheet("color: #b00020; font-weight: bold;")
        self.error.hide()
        self.note = self._label("detailNote", layout)
        self.message = self._label("detailMessage", layout)
        self.fields = self._fields(layout)
        heading = QLabel("Share of votes per star rating (IMDb rounds each share; they need not add up to 100%)")
        heading.setWordWrap(True)
        heading.setStyleSheet("font-weight: bold;")
        layout.addWidget(heading)
        self.bars = self._bars(layout)
        layout.addStretch(1)
        for widget in (self.back, self.heart):
            widget.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        QWidget.setTabOrder(self.heart, self.back)
        self.scroll_area = QScrollArea()
        self.scroll_area.setObjectName("detailScroll")
        self.scroll_area.setWidgetResizable(True)
        self.scroll_area.setFrameShape(QFrame.Shape.NoFrame)
        self.scroll_area.setWidget(self)

    @staticmethod
    def _label(name: str, layout: QVBoxLayout) -> QLabel:
        label = QLabel()
        label.setObjectName(name)
        layout.addWidget(label)
        return label

    @staticmethod
    def _fields(layout: QVBoxLayout) -> Dict[str, QLabel]:
        grid = QGridLayout()
        fields: Dict[str, QLabel] = {}
        for row, name in enumerate(FIELDS):
            label = QLabel(name)
            label.setStyleSheet("font-weight: bold;")
            value = QLabel()
            value.setObjectName(f"field{name}")
            value.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            grid.addWidget(label, row, 0)
            grid.addWidget(value, row, 1)
            fields[name] = value
        grid.setColumnStretch(1, 1)
        layout.addLayout(grid)
        return fields

    @staticmethod
    def _bars(layout: QVBoxLayout) -> List[QProgressBar]:
        grid = QGridLayout()
        bars: List[QProgressBar] = []
        for i in range(10):
            grid.addWidget(QLabel(f"{10 - i:>2} ★"), i, 0)
            bar = QProgressBar()
            bar.setRange(0, 1000)
            bar.setTextVisible(True)
            bar.setFormat("")
            grid.addWidget(bar, i, 1)
            bars.append(bar)
        layout.addLayout(grid)
        return bars

    # ------------------------------------------------------------------ the store

    def open(self, movie: wire.Movie) -> None:
        """Shows ``movie`` (its row at once, everything else once loaded)."""
        self.close_store()
        self.store = self.runtime.detail(int(movie["id"]))
        self.movie = movie
        self.state = {"movieId": movie["id"], "detail": {"phase": "loading"}, "isFavorite": False,
                      "isSaving": False, "favoriteError": None}
        self.show_state(self.state)
        self.store.subscribe(self.on_state)
        self.store.task()

    def close_store(self) -> bool:
        """Closes the store shown (no state of it arrives after); False if none was open."""
        if self.store is None:
            return False
        self.store.close()
        self.store = None
        self.state = None
        self.movie = None
        return True

    def toggle_favorite(self) -> None:
        if self.store is None or self.state is None:
            return
        if phase_of(self.state["detail"]) != "loaded":
            self.shell.notice = "wait for the detail to load"
            return
        self.store.favorite_toggled()

    def on_state(self, raw: wire.DetailState) -> None:
        self.state = raw
        was_enabled = self.heart.isEnabled()
        self.show_state(self.state)
        if self.heart.isEnabled() and not was_enabled and QApplication.focusWidget() in (None, self.scroll_area):
            self.heart.setFocus()   # once loaded, the heart takes the focus (Space or F toggles)
        self.shell.state_changed()

    # ------------------------------------------------------------------ the view

    def show_state(self, state: wire.DetailState) -> None:
        detail = state["detail"]
        loaded = cast(wire.DetailLoaded, detail)["value"] if phase_of(detail) == "loaded" else None
        shown: Optional[Mapping[str, Any]] = loaded if loaded is not None else self.movie
        self.title.setText(f"{shown['title']} ({shown['year']})" if shown else "")
        heart = "♥ Favorite" if state["isFavorite"] else "♡ Add to favorites"
        if state["isSaving"]:
            heart += " (saving…)"
        self.heart.setText(heart)
        self.heart.setEnabled(loaded is not None)
        error = state["favoriteError"]
        if error is not None:
            self.error.setText(f"Could not save the favorite, so it was rolled back: {error_text(error)}")
        self.error.setVisible(error is not None)
        note = source_note(detail, self.live_url)
        self.note.setText(note)
        self.note.setVisible(bool(note))
        phase = phase_of(detail)
        if phase == "loading":
            self.message.setText("Loading the detail…")
        elif phase == "failed":
            self.message.setText(f"Could not load the detail: {error_text(cast(wire.FailedPhase, detail)['error'])}. "
                                 "Go back (Esc) and open the film again to try again.")
        else:
            self.message.setText("")
        self.message.setVisible(phase in ("loading", "failed"))
        self._show_movie(loaded)

    def _show_movie(self, movie: Optional[wire.MovieDetail]) -> None:
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
