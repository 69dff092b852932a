"""Fixtures for the desktop app's tests: real widgets on Qt's offscreen platform, a runtime
with queued delivery (dispatched by the window's QSocketNotifier) per test."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any, Callable, Dict, Iterator, List

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

REPO = Path(__file__).resolve().parents[3]
for path in (REPO / "bindings" / "python", REPO / "examples" / "python", REPO / "examples" / "desktop"):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))

import pytest  # noqa: E402
from PySide6.QtCore import QSettings  # noqa: E402

import cinematic  # noqa: E402
from cinematic_desktop.app import MainWindow  # noqa: E402

WindowFactory = Callable[..., MainWindow]


@pytest.fixture
def make_window(qtbot: Any, tmp_path: Path) -> Iterator[WindowFactory]:
    """``make_window(favorites=..., settings_name=...)``: a shown MainWindow over a fresh
    queued runtime (history kept for the debug panel); closed, then its runtime, after the test."""
    opened: List[Any] = []

    def make(favorites: Any = None, settings_name: str = "settings.ini", **config: Any) -> MainWindow:
        options: Dict[str, Any] = {"delivery": "queued", "history": 200,
                                   "favorites": favorites if favorites is not None else str(tmp_path / "favorites.sqlite")}
        options.update(config)
        runtime = cinematic.Runtime(options)
        settings = QSettings(str(tmp_path / settings_name), QSettings.Format.IniFormat)
        window = MainWindow(runtime, settings=settings)
        opened.append((window, runtime))
        window.show()
        qtbot.waitExposed(window)
        window.activateWindow()
        qtbot.waitUntil(window.isActiveWindow, timeout=5000)  # shortcuts need an active window
        return window

    yield make
    for window, runtime in reversed(opened):
        window.close()
        runtime.close()
