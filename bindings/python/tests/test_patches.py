"""Patched delivery: stores observe in patch mode by default (``Runtime(patches=True)``) and
rebuild each state from the previous one. Checked here: the applier is strict and never
mutates a state it returned; over every feature, the rebuilt state equals what
``cinematic_store_state`` returns whenever the store has caught up; a page appended is 20
``add``s at ``…/-``; a removed favorite one ``remove``; whole-state delivery still works.
(The schema-driven property tests check the same over random sequences on all stores.)"""

from __future__ import annotations

import copy
import json
import threading
import time
from typing import Any, Dict, List

import pytest

import cinematic
from cinematic._patch import PatchError, PatchedState, apply_patch


def converged(store: cinematic.Store[Any], timeout: float = 5.0) -> Dict[str, Any]:
    """Waits until the rebuilt state equals ``store.state``; returns it."""
    deadline = time.monotonic() + timeout
    while True:
        rebuilt, current = store.delivered_state, store.state
        if rebuilt == current:
            return current
        if time.monotonic() > deadline:
            raise AssertionError(f"the patched state never caught up:\n  patched {str(rebuilt)[:300]}\n  state   {str(current)[:300]}")
        time.sleep(0.005)


class Envelopes:
    """Records what the library delivers to a store (patch mode) by wrapping the trampoline."""

    def __init__(self, store: cinematic.Store[Any]) -> None:
        self.raw: List[Dict[str, Any]] = []
        self.lock = threading.Lock()
        original = store._deliver

        def record(raw: bytes) -> None:
            with self.lock:
                self.raw.append(json.loads(raw))
            original(raw)

        store._deliver = record  # type: ignore[method-assign]

    def last_patch(self) -> List[Dict[str, Any]]:
        with self.lock:
            return list(self.raw[-1].get("patch", []))

    def patch_after(self, count: int, timeout: float = 5.0) -> List[Dict[str, Any]]:
        """The first patch delivered after the first ``count`` envelopes. Waiting this way
        registers nothing (``wait_for`` would observe again, and the library then starts over
        with a whole state)."""
        deadline = time.monotonic() + timeout
        while True:
            with self.lock:
                later = [envelope for envelope in self.raw[count:] if "patch" in envelope]
            if later:
                return list(later[0]["patch"])
            if time.monotonic() > deadline:
                raise AssertionError(f"no patch delivered after envelope {count}")
            time.sleep(0.005)

    def count(self) -> int:
        with self.lock:
            return len(self.raw)


# --------------------------------------------------------------------------- the applier


def test_apply_patch_copies_only_what_it_changes():
    state = {"query": "a", "results": {"phase": "loaded", "value": [{"id": 1}, {"id": 2}]}, "flags": {"x": 1}}
    before = copy.deepcopy(state)
    after = apply_patch(state, [{"op": "add", "path": "/results/value/-", "value": {"id": 3}},
                                {"op": "replace", "path": "/query", "value": "b"},
                                {"op": "remove", "path": "/results/value/0"},
                                {"op": "add", "path": "/results/value/0", "value": {"id": 0}}])
    assert state == before  # the old state is untouched
    assert after == {"query": "b", "results": {"phase": "loaded", "value": [{"id": 0}, {"id": 2}, {"id": 3}]}, "flags": {"x": 1}}
    assert after["flags"] is state["flags"]  # unchanged parts are shared
    assert after["results"]["value"][1] is state["results"]["value"][1]


@pytest.mark.parametrize("patch", [
    [{"op": "replace", "path": "/missing", "value": 1}],
    [{"op": "remove", "path": "/list/5"}],
    [{"op": "add", "path": "/list/7", "value": 1}],
    [{"op": "add", "path": "/list/01", "value": 1}],
    [{"op": "add", "path": "/a/b/c", "value": 1}],
    [{"op": "move", "path": "/a", "from": "/b"}],
    [{"op": "remove", "path": ""}],
    [{"op": "replace", "path": "list/0", "value": 1}],
])
def test_apply_patch_refuses_what_does_not_apply(patch):
    state = {"a": 1, "list": [1, 2]}
    with pytest.raises(PatchError):
        apply_patch(state, patch)
    assert state == {"a": 1, "list": [1, 2]}


def test_a_gap_in_seq_is_refused():
    patched = PatchedState()
    assert patched.receive(b'{"seq":1,"state":{"a":1}}') == (1, {"a": 1})
    with pytest.raises(PatchError):
        patched.receive(b'{"seq":3,"patch":[{"op":"replace","path":"/a","value":2}]}')


# --------------------------------------------------------------------------- every feature


