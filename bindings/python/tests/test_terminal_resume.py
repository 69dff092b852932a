"""The terminal app picks up where it left off (issue #22, items 4 and 5): it saves a runtime
snapshot to its state file (--state-file) soon after each change and on every way out, and
reopens there. Killed with SIGKILL after it saved, it comes back on the same screen.

Every wait is a condition with a deadline: the screen (vt.py, through the pty) or the state
file's contents (read until the expected snapshot is there)."""

from __future__ import annotations

import json
import os
import random
import signal
import time
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence

import pytest

import cinematic

from test_terminal_app import TerminalApp, line_with

DOWN, UP, PGDN, ESC = "\x1bOB", "\x1bOA", "\x1b[6~", "\x1b"  # xterm in keypad mode
Doc = Dict[str, Any]



def counted(screen: str, n: int) -> bool:
    """The list's count line says n films: "n movies" (all loaded) or "n shown, more available"."""
    return f"{n} movie" in screen or f"{n} shown" in screen

def read_doc(path: Path) -> Optional[Doc]:
    try:
        value = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    return value if isinstance(value, dict) else None


def store_of(doc: Doc, feature: str) -> Optional[Doc]:
    return next((entry for entry in doc.get("stores", []) if entry.get("feature") == feature), None)


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


class Resumable:
    """The app on one state file: started, killed and started again."""

    def __init__(self, tmp_path: Path, extra: Sequence[str] = (), env: Optional[Dict[str, str]] = None) -> None:
        self.tmp_path = tmp_path
        self.state = tmp_path / "state" / "session.json"
        self.extra = list(extra)
        self.env = env
        self.app: Optional[TerminalApp] = None

    def start(self, *args: str) -> TerminalApp:
        self.app = TerminalApp(self.tmp_path, args=["--state-file", str(self.state), *self.extra, *args],
                               extra_env=self.env)
        return self.app

    def wait_saved(self, predicate: Callable[[Doc], bool], what: str, timeout: float = 15.0) -> Doc:
        """Waits until the state file holds a snapshot satisfying ``predicate``."""
        assert self.app is not None
        deadline = time.monotonic() + timeout
        while True:
            doc = read_doc(self.state)
            if doc is not None and predicate(doc):
                return doc
            if time.monotonic() > deadline:
                pytest.fail(f"timed out waiting for the state file to hold {what}: {doc}\n{self.app.screen.text()}")
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


def test_done_when_dune_detail_with_the_search_behind_it_after_sigkill(resumable):
    """Typing "dune", paging down twice, opening Dune, SIGKILL after it saved: the next start
    shows Dune's detail, with the search behind it."""
    app = resumable.start()
    app.wait_for(lambda s: "Search: _" in s, "the Search tab")
    app.send("dune")
    app.wait_for(lambda s: line_with(s, "Dune", "1984") is not None and counted(s, 3), "results for dune")
    app.send(PGDN)
    app.send(PGDN)
    app.send(UP * 2)   # back up to Dune (PgDn went to the last of the 3 results)
    app.send("\r")
    app.wait_for(lambda s: "Dune (1984)" in s and "Budget" in s, "Dune's detail")
    identifier = dune_id()
    saved = resumable.wait_saved(
        lambda doc: (store_of(doc, "detail") or {}).get("data") == {"movieId": identifier}
        and (store_of(doc, "search") or {}).get("data", {}).get("query") == "dune", "Dune's detail over the search")
    assert saved["format"] == 1 and [entry["feature"] for entry in saved["stores"]] == \
        ["search", "discover", "favorites", "detail"]
    resumable.kill()

    app = resumable.start()
    detail = app.wait_for(lambda s: "Dune (1984)" in s and "Budget" in s and "190 min" in s, "Dune's detail again")
    assert "Restored where you left off" in detail
    app.send(ESC)
    search = app.wait_for(lambda s: "Search: dune_" in s and counted(s, 3) and "Budget" not in s,
                          "the search for dune behind it")
    assert "Dune" in app.screen.lines()[4] and "1984" in app.screen.lines()[4], search
    app.send("\r")   # the selection came back too: Enter opens Dune again
    app.wait_for(lambda s: "Dune (1984)" in s and "Budget" in s, "Dune opened from the restored selection")
    app.send("\x11")
    assert app.wait_exit() == 0


# ---------------------------------------------------------------------- random kills

STAR_PAGES = 3


