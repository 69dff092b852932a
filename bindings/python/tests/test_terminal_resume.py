"""The terminal app picks up where it left off: it opens the library's app store on its state
file (--state-file); the library saves the app's snapshot there after a second of quiet and
at close, and resumes from it. Killed with SIGKILL after a save, the app comes back on the
same screen; a recorded session of the app that resumes replays state for state. What saves
(every way out, a quiet second): test_terminal_saves.py.

Every wait is a condition with a deadline: the screen (vt.py, through the pty) or the state
file's contents (read until the expected snapshot is there)."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional

from test_terminal_app import TerminalApp, line_with
from terminal_resume import (DOWN, ESC, LIST_ROWS, PGDN, RIGHT, UP, Doc, counted, detail_heading, dune_id, position, read_data,  # noqa: F401
                             resumable, search_results)


def test_dune_detail_with_the_search_behind_it_after_sigkill(resumable):
    """Typing "dune", paging down, opening Dune, SIGKILL after the library saved: the next
    start shows Dune's detail, with the search behind it and its selection."""
    app = resumable.start()
    app.wait_for(lambda s: "Search: _" in s, "the Search tab")
    app.send("dune")
    app.wait_for(lambda s: line_with(s, "Dune", "1984") is not None and counted(s, 4), "results for dune")
    app.send(PGDN)
    app.send(PGDN)     # past the last row of an exhausted list: it stays on the last row
    app.send(UP * 3)   # back up to Dune
    app.send("\r")
    app.wait_for(lambda s: "Dune (1984)" in s and "Budget" in s, "Dune's detail")
    identifier = dune_id()
    saved = resumable.wait_saved(lambda data: [d["movieId"] for d in data["details"]] == [identifier]
                                 and data["query"] == "dune", "Dune's detail over the search")
    assert saved["tab"] == "search" and position(saved, "search")["selection"] == 0
    resumable.kill()

    app = resumable.start()
    app.wait_for(lambda s: "Dune (1984)" in s and "Budget" in s and "190 min" in s, "Dune's detail again")
    app.send(ESC)
    search = app.wait_for(lambda s: "Search: dune_" in s and counted(s, 4) and "Budget" not in s
                          and "Dune" in app.screen.lines()[4] and "1984" in app.screen.lines()[4],
                          "the search for dune behind it")
    assert "Dune" in app.screen.lines()[4] and "1984" in app.screen.lines()[4], search
    app.send("\r")   # the selection came back too: Enter opens Dune again
    app.wait_for(lambda s: "Dune (1984)" in s and "Budget" in s, "Dune opened from the restored selection")
    app.send("\x11")
    assert app.wait_exit() == 0


# ---------------------------------------------------------------------- random kills

STAR_PAGES = 3


def check_restored(app: TerminalApp, data: Doc, star: List[Dict[str, Any]]) -> None:
    """The restarted app shows what ``data`` (the state file it was killed after) says."""
    if data["details"]:
        heading = detail_heading(data["details"][-1]["movieId"])
        app.wait_for(lambda s: heading in s and "Budget" in s, f"the restored detail of {heading}")
        app.send(ESC)
    if data["tab"] == "search":
        query, pages = data["query"], data["searchPages"]
        results = star[:20 * max(pages, 1)] if query == "star" else search_results(query, max(pages, 1))
        chosen = position(data, "search")
        first, index = chosen["firstVisible"], chosen["selection"]
        row = 4 + index - first
        # One condition for the whole frame (curses may be mid-redraw between two reads).
        app.wait_for(lambda s: f"Search: {query}_" in s and counted(s, len(results))
                     and results[first]["title"][:20] in app.screen.lines()[4]
                     and results[index]["title"][:20] in app.screen.lines()[row], f"the search for {query!r} restored ({chosen}, {pages} pages)")
    elif data["tab"] == "discover":
        title = {"popular": "Popular", "topRated": "Top rated", "action": "Action"}[data["section"]]
        app.wait_for(lambda s: app.screen.lines()[2].startswith(f" Discover: {title}")
                     and app.screen.lines()[2].endswith("20 shown, more match")
                     and all(line[:14].strip() for line in app.screen.lines()[4:13]),
                     "the Discover tab restored and reloaded")


