"""Driving the app like a person, outside pytest (the benchmark, the screenshots): real key
presses, and waits that run Qt's event loop (no sleeping: QTest.qWait sleeps up to 10 ms at a
time between rounds of events, which would stall the loop it is measuring)."""

from __future__ import annotations

from typing import Callable

from PySide6.QtCore import QElapsedTimer, QEventLoop, QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QWidget


def run_loop(ms: int) -> None:
    """Qt's event loop for ``ms``."""
    loop = QEventLoop()
    QTimer.singleShot(ms, loop.quit)
    loop.exec()


def type_slowly(field: QWidget, text: str, per_key_ms: int) -> None:
    """One real key press per character, ``per_key_ms`` apart (the event loop runs between)."""
    for key in text:
        QTest.keyClicks(field, key)
        run_loop(per_key_ms)


def wait_until(condition: Callable[[], bool], what: str, timeout_ms: int = 10_000) -> None:
    """Runs the event loop until ``condition()``; TimeoutError naming ``what`` after ``timeout_ms``."""
    clock = QElapsedTimer()
    clock.start()
    while not condition():
        if clock.elapsed() > timeout_ms:
            raise TimeoutError(f"timed out after {timeout_ms} ms waiting for {what}")
        run_loop(5)