def check_restored(app: TerminalApp, doc: Doc, star: List[Dict[str, Any]]) -> None:
    """The restarted app shows what ``doc`` (the state file it was killed after) says."""
    search = store_of(doc, "search")
    assert search is not None
    view = search.get("view", {})
    detail = store_of(doc, "detail")
    if detail is not None:
        with cinematic.Runtime({}) as runtime:
            movie = runtime.detail(detail["data"]["movieId"])
            movie.task()
            loaded = movie.wait_for(lambda state: state["detail"]["phase"] == "loaded", 10)["detail"]["value"]
        heading = f"{loaded['title']} ({loaded['year']})"[:30]
        app.wait_for(lambda s: heading in s and "Budget" in s, f"the restored detail of {heading}")
        app.send(ESC)
    query, pages = search["data"]["query"], search["data"]["pagesLoaded"]
    if view["tab"] == "Search":
        results = star[:20 * max(pages, 1)] if query == "star" else search_results(query, max(pages, 1))
        count = len(results)
        offset, index = view["firstVisibleIndex"], view["selected"]
        # The selected row (the notice line, above the footer, covers the list's last row).
        row = 4 + index - offset
        if row == app.screen.rows - 2:
            row, index = row - 1, index - 1
        # One condition for the whole frame (curses may be mid-redraw between two reads).
        app.wait_for(lambda s: f"Search: {query}_" in s and counted(s, count)
                     and results[offset]["title"][:20] in app.screen.lines()[4]
                     and results[index]["title"][:20] in app.screen.lines()[row], f"the search for {query!r} restored")
    elif view["tab"] == "Discover":
        chosen = store_of(doc, "discover")
        assert chosen is not None
        section = chosen["view"]["section"]
        # Every section reloaded (a loading one is labelled with an ellipsis).
        app.wait_for(lambda s: all(line[:14].strip() and "…" not in line[:14] for line in app.screen.lines()[3:12])
                     and any(counted(line, n) for line in app.screen.lines()[2:3] for n in range(1, 1001)),
                     "the Discover tab restored and reloaded")
        titles = [line[:14] for line in app.screen.lines()[3:12]]
        assert titles[section].strip().startswith(f"{section + 1} "), titles


def star_steps(star: List[Dict[str, Any]], dune: int) -> List[tuple]:
    """The scripted session: (keys, what the saved snapshot says once it saved them)."""
    def search(doc: Doc) -> Doc:
        return store_of(doc, "search") or {}

    def view(doc: Doc) -> Doc:
        return search(doc).get("view", {})

    return [
        ("star", lambda d: search(d).get("data") == {"query": "star", "pagesLoaded": 1} and view(d)["selected"] == 0),
        (DOWN * 20, lambda d: search(d)["data"]["pagesLoaded"] == 2 and view(d)["selected"] == 19),
        (DOWN * 21, lambda d: search(d)["data"]["pagesLoaded"] == 3 and view(d)["selected"] == 39),
        (UP * 3, lambda d: view(d)["selected"] == 36 and view(d)["firstVisibleIndex"] == 21),
        ("\r", lambda d: (store_of(d, "detail") or {}).get("data") == {"movieId": star[36]["id"]}),
        (ESC, lambda d: store_of(d, "detail") is None),
        ("\t", lambda d: view(d)["tab"] == "Discover"
         and len((store_of(d, "discover") or {}).get("data", {}).get("sections", [])) == 9),
        ("]]" + DOWN * 3, lambda d: (store_of(d, "discover") or {}).get("view", {}).get("section") == 2
         and (store_of(d, "discover") or {})["view"]["selected"] == {"action": 3}),
        ("\t\t", lambda d: view(d)["tab"] == "Search"),
        ("\x15dune", lambda d: search(d).get("data") == {"query": "dune", "pagesLoaded": 1}),
        ("\r", lambda d: (store_of(d, "detail") or {}).get("data") == {"movieId": dune}),
    ]


