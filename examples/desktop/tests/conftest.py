"""Fixtures for the desktop app's tests: real widgets on Qt's offscreen platform, a runtime
with queued delivery (dispatched by the window's QSocketNotifier) per test."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any, Callable, Dict, Iterator, List, Optional

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

REPO = Path(__file__).resolve().parents[3]
for path in (REPO / "bindings" / "python", REPO / "examples" / "python", REPO / "examples" / "desktop"):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))

import pytest  # noqa: E402
from PySide6.QtCore import QSettings  # noqa: E402

import cinematic  # noqa: E402
from cinematic.http_provider import HttpCatalogProvider  # noqa: E402
from cinematic_desktop.window import MainWindow  # noqa: E402

WindowFactory = Callable[..., MainWindow]


@pytest.fixture
def make_window(qtbot: Any, tmp_path: Path) -> Iterator[WindowFactory]:
    """``make_window(favorites=..., settings_name=..., state_file=...)``: a shown MainWindow
    over a fresh queued runtime (history kept for the debug panel), its app store saving to
    ``state_file`` when given; closed, then its runtime, after the test."""
    opened: List[Any] = []

    def make(favorites: Any = None, settings_name: str = "settings.ini", live_url: Optional[str] = None,
             state_file: Optional[Path] = None, **config: Any) -> MainWindow:
        options: Dict[str, Any] = {"delivery": "queued", "history": 200,
                                   "favorites": favorites if favorites is not None else str(tmp_path / "favorites.sqlite")}
        if live_url is not None:
            options.update(catalog="host", offlineCache={"path": str(tmp_path / "cache.sqlite")})
        options.update(config)
        runtime = cinematic.Runtime(options)
        provider = None
        if live_url is not None:
            provider = HttpCatalogProvider(runtime, live_url, timeout=5.0)
            runtime.set_provider(provider)
        settings = QSettings(str(tmp_path / settings_name), QSettings.Format.IniFormat)
        window = MainWindow(runtime, settings=settings, state_file=str(state_file) if state_file else None)
        window.live_provider = provider   # type: ignore[attr-defined]  # for the tests that close it
        opened.append((window, runtime, provider))
        window.show()
        qtbot.waitExposed(window)
        window.activateWindow()
        qtbot.waitUntil(window.isActiveWindow, timeout=5000)  # shortcuts need an active window
        return window

    yield make
    for window, runtime, provider in reversed(opened):
        window.close()
        runtime.close()
        if provider is not None:
            provider.close()


class CatalogServer:
    """examples/catalog-server on a free port, in a subprocess."""

    def __init__(self) -> None:
        self.process = subprocess.Popen([sys.executable, str(REPO / "examples" / "catalog-server" / "server.py"),
                                         "--port", "0", "--quiet"], stdout=subprocess.PIPE, text=True)
        assert self.process.stdout is not None
        first = self.process.stdout.readline().strip()
        assert first.startswith("listening on http://"), first
        self.url = first.split()[-1]

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)
        if self.process.stdout:
            self.process.stdout.close()


@pytest.fixture
def server() -> Iterator[CatalogServer]:
    running = CatalogServer()
    yield running
    running.stop()
