"""`make screenshots` pictures every state of each screen at two sizes (issue 34): each
picture shows the words of its state, cuts no label and leaves the window at the size it was
given; every screen has its states, at both sizes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtGui import QImage

import screenshots_states
from screenshots_states import SIZES, capture_states

EXPECTED = {("search", "empty"), ("search", "loading"), ("search", "failed"), ("search", "offline"),
            ("discover", "loading"), ("discover", "failed"), ("discover", "offline"),
            ("favorites", "empty"), ("detail", "loading"), ("detail", "failed"), ("detail", "offline")}


def test_each_state_of_each_screen_at_two_sizes(qapp: Any, tmp_path: Path) -> None:
    shots = capture_states(tmp_path / "out", tmp_path / "scratch")
    assert {(shot.screen, shot.state, shot.size.toTuple()) for shot in shots} == {
        (screen, state, size.toTuple()) for screen, state in EXPECTED for size in SIZES.values()}
    for shot in shots:
        assert shot.cut == [], (shot.path.name, shot.cut)
        assert shot.shown == shot.size, (shot.path.name, shot.shown)
        image = QImage(str(shot.path))
        assert (image.width(), image.height()) == shot.size.toTuple(), shot.path.name


def test_the_check_sees_a_cut_label(qapp: Any) -> None:
    from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget
    root = QWidget()
    layout = QVBoxLayout(root)
    wrapped, single = QLabel("many words " * 40), QLabel("a line far too long for its label " * 4)
    wrapped.setWordWrap(True)
    wrapped.setFixedSize(200, 20)
    single.setFixedWidth(50)
    layout.addWidget(wrapped)
    layout.addWidget(single)
    root.show()
    assert len(screenshots_states.cut_labels(root)) == 2
    root.close()
