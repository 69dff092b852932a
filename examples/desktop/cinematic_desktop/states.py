"""How the view's message is drawn in place of rows: a skeleton while loading (grey rows shaped
like the films to come, under the message's heading), and a panel for the rest (its heading,
what to do, and after a failure a Try again button). Every text wraps and asks for no width:
a long error never widens the window. Every word is the view's (the library's)."""

from __future__ import annotations

from typing import Callable, Optional

from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QColor, QPainter, QPaintEvent, QResizeEvent
from PySide6.QtWidgets import QFrame, QLabel, QPushButton, QScrollArea, QSizePolicy, QStackedWidget, QVBoxLayout, QWidget

from cinematic import wire

#: The most a one-line label (a notice) shows; the rest is in its tooltip.
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


def show_text(label: QLabel, text: str) -> None:
    """``label`` says ``text``, and is shown only when there is something to say."""
    label.setText(text)
    label.setVisible(bool(text))


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
        """What is loading (the view's words: "Searching for “dune”…")."""
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
    """A message: its heading (what happened), its body (what to do) and, after a failure, a
    Try again button (the keymap's ``retried``)."""

    def __init__(self, name: str, retry: Callable[[], None]) -> None:
        super().__init__()
        self.setObjectName(name)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 8)
        self.heading = wrapping(QLabel())
        self.heading.setObjectName(f"{name}Heading")
        self.body = wrapping(QLabel())
        self.body.setObjectName(f"{name}Body")
        self.retry = QPushButton("Try again")
        self.retry.setObjectName(f"{name}Retry")
        self.retry.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.retry.clicked.connect(retry)
        layout.addWidget(self.heading)
        layout.addWidget(self.body)
        layout.addWidget(self.retry, 0, Qt.AlignmentFlag.AlignLeft)
        layout.addStretch(1)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)

    def show_message(self, message: wire.AppMessage, can_retry: bool) -> None:
        failed = message["kind"] == "failed"
        self.heading.setText(message["heading"])
        self.heading.setStyleSheet("font-weight: bold; color: #b00020;" if failed else "font-weight: bold;")
        show_text(self.body, message["body"])
        self.retry.setVisible(failed and can_retry)


class StateView(QStackedWidget):
    """Rows (``content``), their skeleton and the message panel (in a scroll area: however
    long its text, it asks the window for no room): one of them shown."""

    def __init__(self, name: str, content: QWidget, retry: Callable[[], None]) -> None:
        super().__init__()
        self.setObjectName(f"{name}View")
        self.on_resize: Optional[Callable[[], None]] = None     # told when its height changes
        self.content = content
        self.skeleton = Skeleton(f"{name}Skeleton")
        self.panel = StatePanel(f"{name}Panel", retry)
        self.panel_scroll = QScrollArea()
        self.panel_scroll.setObjectName(f"{name}PanelScroll")
        self.panel_scroll.setWidgetResizable(True)
        self.panel_scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.panel_scroll.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.panel_scroll.setWidget(self.panel)
        for widget in (content, self.skeleton, self.panel_scroll):
            self.addWidget(widget)

    def show_state(self, message: Optional[wire.AppMessage], can_retry: bool) -> None:
        """The rows when there is no message; the skeleton while loading; else the panel."""
        if message is None:
            self.setCurrentWidget(self.content)
        elif message["kind"] == "loading":
            self.skeleton.set_caption(message["heading"])
            self.setCurrentWidget(self.skeleton)
        else:
            self.panel.show_message(message, can_retry)
            self.setCurrentWidget(self.panel_scroll)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if self.on_resize is not None and event.size().height() != event.oldSize().height():
            self.on_resize()