def test_sigkill_at_random_points_of_a_scripted_session(resumable):
    """Killed at random steps of a session (after the state file holds that step), the app
    restarts on what was saved, and the session goes on from there: the steps after a
    restart (Enter opening the selected film, Discover's section) need the restored state."""
    seed = int(os.environ.get("CINEMATIC_RESUME_SEED", random.randrange(1 << 30)))
    rng = random.Random(seed)
    print(f"seed {seed} (CINEMATIC_RESUME_SEED={seed} repeats it)")
    star = search_results("star", STAR_PAGES)
    steps = star_steps(star, dune_id())
    kills = sorted(rng.sample(range(len(steps)), 3))
    print(f"killed after steps {kills}")
    app = resumable.start()
    app.wait_for(lambda s: "Search: _" in s, "the Search tab")
    for number, (keys, saved) in enumerate(steps):
        app.send(keys)
        doc = resumable.wait_saved(saved, f"step {number} ({keys!r}, seed {seed})")
        if number not in kills:
            continue
        resumable.kill()
        app = resumable.start()
        check_restored(app, doc, star)
        if view_tab(doc) == "Search" and store_of(doc, "detail") is not None:
            app.send("\r")   # check_restored went back from the detail: open it again
            app.wait_for(lambda s: "Budget" in s, "the detail reopened")
    app.send("\x11")
    assert app.wait_exit() == 0
    final = read_doc(resumable.state)
    assert final is not None and steps[-1][1](final)


def view_tab(doc: Doc) -> str:
    return str(((store_of(doc, "search") or {}).get("view") or {}).get("tab"))


# ---------------------------------------------------------------------- every way out saves

#: Periodic saves off (a change waits 10 minutes): what the file holds was saved on the way out.
NO_PERIODIC = {"CINEMATIC_TUI_SAVE_QUIET_MS": "600000"}

#: Runs the app with a key that raises (an exception inside the loop), through run.sh's PYTHON.
RAISING_PYTHON = """#!/bin/sh
shift 2  # -m cinematic_tui
exec "$REAL_PYTHON" -c '
import sys
import cinematic_tui.keys as keys
handle = keys.KeyHandling.handle_key
def raising(self, key):
    if key == "!":
        raise RuntimeError("a bug in a key handler")
    return handle(self, key)
keys.KeyHandling.handle_key = raising
from cinematic_tui.app import main
sys.exit(main(sys.argv[1:]))' "$@"
"""


@pytest.mark.parametrize("way", ["ctrl-q", "ctrl-c", "esc-q", "q-outside-search", "sigterm", "sighup", "exception"])
def test_every_way_out_saves(tmp_path, way):
    env = dict(NO_PERIODIC)
    if way == "exception":
        wrapper = tmp_path / "python-raising"
        wrapper.write_text(RAISING_PYTHON)
        wrapper.chmod(0o755)
        env.update({"PYTHON": str(wrapper), "REAL_PYTHON": os.environ.get("PYTHON", "") or __import__("sys").executable})
    session = Resumable(tmp_path, env=env)
    app = session.start()
    try:
        app.wait_for(lambda s: "Search: _" in s, "the Search tab")
        app.send("alien")
        app.wait_for(lambda s: line_with(s, "Alien", "1979") is not None, "results for alien")
        assert not session.state.exists()  # nothing saved yet: the way out must save
        expected = 128 + signal.SIGTERM if way == "sigterm" else 128 + signal.SIGHUP if way == "sighup" else 0
        if way == "ctrl-q":
            app.send("\x11")
        elif way == "ctrl-c":
            app.send("\x03")
        elif way == "esc-q":
            app.send(ESC)
            app.wait_for(lambda s: "press q to quit" in s, "the Esc hint")
            app.send("q")
        elif way == "q-outside-search":
            app.send("\t\t")
            app.wait_for(lambda s: "Your favorites" in s, "the Favorites tab")
            app.send("q")
        elif way == "sigterm":
            os.kill(app.pid, signal.SIGTERM)
        elif way == "sighup":
            os.kill(app.pid, signal.SIGHUP)
        else:
            app.send("!")
            expected = 1
        assert app.wait_exit() == expected
        if way == "exception":
            assert "a bug in a key handler" in app.transcript.decode("utf-8", "replace")
    finally:
        app.close()
    doc = read_doc(session.state)
    assert doc is not None, f"{way}: nothing saved"
    search = store_of(doc, "search")
    assert search is not None and search["data"]["query"] == "alien"
    tab = "Favorites" if way == "q-outside-search" else "Search"
    assert search["view"]["tab"] == tab


