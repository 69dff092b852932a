"""The desktop app's states, pictured (issue 34): each screen empty, loading, failed and
offline, at two window sizes, reached for real: the example movie API (examples/catalog-server)
is slowed down, made to fail or left failing after a first visit (then the library's offline
cache answers). Each picture is checked as it is taken: the words of its state are on screen,
no label is cut (a wrapped one has the height its text needs, a one-line one the width), and
the window kept the size it was given.

States a screen cannot be in are not pictured: Discover's sections are never empty in the
shipped catalog, the favorites are a local file (loading is too quick to catch and it does
not go offline), and a film's Detail is never empty.

    examples/desktop/screenshots.sh [OUT_DIR]      (with the four screens; default docs/screenshots)
"""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.request
from pathlib import Path
from typing import Any, Callable, Dict, List, NamedTuple

from PySide6.QtCore import QSettings, QSize, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QAbstractScrollArea, QApplication, QLabel, QWidget

import cinematic
from cinematic.http_provider import HttpCatalogProvider, catalog_config

from drive import press, row_titles, wait_until

REPO = Path(__file__).resolve().parents[2]
SIZES: Dict[str, QSize] = {"large": QSize(960, 600), "small": QSize(640, 480)}
CTRL = Qt.KeyboardModifier.ControlModifier


class StateShot(NamedTuple):
    """One picture: where it is, what it shows, and what the check found."""
    path: Path
    screen: str
    state: str
    size: QSize        # the size the window was given
    shown: QSize       # its size when pictured
    words: str         # the words of the state found on screen
    cut: List[str]     # labels whose text did not fit (none, when all is well)


def visible_text(root: QWidget) -> str:
    """Every label's text on screen, one per line."""
    return "\n".join(label.text() for label in root.findChildren(QLabel) if label.isVisible() and label.text())


def cut_labels(root: QWidget) -> List[str]:
    """What on screen does not fit: a wrapped label lower than its text needs, a one-line one
    narrower than its text (rich text is left to Qt), a view that scrolls sideways."""
    cut = []
    for label in root.findChildren(QLabel):
        text = label.text()
        if not label.isVisible() or not text or label.textFormat() == Qt.TextFormat.RichText or "<" in text:
            continue
        if label.wordWrap():
            needed = label.heightForWidth(label.width())
            if needed > label.height() + 1:
                cut.append(f"{label.objectName() or text[:30]}: {label.height()} < {needed} px high")
        elif label.fontMetrics().horizontalAdvance(text) > label.width() + 1:
            cut.append(f"{label.objectName() or text[:30]}: {label.width()} px for "
                       f"{label.fontMetrics().horizontalAdvance(text)} px of text")
    for area in root.findChildren(QAbstractScrollArea):
        if area.isVisible() and area.horizontalScrollBar().isVisible():
            cut.append(f"{area.objectName() or type(area).__name__}: wider than the window (scrolls sideways)")
    return cut


class Server:
    """The example movie API on a free port, with its failure switches."""

    def __init__(self) -> None:
        self.process = subprocess.Popen([sys.executable, str(REPO / "examples" / "catalog-server" / "server.py"),
                                         "--port", "0", "--quiet"], stdout=subprocess.PIPE, text=True)
        assert self.process.stdout is not None
        self.url = self.process.stdout.readline().strip().split()[-1]

    def control(self, **changes: Any) -> None:
        """``latencyMs``, ``fail``, ``failEvery`` (POST /_control)."""
        request = urllib.request.Request(f"{self.url}/_control", data=json.dumps(changes).encode(), method="POST",
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=10) as answer:
            answer.read()

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=10)
        if self.process.stdout:
            self.process.stdout.close()


class Session:
    """A window over the live API, its runtime (offline cache in ``scratch``) and provider."""

    def __init__(self, server: Server, scratch: Path, size: QSize, name: str) -> None:
        from cinematic_desktop.window import MainWindow
        self.runtime = cinematic.Runtime({
            "delivery": "queued", "catalog": catalog_config(server.url), "requestDeadlineMs": 2000,
            "offlineCache": {"path": str(scratch / "cache.sqlite")}, "favorites": str(scratch / f"{name}.sqlite")})
        self.provider = HttpCatalogProvider(self.runtime, server.url, timeout=3.0)
        self.runtime.set_provider(self.provider)
        self.window = MainWindow(self.runtime, settings=QSettings(str(scratch / f"{name}.ini"), QSettings.Format.IniFormat))
        self.size = size
        self.window.resize(size)
        self.window.show()
        QTest.qWaitForWindowExposed(self.window)

    def close(self) -> None:
        self.window.close()
        self.runtime.close()
        self.provider.close()


