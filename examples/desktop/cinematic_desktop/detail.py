"""The Detail screen, drawn from the view's ``detail``: its heading, the heart and its words,
the message while loading or after a failure (with Try again), the film's facts, and the
rating histogram (each bar the share's fraction of a fixed 0–100% track, its stars and its
share beside it, the heading and the note under it). Back, the heart and Try again send the
keymap's actions."""

from __future__ import annotations

from typing import List, Optional, Tuple

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QFrame, QGridLayout, QHBoxLayout, QLabel, QProgressBar, QScrollArea, QVBoxLayout, QWidget,
)

from cinematic import wire

from .rows import Shell
from .screen import button
from .states import show_text, wrapping

#: The bars of a histogram (10 stars down to 1).
BARS = 10


class DetailPage(QWidget):
    """The page, inside its own scroll area (``scroll_area``)."""

    def __init__(self, shell: Shell) -> None:
        super().__init__()
        self.setObjectName("detailPage")
        layout = QVBoxLayout(self)
        top = QHBoxLayout()
        self.back = button("← Back", "back", shell, "backButton")
        self.title = wrapping(QLabel())
        self.title.setObjectName("detailTitle")
        self.title.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        font = self.title.font()
        font.setPointSizeF(font.pointSizeF() * 1.6)
        font.setBold(True)
        self.title.setFont(font)
        self.heart = button("", "detail", shell, "heartButton")
        top.addWidget(self.back)
        top.addWidget(self.title, 1)
        top.addWidget(self.heart)
        layout.addLayout(top)
        self.source = self._label("detailSource", layout, "font-weight: bold; color: #a05a00;")
        self.heading = self._label("detailMessage", layout, "font-weight: bold;")
        self.body = self._label("detailAdvice", layout, "")
        self.retry = button("Try again", "retried", shell, "retryButton")
        layout.addWidget(self.retry, 0, Qt.AlignmentFlag.AlignLeft)
        self.facts = QGridLayout()
        self.facts.setColumnStretch(1, 1)
        self.fact_labels: List[Tuple[QLabel, QLabel]] = []
        layout.addLayout(self.facts)
        self.histogram = QWidget()
        self.histogram.setObjectName("histogram")
        box = QVBoxLayout(self.histogram)
        box.setContentsMargins(0, 0, 0, 0)
        self.histogram_heading = self._label("histogramHeading", box, "font-weight: bold;")
        self.stars, self.bars, self.shares = self._bars(box)
        self.histogram_note = self._label("histogramNote", box, "color: gray;")
        layout.addWidget(self.histogram)
        layout.addStretch(1)
        self.scroll_area = QScrollArea()
        self.scroll_area.setObjectName("detailScroll")
        self.scroll_area.setWidgetResizable(True)
        self.scroll_area.setFrameShape(QFrame.Shape.NoFrame)
        self.scroll_area.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.scroll_area.setWidget(self)

    @staticmethod
    def _label(name: str, layout: QVBoxLayout, style: str) -> QLabel:
        label = wrapping(QLabel())
        label.setObjectName(name)
        label.setStyleSheet(style)
        layout.addWidget(label)
        return label

    @staticmethod
    def _bars(layout: QVBoxLayout) -> Tuple[List[QLabel], List[QProgressBar], List[QLabel]]:
        """Ten rows: the stars, a bar on a fixed 0–1000 (0–100.0%) range, the share; 0% and
        100% under the track."""
        grid = QGridLayout()
        stars: List[QLabel] = []
        bars: List[QProgressBar] = []
        shares: List[QLabel] = []
        for i in range(BARS):
            star, bar, share = QLabel(), QProgressBar(), QLabel()
            bar.setObjectName(f"bar{i}")
            bar.setRange(0, 1000)
            bar.setTextVisible(False)
            bar.setMaximumHeight(14)
            share.setMinimumWidth(48)
            share.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            grid.addWidget(star, i, 0)
            grid.addWidget(bar, i, 1)
            grid.addWidget(share, i, 2)
            stars.append(star)
            bars.append(bar)
            shares.append(share)
        grid.addWidget(QLabel("0%"), BARS, 1, Qt.AlignmentFlag.AlignLeft)
        grid.addWidget(QLabel("100%"), BARS, 1, Qt.AlignmentFlag.AlignRight)
        grid.setColumnStretch(1, 1)
        layout.addLayout(grid)
        return stars, bars, shares

    # ------------------------------------------------------------------ drawing

    def draw(self, view: wire.AppView, detail: wire.AppDetailView) -> None:
        """Shows the view's Detail."""
        self.back.setEnabled(view["actions"]["back"])
        self.title.setText(detail["heading"])
        self.heart.setText(f"{'♥' if detail['isFavorite'] else '♡'} {detail['heart']}")
        show_text(self.source, view["source"])
        message = detail["message"]
        failed = message is not None and message["kind"] == "failed"
        show_text(self.heading, message["heading"] if message is not None else "")
        self.heading.setStyleSheet("font-weight: bold; color: #b00020;" if failed else "font-weight: bold; color: gray;")
        show_text(self.body, message["body"] if message is not None else "")
        self.retry.setVisible(failed and view["actions"]["retried"])
        self._draw_facts(detail["facts"])
        self._draw_histogram(detail["histogram"])

    def _draw_facts(self, facts: List[wire.AppDetailViewFactsItem]) -> None:
        """Each fact's label and value, one to a row."""
        while len(self.fact_labels) < len(facts):
            label, value = QLabel(), wrapping(QLabel())
            label.setStyleSheet("font-weight: bold;")
            value.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            self.facts.addWidget(label, len(self.fact_labels), 0)
            self.facts.addWidget(value, len(self.fact_labels), 1)
            self.fact_labels.append((label, value))
        for i, (label, value) in enumerate(self.fact_labels):
            fact = facts[i] if i < len(facts) else None
            label.setText(fact["label"] if fact else "")
            value.setText(fact["value"] if fact else "")
            label.setVisible(fact is not None)
            value.setVisible(fact is not None)

    def _draw_histogram(self, histogram: Optional[wire.AppHistogram]) -> None:
        self.histogram.setVisible(histogram is not None)
        if histogram is None:
            return
        self.histogram_heading.setText(histogram["heading"])
        self.histogram_note.setText(histogram["note"])
        bars = histogram["bars"]
        for i, (star, bar, share) in enumerate(zip(self.stars, self.bars, self.shares)):
            shown = bars[i] if i < len(bars) else None
            star.setText(shown["starsLabel"] if shown else "")
            bar.setValue(round(shown["fraction"] * 1000) if shown else 0)
            share.setText(shown["label"] if shown else "")
            for widget in (star, bar, share):
                widget.setVisible(shown is not None)
