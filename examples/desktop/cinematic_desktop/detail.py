"""The Detail screen: the top of the app's Detail stack. Everything the catalog has about the
film (before it loads, or offline, the film's row from the list it was opened from), and the
heart (its optimistic state, "saving…", and the rollback message when the write fails)."""

from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional, Tuple, cast

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QApplication, QFrame, QGridLayout, QHBoxLayout, QLabel, QProgressBar, QPushButton, QScrollArea, QVBoxLayout,
    QWidget,
)

from cinematic import wire, wording

from .movies import Shell, error_text, money, phase_of
from .states import wrapping

FIELDS = ("Year", "Runtime", "Genres", "MPAA", "Budget", "Rating", "Votes")


class DetailPage(QWidget):
    """The page, inside its own scroll area (``scroll_area``)."""

    def __init__(self, shell: Shell, live_url: Optional[str]) -> None:
        super().__init__()
        self.setObjectName("detailPage")
        self.shell = shell
        self.live_url = live_url
        self.state: Optional[wire.AppDetailState] = None
        layout = QVBoxLayout(self)
        top = QHBoxLayout()
        self.back = QPushButton("← Back")
        self.back.setObjectName("backButton")
        self.back.setToolTip("Back (Esc, Backspace, Alt+Left)")
        self.back.clicked.connect(self.go_back)
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
        self.retry = QPushButton("Try again (F5)")
        self.retry.setObjectName("retryButton")
        self.retry.clicked.connect(lambda: shell.send({"type": "retried"}))
        top.addWidget(self.heart)
        layout.addLayout(top)
        self.error = self._label("favoriteError", layout)
        self.error.setWordWrap(True)
        self.error.setStyleSheet("color: #b00020; font-weight: bold;")
        self.error.hide()
        self.note = wrapping(self._label("detailNote", layout))
        self.message = wrapping(self._label("detailMessage", layout))
        layout.addWidget(self.retry, 0, Qt.AlignmentFlag.AlignLeft)
        self.retry.hide()
        self.fields = self._fields(layout)
        # The histogram, in a box of its own: hidden when the detail failed (no empty bars).
        self.histogram = QWidget()
        self.histogram.setObjectName("histogram")
        box = QVBoxLayout(self.histogram)
        box.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.histogram)
        heading = wrapping(QLabel(wording.HISTOGRAM_HEADING))
        heading.setStyleSheet("font-weight: bold;")
        box.addWidget(heading)
        self.bars, self.shares = self._bars(box)
        self.histogram_note = wrapping(QLabel(wording.HISTOGRAM_NOTE))
        self.histogram_note.setObjectName("histogramNote")
        self.histogram_note.setStyleSheet("color: gray;")
        box.addWidget(self.histogram_note)
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
    def _bars(layout: QVBoxLayout) -> Tuple[List[QProgressBar], List[QLabel]]:
        """Ten bars (10 stars on top) on a fixed 0–1000 (0–100.0%) range, the share after each."""
        grid = QGridLayout()
        bars: List[QProgressBar] = []
        shares: List[QLabel] = []
        for i in range(10):
            grid.addWidget(QLabel(f"{10 - i:>2} ★"), i, 0)
            bar = QProgressBar()
            bar.setObjectName(f"bar{10 - i}")
            bar.setRange(0, 1000)
            bar.setTextVisible(False)
            bar.setMaximumHeight(14)
            grid.addWidget(bar, i, 1)
            share = QLabel()
            share.setObjectName(f"share{10 - i}")
            share.setMinimumWidth(48)
            share.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            grid.addWidget(share, i, 2)
            bars.append(bar)
            shares.append(share)
        grid.addWidget(QLabel("0%"), 10, 1, Qt.AlignmentFlag.AlignLeft)
        grid.addWidget(QLabel("100%"), 10, 1, Qt.AlignmentFlag.AlignRight)
        grid.setColumnStretch(1, 1)
        layout.addLayout(grid)
        return bars, shares

    # ------------------------------------------------------------------ what the person does

    def go_back(self) -> None:
        self.shell.send({"type": "back"})

    def toggle_favorite(self) -> None:
        self.shell.send({"type": "detail", "intent": {"type": "favoriteToggled"}})

    # ------------------------------------------------------------------ drawing

    def draw(self, app: wire.AppState) -> None:
        """Shows the top of the Detail stack (the last of ``details``), if any."""
        self.state = app["details"][-1] if app["details"] else None
        if self.state is None:
            return
        state = self.state
        detail = state["detail"]
        phase = phase_of(detail)
        loaded = cast(wire.DetailLoaded, detail)["value"] if phase == "loaded" else None
        listing = state["listing"]
        shown: Optional[Mapping[str, Any]] = loaded if loaded is not None else listing
        self.title.setText(f"{shown['title']} ({shown['year']})" if shown else f"Film #{state['movieId']}")
        heart = "♥ Favorite" if state["isFavorite"] else "♡ Add to favorites"
        if state["isSaving"]:
            heart += " (saving…)"
        self.heart.setText(heart)
        was_enabled = self.heart.isEnabled()
        self.heart.setEnabled(shown is not None)     # the app takes the heart once it knows the film's row
        if self.heart.isEnabled() and not was_enabled and QApplication.focusWidget() in (None, self.scroll_area):
            self.heart.setFocus()   # once it can act, the heart takes the focus (Space or F toggles)
        error = state["favoriteError"]
        if error is not None:
            self.error.setText(f"Could not save the favorite, so it was rolled back: {error_text(error)}")
        self.error.setVisible(error is not None)
        note = wording.source_note(detail, self.live_url)
        self.note.setText(note)
        self.note.setVisible(bool(note))
        if phase in ("loading", "idle"):
            self.message.setText("Loading the detail…")
        elif phase == "failed":
            said, advice = wording.failure("Could not load the detail", cast(wire.FailedPhase, detail)["error"],
                                           "F5", self.live_url)
            if shown is not None:
                advice += " The heart still works (F)."
            self.message.setText(f"{said}. {advice}")
        self.message.setStyleSheet("color: #b00020;" if phase == "failed" else "color: gray;")
        self.message.setVisible(phase in ("loading", "idle", "failed"))
        self.retry.setVisible(phase == "failed")
        self._show_movie(loaded, listing)
        self.histogram.setVisible(phase != "failed")
        if phase == "failed":
            self.fields["Budget"].setText("not loaded")

    def _show_movie(self, movie: Optional[wire.MovieDetail], listing: Optional[wire.Movie]) -> None:
        """Every field of the loaded detail; before (or without) it, the film's row."""
        values = {name: "" for name in self.fields}
        row: Optional[Mapping[str, Any]] = movie if movie is not None else listing
        if row is not None:
            values = {
                "Year": str(row["year"]),
                "Runtime": f"{row['runtime']} min",
                "Genres": ", ".join(row["genres"]) or "none listed",
                "MPAA": row["mpaa"] or "unknown",
                "Budget": money(movie["budget"]) if movie is not None else "",
                "Rating": f"{row['rating']:.1f} / 10",
                "Votes": f"{row['votes']:,}",
            }
        for name, label in self.fields.items():
            label.setText(values[name])
        shares = dict(wording.histogram([float(x) for x in movie["ratingDistribution"]]) if movie is not None else [])
        for i, (bar, label) in enumerate(zip(self.bars, self.shares)):
            share = shares.get(10 - i)
            bar.setValue(round(wording.bar_fraction(share) * 1000) if share is not None else 0)
            label.setText(f"{share:.1f}%" if share is not None else "")
