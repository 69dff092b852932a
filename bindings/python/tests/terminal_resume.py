"""What the terminal app's resume tests share (test_terminal_resume.py, test_terminal_saves.py,
test_terminal_scenario.py, test_terminal_state_file.py): the app on one state file
(``Resumable``, and the ``resumable`` fixture, imported by the test modules that use it), what
the state file says, and what the library itself answers for a search, a Discover section
and a detail.

Every wait is a condition with a deadline: the screen (vt.py, through the pty) or the state
file's contents (read until the expected snapshot is there)."""

from __future__ import annotations

import json
import os
import signal
import time
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence

import pytest

import cinematic

from test_terminal_app import TerminalApp

DOWN, UP, RIGHT, PGDN, ESC = "\x1bOB", "\x1bOA", "\x1bOC", "\x1b[6~", "\x1b"  # xterm in keypad mode
#: The list rows the app shows at 80x24 (4 above them, the notice and footer lines below).
LIST_ROWS = 18
Doc = Dict[str, Any]


def counted(screen: str, n: int) -> bool:
    """The list's count line says n films: "n movies" (all loaded) or "n shown, more match"."""
    return f"{n} movie" in screen or f"{n} shown" in screen


def read_data(path: Path) -> Optional[Doc]:
    """What the state file says (the app snapshot's data), None while it holds none."""
    try:
        value = json.loads(path.read_text())
        return value["snapshot"]["data"] if value.get("cinematicAppState") == 1 else None
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


def search_results(query: str, pages: int) -> List[Dict[str, Any]]:
    """What the catalog answers for ``query`` over ``pages`` pages (the library itself)."""
    with cinematic.Runtime({}) as runtime:
        search = runtime.search()
        search.query_changed(query)
        search.settle(10)
        for _ in range(pages - 1):
            search.load_more()
            search.settle(10)
        return list(search.state["results"]["value"])


def section_movies(section: str, pages: int) -> List[Dict[str, Any]]:
    """What Discover shows in ``section`` over ``pages`` pages (the library itself)."""
    with cinematic.Runtime({}) as runtime, runtime.discover() as discover:
        discover.task()
        for page in range(1, pages + 1):
            chosen = discover.wait_for(lambda s: next(x for x in s["sections"] if x["section"] == section)
                                       ["pagesLoaded"] == page, 10)
            if page < pages:
                discover.load_more(section)  # type: ignore[arg-type]
        return list(next(x for x in chosen["sections"] if x["section"] == section)["movies"]["value"])


def detail_heading(movie_id: int) -> str:
    with cinematic.Runtime({}) as runtime, runtime.detail(movie_id) as movie:
        movie.task()
        loaded = movie.wait_for(lambda state: state["detail"]["phase"] == "loaded", 10)["detail"]["value"]
    return f"{loaded['title']} ({loaded['year']})"[:30]


def position(data: Doc, name: str) -> Dict[str, int]:
    return data["positions"].get(name, {"selection": 0, "firstVisible": 0})


class Resumable:
    """The app on one state file: started, killed and started again."""

    def __init__(self, tmp_path: Path, extra: Sequence[str] = (), env: Optional[Dict[str, str]] = None) -> None:
        self.tmp_path = tmp_path
        self.state = tmp_path / "state" / "session.json"
        self.state.parent.mkdir(mode=0o700, exist_ok=True)   # a --state-file's folder must exist (issue 34)
        self.extra = list(extra)
        self.env = env
        self.app: Optional[TerminalApp] = None

    def start(self, *args: str) -> TerminalApp:
        self.app = TerminalApp(self.tmp_path, args=["--state-file", str(self.state), *self.extra, *args],
                               extra_env=self.env)
        return self.app

    def wait_saved(self, predicate: Callable[[Doc], bool], what: str, timeout: float = 15.0) -> Doc:
        """Waits until the state file holds an app snapshot whose data satisfies ``predicate``."""
        assert self.app is not None
        deadline = time.monotonic() + timeout
        while True:
            data = read_data(self.state)
            if data is not None and predicate(data):
                return data
            if time.monotonic() > deadline:
                pytest.fail(f"timed out waiting for the state file to hold {what}: {data}\n{self.app.screen.text()}")
            self.app.pump(0.05)

    def kill(self) -> None:
        assert self.app is not None
        os.kill(self.app.pid, signal.SIGKILL)
        _, status = os.waitpid(self.app.pid, 0)
        assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL
        self.app.status = -signal.SIGKILL
        self.app.close()
        self.app = None

    def close(self) -> None:
        if self.app is not None:
            self.app.close()


@pytest.fixture
def resumable(tmp_path):
    session = Resumable(tmp_path)
    yield session
    session.close()


def dune_id() -> int:
    return int(next(m for m in search_results("dune", 1) if m["title"] == "Dune" and m["year"] == 1984)["id"])
