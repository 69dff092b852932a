"""From a recording to a TestStore test (python -m cinematic.testing.from_recording): a
terminal-app session and a scripted session each become a pytest test that passes, and that
fails with a readable diff when the library behaves differently from the recording (an
edited recorded answer, an edited expected value)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import cinematic
from cinematic.testing import from_recording
from conftest import REPO, ScriptedCatalog
from test_terminal_app import STAR, line_with
from test_terminal_debug import CTRL_Q, TerminalApp, search_for_dune


def run_pytest(test: Path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "PYTEST_ADDOPTS"}
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(test)],
                          cwd=str(test.parent), capture_output=True, text=True, timeout=120, env=env)


def generate(recording: Path, test: Path) -> str:
    command = subprocess.run([sys.executable, "-m", "cinematic.testing.from_recording", str(recording)],
                             capture_output=True, text=True, timeout=60, cwd=str(REPO))
    assert command.returncode == 0, command.stderr
    test.write_text(command.stdout)
    return command.stdout


def edit_line(path: Path, event: str, old: str, new: str) -> None:
    """Replaces ``old`` by ``new`` in the first line of ``event`` holding it."""
    lines = path.read_text().splitlines()
    for i, line in enumerate(lines):
        if json.loads(line)["event"] == event and old in line:
            lines[i] = line.replace(old, new)
            break
    else:
        raise AssertionError(f"no {event} line holds {old}")
    path.write_text("\n".join(lines) + "\n")


def test_a_terminal_app_session_becomes_a_passing_test_that_fails_when_an_answer_changes(tmp_path):
    recording = tmp_path / "session.jsonl"
    app = TerminalApp(tmp_path, args=["--record", str(recording)])
    try:
        search_for_dune(app)
        app.send("\r")
        app.wait_for(lambda s: line_with(s, "Budget", "$45,000,000") and "Not in your favorites" in s, "the Detail view of Dune")
        app.send("f")
        app.wait_for(lambda s: f"{STAR} In your favorites" in s, "Dune saved as a favorite")
        app.send(CTRL_Q)
        assert app.wait_exit() == 0
    finally:
        app.close()

    test = tmp_path / "test_session.py"
    text = generate(recording, test)
    # The app store of the session, its host intents as sends (the keymap's actions as they
    # are: Enter's activate, the heart's detail intent; the rows the screen shows) and its
    # effect results as receives.
    for expected in ["app = rt.store('app'", "app.send({'type': 'task'}",
                     "app.send({'type': 'queryChanged', 'query': 'dune'}", "app.receive('searchResult'",
                     "app.send({'type': 'resized', 'rows': 18}", "app.send({'type': 'activate'}",
                     "app.send({'type': 'detail', 'intent': {'type': 'favoriteToggled'}}",
                     "rt.catalog.answer({'op': 'search', 'query': 'dune', 'page': 1}",
                     "rt.catalog.answer({'op': 'movie', 'id': 15249}",
                     "app.finish(still_running=['favorites.observe', 'detail#1/detail.favorites'])"]:
        assert expected in text, text
    passed = run_pytest(test)
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert "1 passed" in passed.stdout

    # One recorded answer edited (Dune's year in the search answer): the test, made again, fails
    # at the receive of those results, naming the member and its list position.
    edit_line(recording, "answer", '"title":"Dune","year":1984', '"title":"Dune","year":1985')
    generate(recording, test)
    failed = run_pytest(test)
    assert failed.returncode == 1, failed.stdout
    assert "TestStore(app) receive(searchResult): the state differs from the expected one" in failed.stdout
    assert "search.results.value[0].year: expected 1984, actual 1985" in failed.stdout


def test_a_scripted_session_becomes_a_test_and_an_edited_expectation_fails(tmp_path):
    """A manual-clock session with a host catalog whose answers come late and out of order:
    the answers' delays are kept, and the stale one is dropped in the test as it was."""
    recording = tmp_path / "scripted.jsonl"
    with cinematic.Runtime({"clock": "manual", "catalog": "host", "offlineCache": False, "record": str(recording)}) as rt:
        catalog = ScriptedCatalog()  # holds every answer
        rt.set_provider(catalog)
        with rt.search() as search:
            search.query_changed("du")
            rt.advance_clock(250)
            [(du, _)] = catalog.wait_for("search", 1)
            search.query_changed("dune")
            rt.advance_clock(250)
            dune = catalog.wait_for("search", 2)[1][0]
            rt.advance_clock(40)
            rt.respond(dune, {"movies": [{"id": 15249, "title": "Dune", "year": 1984}]})  # the current answer first,
            search.settle(5)
            rt.advance_clock(60)
            rt.respond(du, {"movies": [{"id": 1, "title": "Duck Soup", "year": 1933}]})   # then the stale one
            search.settle(5)
    test = tmp_path / "test_scripted.py"
    text = generate(recording, test)
    assert "rt.catalog.answer({'op': 'search', 'query': 'dune', 'page': 1}" in text and "delay_ms=40" in text
    assert "delay_ms=350" in text  # the stale answer, 350 ms after its request
    passed = run_pytest(test)
    assert passed.returncode == 0, passed.stdout + passed.stderr

    before, after = text.split("search.receive('resultsLoaded'")
    test.write_text(before + "search.receive('resultsLoaded'" + after.replace("'year': 1984", "'year': 2021", 1))
    failed = run_pytest(test)
    assert failed.returncode == 1, failed.stdout
    assert "results.value[0].year: expected 2021, actual 1984" in failed.stdout, failed.stdout


def test_a_step_taken_in_the_millisecond_an_answer_came_stays_before_it(tmp_path):
    """The heart pressed while a Detail loads, in the millisecond its answer then came (on the
    system clock: a user quicker than the catalog): the test sends the heart first, as it
    happened, and receives the loaded film after it (not before, as one clock step would)."""
    recording = tmp_path / "quick.jsonl"
    with cinematic.Runtime({"clock": "manual", "catalog": "host", "offlineCache": False,
                            "favorites": ":memory:", "record": str(recording)}) as rt:
        catalog = ScriptedCatalog()
        rt.set_provider(catalog)
        with rt.detail(15249) as detail:
            detail.task()
            [(movie, _)] = catalog.wait_for("movie", 1)
            rt.advance_clock(40)
            detail.favorite_toggled()
            detail.wait_for(lambda state: not state["isSaving"], 5)
            rt.respond(movie, {"movie": {"id": 15249, "title": "Dune", "year": 1984, "budget": 45000000}})
            detail.wait_for(lambda state: state["detail"]["phase"] == "loaded", 5)
    test = tmp_path / "test_quick.py"
    text = generate(recording, test)
    heart = text.index("detail.send({'type': 'favoriteToggled'}")
    assert "delay_ms=41" in text and text.index("rt.advance(1)", heart) < text.index("detail.receive('detailLoaded'")
    passed = run_pytest(test)
    assert passed.returncode == 0, passed.stdout + passed.stderr


def test_the_command_reports_what_is_not_a_recording(tmp_path, capsys):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"event":"open","t":0,"store":2,"feature":"search","args":null}\n')
    assert from_recording.main([str(bad)]) == 2
    assert capsys.readouterr().err == (f"from_recording: {bad}: line 1: not a recording: its first line is a session"
                                       " line, and only its first (this one is 'open')\n")
