"""How a list's states are drawn: the list itself once loaded, a skeleton while loading (grey
rows shaped like the films to come), and a panel for the rest (empty: a sentence that helps;
failed: what failed, what to do and the key that tries again). Every text wraps and asks for
no width: a long error never widens the window. The words are the terminal app's too
(:mod:`cinematic.wording`)."""

from __future__ import annotations

from typing import Callable, Optional

from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QColor, QPainter, QPaintEvent
from PySide6.QtWidgets import QFrame, QLabel, QPushButton, QScrollArea, QSizePolicy, QStackedWidget, QVBoxLayout, QWidget


#: The most a one-line label (a notice, an info line) shows; the rest is in its tooltip.
MOST_CHARACTERS = 400


def shortened(text: str, most: int = MOST_CHARACTERS) -> str:
    """``text`` cut to ``most`` characters with an ellipsis (the whole goes in a tooltip)."""
    return text if len(text) <= most else text[:most - 1] + "…"


def wrapping(label: QLabel) -> QLabel:
    """``label`` word-wrapped and asking for no width of its own (the window keeps its size)."""
    label.setWordWrap(True)
    label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
    label.setMinimumWidth(1)
    return label


class Skeleton(QWidget):
    """Grey bars where the rows will be: a title, a year, a rating and genres per row."""

    ROW = 24

    def __init__(self, name: str) -> None:
        super().__init__()
        self.setObjectName(name)
        self.caption = QLabel(self)
        self.caption.setObjectName(f"{name}Caption")
        self.caption.move(8, 4)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Ignored)

    def set_caption(self, text: str) -> None:
        """What is loading ("Loading results for “dune”…")."""
        self.caption.setText(text)
        self.caption.adjustSize()

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QColor(0, 0, 0, 28))
        width = self.width()
        top = self.caption.height() + 12
        for row in range(max(0, (self.height() - top) // self.ROW)):
            y = top + row * self.ROW
            title = int(width * (0.30 + 0.25 * ((row * 7) % 5) / 5))
            for x, w in ((8, title), (width * 0.62, 40), (width * 0.62 + 56, 52), (width * 0.62 + 124, width * 0.2)):
                painter.drawRoundedRect(QRect(int(x), y + 6, int(min(w, width - x - 8)), 12), 4, 4)
        painter.end()


class StatePanel(QWidget):
    """A heading (what happened), a sentence (what to do) and, after a failure, a Try again
    button with its key."""

    def __init__(self, name: str, retry: Optional[Callable[[], None]] = None) -> None:
        super().__init__()
        self.setObjectName(name)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 8)
        self.heading = wrapping(QLabel())
        self.heading.setObjectName(f"{name}Heading")
        self.heading.setStyleSheet("font-weight: bold;")
        self.body = wrapping(QLabel())
        self.body.setObjectName(f"{name}Body")
        self.retry = QPushButton("Try again (F5)")
        self.retry.setObjectName(f"{name}Retry")
        if retry is not None:
            self.retry.clicked.connect(retry)
        layout.addWidget(self.heading)
        layout.addWidget(self.body)
        layout.addWidget(self.retry, 0, Qt.AlignmentFlag.AlignLeft)
        layout.addStretch(1)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)   # a tab's focus can rest here (Tab: its button)

    def show_text(self, heading: str, body: str, failed: bool) -> None:
        self.heading.setText(heading)
        self.heading.setStyleSheet("font-weight: bold; color: #b00020;" if failed else "font-weight: bold;")
        self.body.setText(body)
        self.body.setVisible(bool(body))
        self.retry.setVisible(failed)

    def text(self) -> str:
        """What the panel says: the heading, then the sentence."""
        return " ".join(part for part in (self.heading.text(), self.body.text() if self.body.isVisibleTo(self) else "")
                        if part)


class StateView(QStackedWidget):
    """A list (``content``), its skeleton and its panel (in a scroll area: however long its
    text, it asks the window for no room): one of them shown."""

    def __init__(self, name: str, content: QWidget, retry: Optional[Callable[[], None]] = None) -> None:
        super().__init__()
        self.setObjectName(f"{name}View")
        self.content = content
        self.skeleton = Skeleton(f"{name}Skeleton")
        self.panel = StatePanel(f"{name}Panel", retry)
        self.panel_scroll = QScrollArea()
        self.panel_scroll.setObjectName(f"{name}PanelScroll")
        self.panel_scroll.setWidgetResizable(True)
        self.panel_scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.panel_scroll.setWidget(self.panel)
        for widget in (content, self.skeleton, self.panel_scroll):
            self.addWidget(widget)

    def show_content(self) -> None:
        self.setCurrentWidget(self.content)

    def show_loading(self, caption: str) -> None:
        self.skeleton.set_caption(caption)
        self.setCurrentWidget(self.skeleton)

    def show_message(self, heading: str, body: str = "", failed: bool = False) -> None:
        self.panel.show_text(heading, body, failed)
        self.setCurrentWidget(self.panel_scroll)

    def focus_target(self) -> QWidget:
        """Where the focus goes when this view's tab is shown: the list, or the panel."""
        shown = self.currentWidget()
        return self.panel if shown is self.panel_scroll else shown

    @property
    def state_name(self) -> str:
        """"content", "loading" or "message": what is shown."""
        shown = self.currentWidget()
        return "content" if shown is self.content else "loading" if shown is self.skeleton else "message"