def capture_states(out: Path, scratch: Path) -> List[StateShot]:
    """Every state picture, for each size of :data:`SIZES`, into ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    QApplication.instance() or QApplication(sys.argv[:1])
    shots: List[StateShot] = []
    for size_name, size in SIZES.items():
        server = Server()
        try:
            folder = scratch / size_name
            folder.mkdir(parents=True, exist_ok=True)
            first = Session(server, folder, size, "first")
            try:
                shots += visit(first, server, size_name, out)
            finally:
                first.close()
            server.control(fail=True, latencyMs=0)           # the server fails from now on
            second = Session(server, folder, size, "second")
            try:
                shots += visit_offline(second, size_name, out)
            finally:
                second.close()
        finally:
            server.stop()
    return shots


def picture(session: Session, out: Path, screen: str, state: str, size_name: str, words: Callable[[str], bool],
            what: str) -> StateShot:
    """Waits for ``words`` on screen, then pictures the window and checks it."""
    window = session.window
    try:
        wait_until(lambda: words(visible_text(window)), f"{screen} {state}: {what}", 15_000)
    except TimeoutError as error:
        raise TimeoutError(f"{error}; the window shows:\n{visible_text(window)}") from None
    try:   # the layout settles after a text changes: give it a moment (bounded) before judging
        wait_until(lambda: not cut_labels(window), "the layout to settle", 2_000)
    except TimeoutError:
        pass   # what is still cut is reported below
    path = out / f"{screen}-{state}-{size_name}.png"
    if not window.grab().save(str(path)):
        raise OSError(f"cannot write {path}")
    return StateShot(path, screen, state, session.size, window.size(), what, cut_labels(window))


def visit(session: Session, server: Server, size_name: str, out: Path) -> List[StateShot]:
    """Empty, loading and failed, and a first visit whose answers the offline cache keeps."""
    window, shots = session.window, []
    shot = lambda screen, state, words, what: shots.append(  # noqa: E731
        picture(session, out, screen, state, size_name, words, what))

    def search(query: str) -> None:
        """A new query in the field: all of the old one selected (Ctrl+A), then typed over."""
        QTest.keyClick(window.search_field, Qt.Key.Key_A, CTRL)
        QTest.keyClicks(window.search_field, query)

    press(window, "Shift+Tab")                               # Favorites
    shot("favorites", "empty", lambda t: "No favorites yet" in t, "No favorites yet")
    press(window, "Tab")                                     # Search
    search("qqzzqqzz")
    shot("search", "empty", lambda t: "Nothing found" in t and "Try fewer words" in t, "Nothing found")
    server.control(latencyMs=600_000)                        # answers that do not come
    search("alien")
    press(window, "Enter")                                   # searches now
    shot("search", "loading", lambda t: "Searching for" in t and "alien" in t, "Searching for “alien”…")
    press(window, "Tab")                                     # Discover
    shot("discover", "loading", lambda t: "Loading Popular" in t, "Loading Popular…")
    shot("discover", "failed", lambda t: "Could not load Popular: timeout" in t and "F5 tries again" in t,
         "Could not load Popular: timeout … F5 tries again")
    server.control(latencyMs=0, fail=True)
    press(window, "Shift+Tab")
    search("godfather")
    shot("search", "failed", lambda t: "Search failed:" in t and "F5 tries again" in t, "Search failed: … F5 tries again")
    server.control(fail=False)                               # a live visit: the cache keeps it
    search("dune")
    wait_until(lambda: row_titles(window.rows)[:1] == ["Dune"], "Dune, live", 15_000)
    press(window, "Enter")
    wait_until(lambda: window.view is not None and window.view["detail"] is not None
               and window.view["detail"]["histogram"] is not None, "Dune's detail, live", 15_000)
    press(window, "Escape", "Tab", "F5")                     # Discover, tried again
    wait_until(lambda: window.view is not None and window.view["screen"] == "discover"
               and bool(row_titles(window.rows)), "Popular, live", 15_000)
    press(window, "Shift+Tab")
    server.control(latencyMs=600_000)
    press(window, "Down", "Enter")                           # the second film: nothing saved of its detail
    shot("detail", "loading", lambda t: "Loading " in t and "…" in t, "Loading the film…")
    shot("detail", "failed", lambda t: "Could not load" in t and ": timeout" in t and "F5 tries again" in t,
         "Could not load the film: timeout … F5 tries again")
    press(window, "Escape")
    server.control(latencyMs=0)
    return shots


def visit_offline(session: Session, size_name: str, out: Path) -> List[StateShot]:
    """A new start with the server failing: what the first visit saw, from the offline cache."""
    window, shots = session.window, []
    QTest.keyClicks(window.search_field, "dune")
    shots.append(picture(session, out, "search", "offline", size_name,
                         lambda t: "Offline: showing saved results" in t and "does not answer" in t,
                         "Offline: showing saved results (the movie server does not answer)"))
    press(window, "Enter")
    shots.append(picture(session, out, "detail", "offline", size_name,
                         lambda t: "Offline: showing saved results" in t and "Budget" in t and "190 min" in t,
                         "Dune's saved detail, offline"))
    press(window, "Escape", "Tab")
    shots.append(picture(session, out, "discover", "offline", size_name,
                         lambda t: "Popular" in t and "Offline: showing saved results" in t,
                         "Popular, saved, offline"))
    return shots
