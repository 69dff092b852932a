"""The issue's scenario in the real app (``python -m cinematic_desktop`` on Xvfb, driven by the
keymap's keys through XTEST as a person types): search "alien", open the third result, heart
it, go to Favorites, remove it, undo, open Discover's Comedy, page to page 3 and open the film there;
then SIGKILL, restart: the same tab, positions, Detail stack and favorites. Every wait is
bounded and on what the app writes: its recording (--record, a state per line, written as the
session goes) and its state file (saved after a second of quiet). A predicate holds or not on
every state the app may record on its way (a list still loading, a section or a position not
there yet): it never raises."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any, Callable, Dict, Iterator, List, Optional

import pytest

from test_real_app import TITLE, app_env, assert_clean
from test_resume import saved
from xserver import Xvfb, wait_for

State = Dict[str, Any]


@pytest.fixture
def xvfb() -> Iterator[Xvfb]:
    server = Xvfb()
    yield server
    server.stop()


def last_state(record: Path, predicate: Callable[[State], bool]) -> Optional[State]:
    """The newest app state of the recording, if ``predicate`` likes it."""
    states: List[State] = []
    if record.exists():
        for line in record.read_text(encoding="utf-8").splitlines():
            try:
                event = json.loads(line)
            except ValueError:            # a line being written
                continue
            if event.get("event") == "state" and "tab" in event.get("state", {}):
                states.append(event["state"])
    return states[-1] if states and predicate(states[-1]) else None


def movies(part: Optional[State]) -> List[State]:
    value = part.get("value") if part is not None and part.get("phase") == "loaded" else None
    return value if isinstance(value, list) else []


def ids(films: List[State]) -> List[int]:
    return [film["id"] for film in films]


def comedy(state: State) -> State:
    """Discover's Comedy section ({} while Discover has no sections yet)."""
    return next((s for s in state["discover"]["sections"] if s["section"] == "comedy"), {})


def comedies(state: State) -> List[State]:
    return movies(comedy(state).get("movies"))


def selection(state: State, name: str) -> Optional[int]:
    """The selected row of a list (None before the person moved in it)."""
    position = state["positions"].get(name)
    return position.get("selection") if position else None


def comedy_settled(state: State) -> bool:
    """Comedy shown, loaded, no page on its way."""
    return state["section"] == "comedy" and bool(comedies(state)) and comedy(state).get("isLoadingMore") is False


class App:
    """The real app on the X server, recording to ``record``."""

    def __init__(self, xvfb: Xvfb, tmp_path: Path, record: Path) -> None:
        self.record, self.x = record, xvfb.client
        self.process = subprocess.Popen(
            [sys.executable, "-X", "faulthandler", "-m", "cinematic_desktop", "--favorites",
             str(tmp_path / "favorites.sqlite"), "--state-file", str(tmp_path / "desktop.json"), "--record", str(record)],
            env=app_env(tmp_path, xvfb.display), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        window = wait_for(lambda: self.x.shown_window(TITLE), 60, "the app's window")
        self.x.point_at(window)
        wait_for(lambda: self.x.has_keyboard(window) or None, 60, "the app's window to take the keyboard")

    def keys(self, *presses: str) -> None:
        for press in presses:
            self.x.press(*press.split("+"))

    def until(self, what: str, predicate: Callable[[State], bool]) -> State:
        if self.process.poll() is not None:
            raise AssertionError(f"the app exited ({self.process.returncode}): {self.process.communicate()[1]}")
        return wait_for(lambda: last_state(self.record, predicate), 90, what)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.communicate()


def test_the_scenario_survives_sigkill(xvfb: Xvfb, tmp_path: Path) -> None:
    app = App(xvfb, tmp_path, tmp_path / "first.jsonl")
    try:
        app.keys(*"alien")
        state = app.until("alien's results", lambda s: s["search"]["results"].get("query") == "alien"
                          and len(movies(s["search"]["results"])) > 3)
        third = movies(state["search"]["results"])[2]
        app.keys("Down", "Down")                                     # two rows down: the third
        app.until("the third row", lambda s: selection(s, "search") == 2)
        app.keys("Return")
        app.until("its Detail", lambda s: [d["movieId"] for d in s["details"]] == [third["id"]]
                  and s["details"][0]["detail"]["phase"] == "loaded")
        app.keys("f")
        app.until("the heart saved", lambda s: bool(s["details"]) and s["details"][-1]["isFavorite"]
                  and not s["details"][-1]["isSaving"])
        app.keys("Shift_L+Tab")                                      # the tab before Search: Favorites
        app.until("Favorites", lambda s: s["tab"] == "favorites" and ids(movies(s["favorites"]["favorites"])) == [third["id"]])
        app.keys("Delete")
        app.until("removed", lambda s: ids(s["removed"]) == [third["id"]] and not movies(s["favorites"]["favorites"]))
        app.keys("Control_L+z")
        app.until("undone", lambda s: s["removed"] == [] and s["notice"] is not None
                  and s["notice"]["kind"] == "restored")
        app.keys("Shift_L+Tab", "Right", "Right", "Right", "Right")  # Discover, its fifth section
        state = app.until("Comedy", comedy_settled)
        for _ in range(2):     # End, then Down past the last row: the app loads the next page, moves on
            shown = len(comedies(state))
            app.keys("End", "Down")
            state = app.until(f"the page after {shown} comedies", lambda s: comedy_settled(s)
                              and len(comedies(s)) > shown and selection(s, "comedy") == shown)
        assert comedy(state)["pagesLoaded"] == 3 and selection(state, "comedy") == 40
        film = comedies(state)[40]
        app.keys("Return")
        before = app.until("the comedy's Detail", lambda s: ids([d["listing"] or {"id": 0} for d in s["details"]])
                           == [film["id"]])
        # Saved after a second of quiet: then the process dies without a chance to save.
        wait_for(lambda: saved(tmp_path / "desktop.json").get("details") == [
            {"movieId": d["movieId"], "listing": d["listing"]} for d in before["details"]] or None, 90, "the save")
        app.process.send_signal(signal.SIGKILL)
        assert app.process.wait(timeout=30) == -signal.SIGKILL
    finally:
        app.stop()

    again = App(xvfb, tmp_path, tmp_path / "second.jsonl")
    try:
        after = again.until("the same app", lambda s: s["tab"] == before["tab"] and s["section"] == "comedy"
                            and s["positions"] == before["positions"]
                            and [d["movieId"] for d in s["details"]] == [d["movieId"] for d in before["details"]]
                            and s["details"][0]["detail"]["phase"] == "loaded"
                            and len(comedies(s)) == len(comedies(before))
                            and ids(movies(s["favorites"]["favorites"])) == [third["id"]]
                            and s["search"]["query"] == "alien" and s["removed"] == [])
        assert after["details"][0]["listing"] == before["details"][0]["listing"]
        again.keys("Control_L+q")
        out, err = again.process.communicate(timeout=90)
    finally:
        again.stop()
    assert_clean(subprocess.CompletedProcess(again.process.args, again.process.returncode, out, err))

