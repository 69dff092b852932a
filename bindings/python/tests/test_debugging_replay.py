"""Debugging from Python: a scripted session recorded here and replayed state for state by
Python and by the C tool, then edited and caught at the first divergent state; unreadable
recordings, recordings from threads, and effects that lost the race with close."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import Dict

import pytest

import cinematic
from cinematic.replay import EXIT_DIVERGED, EXIT_ERROR, EXIT_MATCHED, main, replay
from conftest import HOST_CONFIG, REPO, ScriptedCatalog, wirecheck  # HOST_CONFIG: manual clock, host catalog, no shared offline cache

REPLAY_TOOL = REPO / "build" / "bin" / "cinematic-replay"


def record_scripted_session(path: Path, favorites: Path) -> None:
    """A search with a late stale answer, Discover paging, and a heart toggle whose write
    fails (read-only favorites), recorded to path."""
    runtime = cinematic.Runtime(HOST_CONFIG, record=str(path), history=20,
                                favorites={"path": str(favorites), "readOnly": True})
    catalog = ScriptedCatalog()
    runtime.set_provider(catalog)
    with runtime:
        search = runtime.search()
        search.query_changed("du")
        runtime.advance_clock(250)
        search.query_changed("dune")
        runtime.advance_clock(250)
        (du_id, _), (dune_id, _) = catalog.wait_for("search", 2)
        runtime.respond(dune_id, {"movies": [{"id": 438631, "title": "Dune", "year": 2021}]})
        runtime.respond(du_id, {"movies": [{"id": 1, "title": "Duel", "year": 1971}]})  # stale: dropped
        assert search.state["results"]["value"][0]["title"] == "Dune"

        discover = runtime.discover()
        discover.task()
        first_pages = catalog.requests("discover")
        for request_id, request in first_pages:  # full pages: more can be loaded
            runtime.respond(request_id, {"movies": [{"id": 1000 * request_id + n, "title": f"{request['section']} {n}", "year": 1990}
                                                    for n in range(20)]})
        discover.load_more("popular")
        request_id, request = catalog.wait_for("discover", len(first_pages) + 1)[-1]
        assert request == {"op": "discover", "section": "popular", "page": 2}
        runtime.respond(request_id, {"movies": [{"id": 999, "title": "popular 2", "year": 1991}]})

        detail = runtime.detail(438631)
        detail.task()
        (movie_id, _), = catalog.wait_for("movie", 1)
        runtime.respond(movie_id, {"movie": {"id": 438631, "title": "Dune", "year": 2021}})
        detail.wait_for(lambda state: state["detail"]["phase"] == "loaded")
        detail.favorite_toggled()
        failed = detail.wait_for(lambda state: state["favoriteError"] is not None)
        assert failed["favoriteError"]["code"] == "storage" and failed["isFavorite"] is False


@pytest.fixture
def recording(tmp_path: Path) -> Path:
    favorites = tmp_path / "favorites.sqlite"
    cinematic.Runtime(favorites=str(favorites)).close()  # an empty favorites file
    path = tmp_path / "session.jsonl"
    record_scripted_session(path, favorites)
    favorites.unlink()  # the replay needs no file: the recording answers for it
    return path


def test_a_recorded_session_is_valid_json_lines_with_every_input(recording: Path):
    lines = [json.loads(line) for line in recording.read_text().splitlines()]
    for line in lines:
        assert wirecheck.validate("recording", line) is None, line
    events: Dict[str, int] = {}
    for line in lines:
        events[line["event"]] = events.get(line["event"], 0) + 1
    assert lines[0]["event"] == "session" and lines[-1]["event"] == "end"
    assert events["open"] == 3 and events["advance"] == 2
    assert any(line["event"] == "providerAnswer" and line.get("dropped") for line in lines)  # the stale answer
    assert any(line["event"] == "answer" and line["answer"].get("error", {}).get("code") == "storage" for line in lines)
    times = [line["t"] for line in lines]
    assert times == sorted(times)


def test_the_recording_replays_identically_in_python_and_in_c(recording: Path):
    report = replay(recording)
    assert wirecheck.validate("replay", report) is None
    assert report["matched"] is True
    assert report["stores"] == 3 and report["states"] >= 15

    tool = subprocess.run([str(REPLAY_TOOL), str(recording)], capture_output=True, text=True, timeout=60)
    assert tool.returncode == EXIT_MATCHED, tool.stderr
    assert f"replay matched: {report['states']} states of 3 stores" in tool.stdout

    module = subprocess.run([sys.executable, "-m", "cinematic.replay", "--json", str(recording)],
                            capture_output=True, text=True, timeout=60, env=dict(os.environ))
    assert module.returncode == EXIT_MATCHED, module.stderr
    assert json.loads(module.stdout) == report


def test_an_edited_recording_is_reported_at_the_first_divergent_state(recording: Path, capsys):
    lines = recording.read_text().splitlines()
    edited = next(i for i, line in enumerate(lines) if line.startswith('{"event":"answer"') and '"Dune"' in line)
    lines[edited] = lines[edited].replace('"title":"Dune"', '"title":"Dunk"')
    recording.write_text("\n".join(lines) + "\n")

    report = replay(recording)
    assert report["matched"] is False
    divergence = report["divergence"]
    assert divergence["feature"] == "search"
    assert divergence["intent"]["type"] == "resultsLoaded"
    assert divergence["expected"]["results"]["value"][0]["title"] == "Dune"
    assert divergence["actual"]["results"]["value"][0]["title"] == "Dunk"
    assert divergence["line"] > edited + 1  # the state line after the edited answer

    assert main([str(recording)]) == EXIT_DIVERGED
    printed = capsys.readouterr().out
    assert f"replay diverged at line {divergence['line']}" in printed and "Dunk" in printed

    tool = subprocess.run([str(REPLAY_TOOL), str(recording)], capture_output=True, text=True, timeout=60)
    assert tool.returncode == EXIT_DIVERGED
    assert f"replay diverged at line {divergence['line']}" in tool.stdout


def test_unreadable_recordings_get_a_status_and_a_message(tmp_path: Path, capsys):
    with pytest.raises(cinematic.CinematicIOError):
        replay(tmp_path / "missing.jsonl")
    assert main([str(tmp_path / "missing.jsonl")]) == EXIT_ERROR
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"event":"session","t":0,"config":{}}\n{"event":"open","t":1,"store":1,"feature":"nope","args":null}\n')
    with pytest.raises(cinematic.CinematicError) as error:
        replay(bad)
    assert "recording line 2" in error.value.message and "unknown feature" in error.value.message
    bad.write_bytes(b'{"event":"session","t":0,"config":{}}\n\xff\xfe\n')
    with pytest.raises(cinematic.JSONError) as error:
        replay(bad)
    assert "recording line 2" in error.value.message
    tool = subprocess.run([str(REPLAY_TOOL)], capture_output=True, text=True, timeout=60)
    assert tool.returncode == EXIT_ERROR and "usage" in tool.stderr


def test_recording_from_threads_never_blocks_and_replays(tmp_path: Path):
    """Two threads type into two search stores while the session records; the recording
    replays state for state (each store's sequence is its own)."""
    path = tmp_path / "threads.jsonl"
    runtime = cinematic.Runtime(HOST_CONFIG, record=str(path))
    runtime.set_provider(ScriptedCatalog(auto=lambda request: {"movies": [{"id": 1, "title": request["query"], "year": 2000}]}))
    with runtime:
        stores = [runtime.search(), runtime.search()]

        def type_into(store: cinematic.SearchStore, prefix: str) -> None:
            for i in range(200):
                store.query_changed(f"{prefix}{i}")

        threads = [threading.Thread(target=type_into, args=(store, name)) for store, name in zip(stores, "ab")]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        runtime.advance_clock(250)
        for store in stores:
            store.settle(5)
    assert replay(path)["matched"] is True


def test_an_effect_result_that_lost_the_race_with_close_is_not_a_divergence(tmp_path: Path):
    """A favorites snapshot recorded just before the runtime closed, which its store never
    reduced there (the close won), reaches the store in the replay: counted in afterClose, not
    a divergence. Without the "end" line (an incomplete recording: its writer failed or was
    killed) the recording simply stops there: the state past its last line is not compared."""
    path = tmp_path / "session.jsonl"
    with cinematic.Runtime(HOST_CONFIG, record=str(path)) as runtime:
        favorites = runtime.favorites()
        favorites.task()
        favorites.wait_for(lambda state: state["favorites"]["phase"] == "loaded")
    lines = path.read_text().splitlines()
    assert json.loads(lines[-1])["event"] == "end"
    end_time = json.loads(lines[-1])["t"]
    lost = {"event": "snapshot", "t": end_time, "stream": 1, "version": 2,
            "movies": [{"id": 1, "title": "Lost", "year": 2000, "runtime": 0, "rating": 0.0, "votes": 0, "genres": [], "mpaa": None}]}
    path.write_text("\n".join(lines[:-1] + [json.dumps(lost), lines[-1]]) + "\n")
    report = replay(path)
    assert report["matched"] is True and report["complete"] is True
    assert report["afterClose"] == 1

    path.write_text("\n".join(lines[:-1] + [json.dumps(lost)]) + "\n")
    report = replay(path)
    assert report["matched"] is True and report["complete"] is False
    assert report["afterClose"] == 0 and "divergence" not in report
