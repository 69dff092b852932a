"""Debugging the terminal app (examples/python) in a pseudo-terminal: the debug panel lists
the intents of the store on screen and steps back and forth through them (time travel), and
``--record FILE`` records a session that replays state for state, in Python and in C.

The app runs as in test_terminal_app.py (run.sh, the system clock, the embedded catalog, the
favorites in a temp directory); every wait polls the screen with a deadline."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Dict, List

import pytest

from conftest import REPO
from test_terminal_app import STAR, TerminalApp, line_with

REPLAY_TOOL = REPO / "build" / "bin" / "cinematic-replay"
CTRL_D, F12, ESC, CTRL_Q = "\x04", "\x1b[24~", "\x1b", "\x11"
END = "\x1bOF"  # xterm in keypad mode (curses turns it on)


@pytest.fixture
def app(tmp_path):
    terminal = TerminalApp(tmp_path)
    yield terminal
    terminal.close()


def panel_lines(app: TerminalApp) -> List[str]:
    """The rows of the panel (the lower half, above the notice line)."""
    lines = app.screen.lines()
    return lines[len(lines) // 2:len(lines) - 2]


def selected(app: TerminalApp) -> str:
    """The panel's selected entry ("> #seq ...")."""
    return next((line.strip() for line in panel_lines(app) if line.lstrip().startswith("> #")), "")


def search_for_dune(app: TerminalApp) -> None:
    app.wait_for(lambda s: "Search:" in s and "Ctrl-Q" in app.screen.lines()[-1], "the Search tab")
    app.send("dune")
    app.wait_for(lambda s: line_with(s, "Dune", "1984") is not None, "Dune (1984) in the results")


def test_debug_panel_lists_the_search_intents_and_steps_back_through_them(app):
    search_for_dune(app)
    app.send(CTRL_D)  # typeable while the search field has focus, and not typed into it
    app.wait_for(lambda s: "Debug: search store" in s and "#6 resultsLoaded" in s
                 and "Esc/Ctrl-D close" in app.screen.lines()[-1], "the debug panel and its footer")
    panel = "\n".join(panel_lines(app))
    assert "6 intents, showing the latest" in panel
    assert "[ ] step" in panel and "Esc closes, keeps state" in panel  # the header documents the keys
    for seq, query in enumerate(["d", "du", "dun", "dune"], 1):
        assert line_with(panel, f"#{seq} queryChanged changed: query", f'query="{query}"'), panel
    assert line_with(panel, "#5 searchNow changed: results"), panel
    assert line_with(panel, "> #6 resultsLoaded changed: results, pagesLoaded, isExhausted", 'query="dune"'), panel
    rows = [line.replace(">", "").split()[0] for line in panel_lines(app)[2:] if line.strip()]
    assert rows == ["#1", "#2", "#3", "#4", "#5", "#6"], panel  # oldest first, newest at the bottom
    assert "Search: dune_" in app.screen.text()  # Ctrl-D did not edit the query
    assert line_with(app.screen.text(), "Dune", "1984") is not None  # the view keeps the upper half

    app.send("[")
    app.wait_for(lambda s: selected(app).startswith("> #5 searchNow") and "showing #5 (time travel)" in s,
                 "one step back")
    app.send("[[[")  # back to #2: the state after typing "du", before any search
    screen = app.wait_for(lambda s: selected(app).startswith("> #2 queryChanged") and "Search: du_" in s
                          and line_with(s, "Dune", "1984") is None, "the state after #2")
    assert "showing #2 (time travel)" in screen
    app.send("]]]]")
    app.wait_for(lambda s: selected(app).startswith("> #6 resultsLoaded") and "Search: dune_" in s
                 and "showing the latest" in s and line_with(s, "Dune", "1984") is not None,
                 "forward to the latest entry")

    app.send("[[[[")
    app.wait_for(lambda s: "Search: du_" in s and "showing #2" in s, "back at #2")
    app.send(ESC)  # closing keeps the state shown
    app.wait_for(lambda s: "Debug:" not in s and "Search: du_" in s and "Type" in app.screen.lines()[-1],
                 "the panel closed at #2")

    app.send("ne")  # typing goes on from the state shown
    app.wait_for(lambda s: line_with(s, "Dune", "1984") is not None and "Search: dune_" in s, "results again")
    app.send(CTRL_D)
    app.wait_for(lambda s: "Debug: search store" in s and "showing the latest" in s
                 and line_with(s, "#7 queryChanged", 'query="dun"') is not None
                 and selected(app).startswith("> #10 resultsLoaded"), "the new intents after the time travel")
    app.send(F12)
    app.wait_for(lambda s: "Debug:" not in s and "Search: dune_" in s, "the panel closed with F12")


