"""The terminal app saves its state file on every way out (Ctrl-Q on any screen, Ctrl-C,
SIGTERM, SIGHUP, an exception), and the library saves it after a quiet second,
atomically. Where a test needs the save to come only from the way out, the app runs on a
manual clock (CINEMATIC_TUI_CLOCK=manual)."""

from __future__ import annotations

import os
import signal
import time

import pytest

from test_terminal_app import line_with
from terminal_resume import Resumable, read_data, resumable  # noqa: F401


#: Time stands still (the app's manual clock): no save after a quiet second, so what the file
#: holds was saved on the way out.
STILL = {"CINEMATIC_TUI_CLOCK": "manual"}

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


@pytest.mark.parametrize("way", ["ctrl-q", "ctrl-c", "ctrl-q-in-favorites", "sigterm", "sighup", "exception"])
def test_every_way_out_saves(tmp_path, way):
    env = dict(STILL)
    if way == "exception":
        wrapper = tmp_path / "python-raising"
        wrapper.write_text(RAISING_PYTHON)
        wrapper.chmod(0o755)
        env.update({"PYTHON": str(wrapper), "REAL_PYTHON": os.environ.get("PYTHON", "") or __import__("sys").executable})
    session = Resumable(tmp_path, env=env)
    app = session.start()
    try:
        app.wait_for(lambda s: "Search: _" in s, "the Search tab")
        app.send("alien\r")   # no debounce on a clock that stands still: Enter searches
        app.wait_for(lambda s: line_with(s, "Alien", "1979") is not None, "results for alien")
        assert not session.state.exists()  # nothing saved yet: the way out must save
        expected = 128 + signal.SIGTERM if way == "sigterm" else 128 + signal.SIGHUP if way == "sighup" else 0
        if way == "ctrl-q":
            app.send("\x11")
        elif way == "ctrl-c":
            app.send("\x03")
        elif way == "ctrl-q-in-favorites":
            app.send("\t\t")
            app.wait_for(lambda s: app.screen.lines()[2].startswith(" Favorites"), "the Favorites tab")
            app.send("\x11")
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
    data = read_data(session.state)
    assert data is not None, f"{way}: nothing saved"
    assert data["query"] == "alien" and data["searchPages"] == 1
    assert data["tab"] == ("favorites" if way == "ctrl-q-in-favorites" else "search")


def test_the_library_saves_after_a_quiet_second_atomically(resumable):
    """A change is saved without an exit, by the library, through a temporary file renamed
    into place: no temporary is left (the folder of a --state-file is the person's: made here)."""
    app = resumable.start()
    app.wait_for(lambda s: "Search: _" in s, "the Search tab")
    app.send("alien")
    resumable.wait_saved(lambda data: data["query"] == "alien" and data["searchPages"] == 1, "the search for alien")
    # No temporary at rest (one may exist while a later save is being written: its rename is
    # what makes the save atomic); the session's lock beside it while the app runs (removed
    # at exit).
    def listing():
        return sorted(p.name for p in resumable.state.parent.iterdir())
    deadline = time.monotonic() + 10
    while listing() != [".session.json.lock", "session.json"]:
        assert time.monotonic() < deadline, f"the state file's folder holds {listing()}"
        time.sleep(0.02)
    app.send("\x11")
    assert app.wait_exit() == 0
    assert sorted(p.name for p in resumable.state.parent.iterdir()) == ["session.json"]