def test_saves_are_debounced_and_atomic(resumable):
    """A change is saved soon (no exit needed), through a temporary file renamed into place:
    no temporary is left, the file is 0600 and the state directory 0700."""
    app = resumable.start()
    app.wait_for(lambda s: "Search: _" in s, "the Search tab")
    app.send("alien")
    resumable.wait_saved(lambda doc: (store_of(doc, "search") or {}).get("data") == {"query": "alien", "pagesLoaded": 1},
                         "the search for alien")
    assert sorted(p.name for p in resumable.state.parent.iterdir()) == ["session.json"]
    assert resumable.state.stat().st_mode & 0o777 == 0o600
    assert resumable.state.parent.stat().st_mode & 0o777 == 0o700
    app.send("\x11")
    assert app.wait_exit() == 0


# ---------------------------------------------------------------------- record and replay

def test_a_recorded_session_of_the_app_that_restores_replays_state_for_state(resumable, tmp_path):
    """The app restoring (Search with pages, an open Detail) under --record: the recording
    opens the stores from their snapshots, and replays state for state in Python and C."""
    import subprocess

    import cinematic.replay

    app = resumable.start()
    app.wait_for(lambda s: "Search: _" in s, "the Search tab")
    app.send("star")
    app.wait_for(lambda s: counted(s, 20), "a page of star")
    app.send(DOWN * 20)
    app.wait_for(lambda s: counted(s, 40), "two pages of star")
    app.send("\r")
    app.wait_for(lambda s: "Budget" in s, "a detail")
    app.send("\x11")
    assert app.wait_exit() == 0
    recording = tmp_path / "restore.jsonl"
    app = resumable.start("--record", str(recording))
    app.wait_for(lambda s: "Budget" in s and "Restored where you left off" in s, "the detail restored")
    app.send("f")
    app.wait_for(lambda s: "Favorites (1)" in s, "a favorite")
    app.send(ESC)
    app.wait_for(lambda s: "Search: star_" in s and counted(s, 40), "the search behind it")
    app.send(DOWN)
    app.send("\x11")
    assert app.wait_exit() == 0
    opens = [line for line in map(json.loads, recording.read_text().splitlines()) if line["event"] == "open"]
    assert {line["feature"] for line in opens if "snapshot" in (line.get("args") or {})} == \
        {"search", "discover", "favorites", "detail"}
    report = cinematic.replay.replay(recording)
    assert report["matched"] and report["complete"], report
    done = subprocess.run([str(Path(__file__).resolve().parents[3] / "build" / "bin" / "cinematic-replay"),
                           str(recording)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_save_during_a_restore_keeps_the_saved_pages(tmp_path):
    """While a restored Search and Discover reload (here: a catalog that has not answered
    yet), the library's own snapshot counts only the pages reloaded so far (none); the app
    saves what it restored, so a kill in the middle of a restore loses no pages."""
    import sys
    from types import SimpleNamespace

    sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "examples" / "python"))
    from cinematic_tui.common import ListCursor
    from cinematic_tui.resume import Session

    saved = {"format": 1, "stores": [
        {"format": 1, "feature": "search", "data": {"query": "star", "pagesLoaded": 3},
         "view": {"tab": "Search", "selected": 45, "firstVisibleIndex": 30}},
        {"format": 1, "feature": "discover", "data": {"sections": [{"section": "comedy", "pagesLoaded": 4}]}}]}
    path = tmp_path / "session.json"
    path.write_text(json.dumps(saved))
    with cinematic.Runtime({"catalog": "host", "clock": "manual"}) as runtime:
        runtime.set_provider(lambda request_id, request: None)   # never answers (yet)
        session = Session(path)
        session.restore(runtime)
        search, discover = session.stores["search"], session.stores["discover"]
        assert search.snapshot()["data"]["pagesLoaded"] == 0   # the library's view mid-reload
        cursors: Dict[str, ListCursor] = {}
        app = SimpleNamespace(search=search, discover=discover, favorites=None, detail=None, tab=0, section=0,
                              cursors=cursors, search_state=None, discover_state=None, favorites_state=None,
                              cursor=lambda key: cursors.setdefault(key, ListCursor()))
        session.app = app  # type: ignore[assignment]
        session.positions = {"search": (45, 30)}
        session.hold_positions()
        document = json.loads(session.capture() or "{}")
        assert document["stores"][0]["data"] == {"query": "star", "pagesLoaded": 3}
        assert document["stores"][0]["view"]["selected"] == 45
        assert document["stores"][1]["data"] == {"sections": [{"section": "comedy", "pagesLoaded": 4}]}