def test_debug_panel_in_detail_and_help(app):
    app.wait_for(lambda s: "Search:" in s, "the Search tab")
    app.send("?")
    app.wait_for(lambda s: "Keys" in s and "Ctrl-D or F12" in s and "debug panel" in s, "the help lists the panel")
    app.send(" ")
    app.wait_for(lambda s: "Keys" not in s, "the help closed")
    app.send("dune")
    app.wait_for(lambda s: line_with(s, "Dune", "1984") is not None, "results")
    app.send("\r")
    app.wait_for(lambda s: "Budget" in s and "Not a favorite" in s, "the Detail view")
    app.send("f")
    app.wait_for(lambda s: f"{STAR} Favorite" in s and "Favorites (1)" in s, "a favorite")
    app.send(CTRL_D)
    app.wait_for(lambda s: "Debug: detail store" in s and "favoriteSaved" in s
                 and "Esc/Ctrl-D close" in app.screen.lines()[-1], "the panel of the Detail store")
    panel = "\n".join(panel_lines(app))
    assert line_with(panel, "#1 task changed: detail"), panel
    assert line_with(panel, "detailLoaded changed: detail"), panel
    assert line_with(panel, "favoriteToggled changed: isFavorite, isSaving"), panel
    assert selected(app).startswith("> #") and "favoriteSaved changed: isSaving" in selected(app), panel
    toggled = next(line for line in panel_lines(app) if "favoriteToggled" in line)
    before = int(toggled.split("#")[1].split()[0]) - 1  # the entry before the toggle
    app.send("[" * (int(selected(app).split("#")[1].split()[0]) - before))
    app.wait_for(lambda s: "Not a favorite" in s and f"showing #{before} (time travel)" in s,
                 "the Detail state before the toggle")
    app.send(END)  # the latest again
    app.wait_for(lambda s: f"{STAR} Favorite" in s and "showing the latest" in s, "the latest Detail state")
    app.send(CTRL_D)
    app.wait_for(lambda s: "Debug:" not in s and "Budget" in s, "the panel closed")


def read_recording(path: Path) -> List[Dict[str, object]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def assert_replays(recording: Path) -> None:
    """The recording replays state for state with the C tool and with python -m cinematic.replay."""
    assert REPLAY_TOOL.exists(), f"{REPLAY_TOOL} is missing: run `make replay-tool`"
    tool = subprocess.run([str(REPLAY_TOOL), str(recording)], capture_output=True, text=True, timeout=60)
    assert tool.returncode == 0 and "replay matched" in tool.stdout, tool.stdout + tool.stderr
    module = subprocess.run([sys.executable, "-m", "cinematic.replay", str(recording)],
                            capture_output=True, text=True, timeout=60, env=dict(os.environ))
    assert module.returncode == 0 and "replay matched" in module.stdout, module.stdout + module.stderr


def test_a_recorded_session_replays_in_c_and_in_python(tmp_path):
    recording = tmp_path / "session.jsonl"
    app = TerminalApp(tmp_path, args=["--record", str(recording)])
    try:
        search_for_dune(app)
        app.send("\r")
        app.wait_for(lambda s: "Budget" in s and "Not a favorite" in s, "the Detail view of Dune")
        app.send("f")
        # Quit once the heart is saved: closing while the favorites write is in flight is a
        # known library race (the recording gets lines after "end" and the replay can diverge).
        app.wait_for(lambda s: f"{STAR} Favorite" in s and "saving" not in s and "Favorites (1)" in s,
                     "Dune saved as a favorite")
        app.send(CTRL_Q)
        assert app.wait_exit() == 0
    finally:
        app.close()
    lines = read_recording(recording)
    assert lines[0]["event"] == "session" and lines[-1]["event"] == "end"  # closed on exit: complete
    assert {line.get("feature") for line in lines if line["event"] == "open"} >= {"search", "favorites", "detail"}
    assert_replays(recording)


def test_time_travel_is_recorded_and_a_stop_signal_completes_the_recording(tmp_path):
    """Reverts from the panel are part of the recording; SIGTERM ends the app like Ctrl-Q
    (status 128 + 15), closing the runtime: the recording is complete and replays."""
    recording = tmp_path / "session.jsonl"
    app = TerminalApp(tmp_path, args=["--record", str(recording)])
    try:
        search_for_dune(app)
        app.send(CTRL_D + "[[")
        app.wait_for(lambda s: "showing #4 (time travel)" in s, "a step back")
        app.send(ESC)
        app.wait_for(lambda s: "Debug:" not in s, "the panel closed")
        os.kill(app.pid, signal.SIGTERM)
        assert app.wait_exit() == 128 + signal.SIGTERM
    finally:
        app.close()
    lines = read_recording(recording)
    assert lines[-1]["event"] == "end"
    assert [line.get("sequence") for line in lines if line["event"] == "revert"] == [5, 4]
    assert_replays(recording)


def test_a_hang_up_completes_the_recording(tmp_path):
    """The terminal goes away (the pty's master closes: SIGHUP): the app ends with status
    128 + SIGHUP instead of a curses error, and its recording is complete."""
    recording = tmp_path / "session.jsonl"
    app = TerminalApp(tmp_path, args=["--record", str(recording)])
    try:
        search_for_dune(app)
        os.close(app.fd)  # hang up
        app.fd = os.open(os.devnull, os.O_RDONLY)  # for wait_exit and close
        assert app.wait_exit() == 128 + signal.SIGHUP
    finally:
        app.close()
    assert read_recording(recording)[-1]["event"] == "end"
    assert_replays(recording)