def test_search_paging_is_adds_of_the_new_films(embedded):
    assert embedded.patches
    states: List[Dict[str, Any]] = []
    seen: List[str] = []  # each state as it was when delivered

    def received(state: Dict[str, Any]) -> None:
        states.append(state)
        seen.append(json.dumps(state))

    with embedded.search() as search:
        envelopes = Envelopes(search)
        search.subscribe(received)
        search.query_changed("star")
        search.submitted()
        search.settle(30)
        assert converged(search)["results"]["phase"] == "loaded"
        for page in range(2, 5):
            search.load_more()
            search.settle(30)
            state = converged(search)
            assert state["pagesLoaded"] == page
            adds = [op for op in envelopes.last_patch() if op["op"] == "add" and op["path"] == "/results/value/-"]
            assert len(adds) == 20, envelopes.last_patch()[:3]
        # Every state a subscriber received is still what it was (nothing is mutated later).
        assert [json.dumps(state) for state in states] == seen
        assert len(states[-1]["results"]["value"]) == 80


def test_discover_page_appends_touch_one_section(embedded):
    with embedded.discover() as discover:
        envelopes = Envelopes(discover)
        discover.subscribe(lambda state: None)
        discover.task()
        discover.settle(30)
        converged(discover)
        for _ in range(3):
            discover.load_more("comedy")
            discover.settle(30)
            converged(discover)
            patch = envelopes.last_patch()
            index = list(cinematic.DISCOVER_SECTIONS).index("comedy")
            assert {op["path"] for op in patch if op["op"] == "add"} == {f"/sections/{index}/movies/value/-"}
            assert all(op["path"].startswith(f"/sections/{index}/") for op in patch)


def test_favorites_removal_is_one_remove_and_detail_hearts_are_replaces(runtimes, tmp_path):
    runtime = runtimes({"favorites": str(tmp_path / "favorites.db")})
    favorites = runtime.favorites()
    envelopes = Envelopes(favorites)
    favorites.subscribe(lambda state: None)
    favorites.task()
    for movie_id in (15249, 1, 2):
        detail = runtime.detail(movie_id)
        detail_envelopes = Envelopes(detail)
        detail.subscribe(lambda state: None)
        detail.task()
        detail.wait_for(lambda s: s["detail"]["phase"] == "loaded")
        converged(detail)
        before = detail_envelopes.count()
        detail.favorite_toggled()
        heart = detail_envelopes.patch_after(before)
        assert heart and all(op["op"] == "replace" and op["path"] in ("/isFavorite", "/isSaving") for op in heart)
        detail.wait_for(lambda s: s["isFavorite"] and not s["isSaving"])
        assert converged(detail)["isFavorite"] is True
        detail.close()
    favorites.wait_for(lambda s: len(s["favorites"].get("value", [])) == 3)
    converged(favorites)
    before = envelopes.count()
    favorites.removed(1)
    assert envelopes.patch_after(before) == [{"op": "remove", "path": "/favorites/value/1"}]
    assert len(converged(favorites)["favorites"]["value"]) == 2


def test_whole_state_delivery_is_still_there(runtimes):
    runtime = runtimes({"clock": "manual"}, patches=False)
    assert not runtime.patches
    states: List[Dict[str, Any]] = []
    with runtime.search() as search:
        search.subscribe(states.append)
        search.query_changed("dune")
        assert states[-1]["query"] == "dune"
        assert search.delivered_state is None


def test_subscribe_deliveries_hands_out_the_library_s_text(runtimes):
    """A forwarding host (examples/web) gets each delivery as the library wrote it: the whole
    state first, then patches numbered without gaps, which rebuild exactly ``store.state``."""
    runtime = runtimes({"clock": "manual"})
    texts: List[str] = []
    with runtime.search() as search:
        envelopes = Envelopes(search)
        search.subscribe_deliveries(texts.append)
        search.query_changed("dune")
        search.query_changed("dune 1984")
        assert [json.loads(text) for text in texts] == envelopes.raw
        first = json.loads(texts[0])
        assert first["seq"] == 1 and "state" in first
        state = first["state"]
        for seq, text in enumerate(texts[1:], start=2):
            envelope = json.loads(text)
            assert envelope["seq"] == seq
            state = apply_patch(state, envelope["patch"])
        assert len(texts) >= 3 and state == search.state


def test_subscribe_deliveries_needs_patched_delivery(runtimes):
    with runtimes({"clock": "manual"}, patches=False).search() as search:
        with pytest.raises(cinematic.MisuseError):
            search.subscribe_deliveries(lambda text: None)
