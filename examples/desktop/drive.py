"""Driving the app like a person, outside pytest and in it (the benchmark, the screenshots, the
tests): the keymap's keys pressed by name, a wheel turned, what the window shows read back as
text, and waits that run Qt's event loop (no sleeping: QTest.qWait sleeps up to 10 ms at a
time between rounds of events, which would stall the loop it is measuring)."""

from __future__ import annotations

from typing import Callable, List

from PySide6.QtCore import QElapsedTimer, QEventLoop, QPoint, QPointF, Qt, QTimer
from PySide6.QtGui import QWheelEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import (
    QAbstractButton, QAbstractScrollArea, QApplication, QLabel, QLineEdit, QListWidget, QTabBar, QTableWidget, QWidget,
)

MODIFIERS = {"Ctrl": Qt.KeyboardModifier.ControlModifier, "Shift": Qt.KeyboardModifier.ShiftModifier,
             "Alt": Qt.KeyboardModifier.AltModifier}


def run_loop(ms: int) -> None:
    """Qt's event loop for ``ms``."""
    loop = QEventLoop()
    QTimer.singleShot(ms, loop.quit)
    loop.exec()


def type_slowly(field: QWidget, text: str, per_key_ms: int) -> None:
    """One real key press per character, ``per_key_ms`` apart (the event loop runs between)."""
    for key in text:
        QTest.keyClick(field, key)
        run_loop(per_key_ms)


def press(window: QWidget, *names: str) -> None:
    """Presses the keys named as the keymap names them ("Down", "Enter", "Shift+Tab", "Ctrl+Z",
    "F"), each on the widget that has the keyboard (else the window), as a person does."""
    for name in names:
        *held, key = name.split("+")
        modifiers = Qt.KeyboardModifier.NoModifier
        for modifier in held:
            modifiers |= MODIFIERS[modifier]
        code = Qt.Key.Key_Return if key == "Enter" else getattr(Qt.Key, f"Key_{key}")
        if key == "Tab" and "Shift" in held:
            code = Qt.Key.Key_Backtab
        focused = QApplication.focusWidget()
        target = focused if focused is not None and focused.window() is window else window
        QTest.keyClick(target, code, modifiers)


def wheel(view: QAbstractScrollArea, notches: int) -> None:
    """Turns a mouse wheel over ``view`` by ``notches`` (positive: down, towards the end), one
    notch at a time, as Qt delivers a real wheel's events."""
    for _ in range(abs(notches)):
        at = QPointF(view.viewport().rect().center())
        event = QWheelEvent(at, view.viewport().mapToGlobal(at), QPoint(0, 0), QPoint(0, -120 if notches > 0 else 120),
                            Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier, Qt.ScrollPhase.NoScrollPhase, False)
        QApplication.sendEvent(view.viewport(), event)


def shown_texts(root: QWidget) -> List[str]:
    """Every text a person sees in ``root``, top-level order: labels, buttons, fields, tabs,
    list items and table cells of the widgets shown."""
    texts: List[str] = []
    for widget in [root, *root.findChildren(QWidget)]:
        if not widget.isVisible():
            continue
        if isinstance(widget, (QLabel, QAbstractButton, QLineEdit)):
            texts.append(widget.text())
        elif isinstance(widget, QTabBar):
            texts += [widget.tabText(i) for i in range(widget.count())]
        elif isinstance(widget, QListWidget):
            texts += [widget.item(i).text() for i in range(widget.count())]
        elif isinstance(widget, QTableWidget):
            texts += [widget.item(r, c).text() for r in range(widget.rowCount()) for c in range(widget.columnCount())
                      if widget.item(r, c) is not None]
    return [text for text in texts if text]


def row_titles(table: QTableWidget) -> List[str]:
    """What a table of rows shows in its title column, top to bottom."""
    items = (table.item(i, 0) for i in range(table.rowCount()))
    return [item.text() for item in items if item is not None]


def shown_text(root: QWidget) -> str:
    """:func:`shown_texts`, one per line."""
    return "\n".join(shown_texts(root))


def wait_until(condition: Callable[[], bool], what: str, timeout_ms: int = 10_000) -> None:
    """Runs the event loop until ``condition()``; TimeoutError naming ``what`` after ``timeout_ms``."""
    clock = QElapsedTimer()
    clock.start()
    while not condition():
        if clock.elapsed() > timeout_ms:
            raise TimeoutError(f"timed out after {timeout_ms} ms waiting for {what}")
        run_loop(5)
