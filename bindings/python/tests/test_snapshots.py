"""Snapshots from Python: ``store.snapshot()``, ``runtime.snapshot()``, ``runtime.restore()``,
``runtime.restore_all()`` (include/cinematic/snapshot.h, SNAPSHOTS; docs/wire.md, "Snapshots").

The round trip a person makes: open, type, page, snapshot, close the runtime, open a new one,
restore; the restored states say "loading", then equal what was saved. Every snapshot is
validated against the schema.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, Dict, List

import pytest

import cinematic
import cinematic.replay
from cinematic.features import DetailStore, DiscoverStore, FavoritesStore, SearchStore

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "tools"))
import wirecheck  # noqa: E402

CONFIG: Dict[str, Any] = {"clock": "manual"}


def valid(kind: str, value: Any) -> None:
    problem = wirecheck.validate(kind, value, None)
    assert problem is None, f"{kind}: {problem}: {value}"


def test_search_round_trip_loading_then_equal() -> None:
    with cinematic.Runtime(CONFIG) as runtime:
        search = runtime.search()
        search.query_changed("star")
        search.submitted()
        search.settle(10)
        search.load_more()
        search.settle(10)
        before = search.state
        assert before["pagesLoaded"] == 2
        snapshot = search.snapshot()
        valid("snapshot", snapshot)
        assert snapshot["feature"] == "search"
        assert snapshot["data"] == {"query": "star", "pagesLoaded": 2}
        assert snapshot["library"] == cinematic.library_version()
    saved = json.dumps(snapshot)

    with cinematic.Runtime({**CONFIG, "history": 100}) as runtime:
        restored = runtime.restore(saved)
        assert isinstance(restored, SearchStore)
        restored.settle(10)
        # The first state it reduced said "loading" (the embedded catalog may have answered
        # before the store is first read).
        first = restored.history[0]
        assert first["intent"]["type"] == "restored"
        assert first["state"]["query"] == "star"
        assert first["state"]["results"]["phase"] == "loading"
        assert [entry["state"]["pagesLoaded"] for entry in restored.history] == [0, 1, 2]
        assert restored.state == before


def test_runtime_round_trip_in_order() -> None:
    with cinematic.Runtime(CONFIG) as runtime:
        search = runtime.search()
        discover = runtime.discover()
        detail = runtime.detail(15249)
        favorites = runtime.favorites()
        search.query_changed("alien")
        search.submitted()
        discover.task()
        discover.settle(10)
        discover.load_more("drama")
        detail.task()
        favorites.task()
        search.settle(10)
        discover.settle(10)
        detail.wait_for(lambda state: state["detail"]["phase"] == "loaded")
        favorites.wait_for(lambda state: state["favorites"]["phase"] == "loaded")
        before = [store.state for store in (search, discover, detail, favorites)]
        snapshot = runtime.snapshot()
        valid("runtimeSnapshot", snapshot)
        assert [store["feature"] for store in snapshot["stores"]] == ["search", "discover", "detail", "favorites"]

    with cinematic.Runtime({**CONFIG, "history": 100}) as runtime:
        stores: List[cinematic.Store[Any]] = runtime.restore_all(snapshot)
        assert [type(store) for store in stores] == [SearchStore, DiscoverStore, DetailStore, FavoritesStore]
        assert stores[2].history[0]["intent"] == {"type": "task"}
        assert stores[2].history[0]["state"]["detail"]["phase"] == "loading"
        stores[0].settle(10)
        stores[1].settle(10)
        stores[2].wait_for(lambda state: state["detail"]["phase"] == "loaded")
        stores[3].wait_for(lambda state: state["favorites"]["phase"] == "loaded")
        assert [store.state for store in stores] == before
        assert runtime.snapshot() == snapshot


def test_view_is_carried_and_read() -> None:
    with cinematic.Runtime(CONFIG) as runtime:
        snapshot = {"format": 1, "feature": "search", "data": {"query": "star", "pagesLoaded": 1},
                    "view": {"firstVisibleIndex": 30, "selected": [1, 2]}}
        store = runtime.restore(snapshot)
        store.settle(10)
        assert store.state["pagesLoaded"] == 2
        assert store.snapshot()["view"] == snapshot["view"]


def test_bad_snapshots_raise_clear_errors() -> None:
    with cinematic.Runtime(CONFIG) as runtime:
        with pytest.raises(cinematic.InvalidError, match="format 3 \\(written by cinematic 9.0.0\\) is newer"):
            runtime.restore({"format": 3, "library": "9.0.0", "feature": "search", "data": {}})
        with pytest.raises(cinematic.InvalidError, match="not a cinematic snapshot"):
            runtime.restore({"query": "dune"})
        with pytest.raises(cinematic.UnknownFeatureError):
            runtime.restore({"format": 1, "feature": "no such feature", "data": {}})
        with pytest.raises(cinematic.InvalidError):
            runtime.restore_all({"format": 1, "stores": [{"format": 1, "feature": "favorites", "data": {}},
                                                         {"format": 1, "feature": "search", "data": {"query": 1}}]})
        assert runtime.stores == []
        with pytest.raises(cinematic.CinematicError):
            runtime.restore('{"format":1,"feature":"search","data":{"query":"du')
        # Format 0 (what a 0.2.0 host could keep) is migrated.
        old = runtime.restore({"feature": "detail", "args": {"movieId": 15249}})
        assert isinstance(old, DetailStore)
        assert old.state["movieId"] == 15249


def test_a_recorded_session_that_restores_replays_state_for_state(tmp_path) -> None:
    """The restore path under record/replay: a recording of a runtime that restores every
    store of a runtime snapshot (and goes on from there) replays state for state; its open
    lines carry the snapshots."""
    with cinematic.Runtime(CONFIG) as runtime:
        search = runtime.search()
        search.query_changed("star")
        search.submitted()
        search.settle(10)
        search.load_more()
        search.settle(10)
        discover = runtime.discover()
        discover.task()
        discover.settle(10)
        runtime.detail(15249)
        snapshot = runtime.snapshot()
    recording = tmp_path / "restore.jsonl"
    with cinematic.Runtime({**CONFIG, "record": str(recording), "favorites": str(tmp_path / "f.sqlite")}) as runtime:
        stores = runtime.restore_all(snapshot)
        stores[0].settle(10)
        stores[1].settle(10)
        stores[2].wait_for(lambda state: state["detail"]["phase"] == "loaded")
        stores[2].favorite_toggled()
        stores[2].wait_for(lambda state: state["isFavorite"] and not state["isSaving"])
        stores[0].load_more()
        stores[0].settle(10)
        assert stores[0].state["pagesLoaded"] == 3
    lines = [json.loads(line) for line in recording.read_text().splitlines()]
    opens = [line for line in lines if line["event"] == "open"]
    assert [line["feature"] for line in opens] == ["search", "discover", "detail"]
    assert all("snapshot" in line["args"] for line in opens), opens
    report = cinematic.replay.replay(recording)
    assert report["matched"] and report["complete"], report
    assert report["states"] >= 8
    # The replay restores from the recorded snapshot: another page count there diverges.
    tampered = tmp_path / "tampered.jsonl"
    tampered.write_text(recording.read_text().replace('"pagesLoaded":2}', '"pagesLoaded":1}', 1))
    assert tampered.read_text() != recording.read_text()
    assert not cinematic.replay.replay(tampered)["matched"]