def star_steps(star: List[Dict[str, Any]], dune: int) -> List[tuple]:
    """The scripted session: (keys, what the saved snapshot says once it saved them)."""
    def at(name: str, selection: int, first: Optional[int] = None) -> Callable[[Doc], bool]:
        def check(data: Doc) -> bool:
            found = position(data, name)
            return found["selection"] == selection and (first is None or found["firstVisible"] == first)
        return check

    def opened(movie_id: int) -> Callable[[Doc], bool]:
        return lambda d: [x["movieId"] for x in d["details"]] == [movie_id]

    return [
        ("star", lambda d: d["query"] == "star" and d["searchPages"] == 1 and at("search", 0)(d)),
        # Down from the last row: the next page, and the selection on its first film, on the
        # last of the rows shown.
        (DOWN * 20, lambda d: d["searchPages"] == 2 and at("search", 20, 21 - LIST_ROWS)(d)),
        (DOWN * 20, lambda d: d["searchPages"] == 3 and at("search", 40, 41 - LIST_ROWS)(d)),
        (UP * 3, at("search", 37, 41 - LIST_ROWS)),
        ("\r", opened(star[37]["id"])),
        (ESC, lambda d: d["details"] == []),
        ("\t", lambda d: d["tab"] == "discover" and len(d["sections"]) == 9),
        (RIGHT * 2 + DOWN * 3, lambda d: d["section"] == "action" and at("action", 3)(d)),
        ("\t\t", lambda d: d["tab"] == "search"),
        ("\x15dune", lambda d: d["query"] == "dune" and d["searchPages"] == 1 and at("search", 0)(d)),
        ("\r", opened(dune)),
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
        data = resumable.wait_saved(saved, f"step {number} ({keys!r}, seed {seed})")
        if keys == "\x15dune":   # Enter opens a film once the results answer the query
            app.wait_for(lambda s: line_with(s, "Dune", "1984") is not None, "results for dune")
        if number not in kills:
            continue
        resumable.kill()
        app = resumable.start()
        check_restored(app, data, star)
        if data["details"]:
            app.send("\r")   # check_restored went back from the detail: open it again
            app.wait_for(lambda s: "Budget" in s, "the detail reopened")
    app.send("\x11")
    assert app.wait_exit() == 0
    final = read_data(resumable.state)
    assert final is not None and steps[-1][1](final)


# ---------------------------------------------------------------------- record and replay

def test_a_recorded_session_of_the_app_that_resumes_replays_state_for_state(resumable, tmp_path):
    """The app resuming (Search with two pages, an open Detail) under --record: the recording
    opens the app from the snapshot it resumed from, and replays state for state in Python
    and C without reading or writing the state file."""
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
    app.wait_for(lambda s: "Budget" in s, "the detail restored")
    app.send("f")
    app.wait_for(lambda s: "★ In your favorites" in s, "a favorite")
    app.send(ESC)
    app.wait_for(lambda s: "Search: star_" in s and counted(s, 40), "the search behind it")
    app.send(DOWN)
    app.send("\x11")
    assert app.wait_exit() == 0
    opens = [line for line in map(json.loads, recording.read_text().splitlines()) if line["event"] == "open"]
    assert [(line["feature"], list(line["args"])) for line in opens] == [("app", ["snapshot"])]
    resumable.state.unlink()
    report = cinematic.replay.replay(recording)
    assert report["matched"] and report["complete"], report
    done = subprocess.run([str(Path(__file__).resolve().parents[3] / "build" / "bin" / "cinematic-replay"),
                           str(recording)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
    assert not resumable.state.exists()   # the replays wrote no state file
