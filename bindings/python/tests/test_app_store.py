"""The app store from Python (issue 31): the TestStore drives it exhaustively like any
feature, and its child handles (``app.scope(name)``) show one part each, typed, whole or
patched, send through the app, and close with it."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any, Dict, List

import pytest

import cinematic
from cinematic.testing import TestStore, movie, movie_detail

from conftest import HOST_CONFIG

ALIENS = [movie(1, "Alien", 1979), movie(2, "Aliens", 1986), movie(3, "Alien 3", 1992)]
ALIENS_STATE = [movie(m["id"], m["title"], m["year"], full=True) for m in ALIENS]
ALIEN_3 = movie_detail(3, "Alien 3", 1992, budget=50_000_000, ratingDistribution=[10.0] * 10)


# ------------------------------------------------------------------------------ TestStore

def test_the_teststore_drives_the_app_exhaustively():
    """Search, open the third result, heart it, back, remove it from Favorites, undo, and the
    notice expiring on the manual clock: every state asserted whole."""
    with TestStore("app") as store:
        store.catalog.search("alien", ALIENS).movie(3, ALIEN_3)
        store.send({"type": "task"}, lambda s: s["favorites"].update(favorites={"phase": "loading"}))
        store.receive("favoritesResult", lambda s: s["favorites"].update(favorites={"phase": "loaded", "value": []}))

        store.send({"type": "queryChanged", "query": "alien"}, lambda s: s["search"].update(query="alien"))
        store.advance(250)
        store.receive({"type": "searchResult", "intent": {"type": "searchNow"}},
                      lambda s: s["search"].update(results={"phase": "loading", "query": "alien"}))
        store.receive("searchResult", lambda s: s["search"].update(
            results={"phase": "loaded", "query": "alien", "source": "live", "value": ALIENS_STATE},
            pagesLoaded=1, isExhausted=True))

        store.send({"type": "moved", "list": "search", "selection": 2, "firstVisible": 0},
                   {"positions": {"search": {"selection": 2, "firstVisible": 0}}})
        store.send({"type": "opened", "movieId": 3}, {"details": [
            {"movieId": 3, "detail": {"phase": "loading"}, "isFavorite": False, "isSaving": False,
             "favoriteError": None, "listing": ALIENS_STATE[2]}]})
        detail = dict(ALIEN_3, runtime=0, rating=0.0, votes=0, genres=[], mpaa=None)
        store.receive_all(["detailResult", "detailResult"], lambda s: s["details"][0].update(
            detail={"phase": "loaded", "value": detail, "source": "live"}))

        store.send({"type": "detail", "intent": {"type": "favoriteToggled"}},
                   lambda s: s["details"][0].update(isFavorite=True, isSaving=True))
        store.receive_all(["detailResult", "detailResult", "favoritesResult"], lambda s: (
            s["details"][0].update(isSaving=False),
            s["favorites"].update(favorites={"phase": "loaded", "value": [ALIENS_STATE[2]]})))

        store.send({"type": "back"}, {"details": []})
        store.send({"type": "tabSelected", "tab": "favorites"}, {"tab": "favorites"})
        removed = {"id": 1, "kind": "removed", "text": "Removed Alien 3", "offersUndo": True, "expires": True}
        store.send({"type": "removed", "movieId": 3}, {"removed": [ALIENS_STATE[2]], "notice": removed})
        store.receive("favoritesResult", lambda s: s["favorites"].update(favorites={"phase": "loaded", "value": []}))

        store.send({"type": "undo"}, lambda s: (
            s["favorites"].update(favorites={"phase": "loaded", "value": [ALIENS_STATE[2]]}),
            s.update(removed=[], notice=None)))
        restored = {"id": 2, "kind": "restored", "text": "Restored Alien 3", "offersUndo": False, "expires": True}
        store.receive_all(["favoritesResult", "undoSaved"], {"notice": restored})

        store.advance(6000)
        store.receive("noticeExpired", {"notice": None})
        store.send({"type": "undo"}, {"notice": {"id": 3, "kind": "nothingToUndo", "text": "Nothing to undo",
                                                 "offersUndo": False, "expires": True}})
        store.advance(6000)
        store.receive("noticeExpired", {"notice": None})
        store.finish(still_running=["favorites.observe"])


def test_one_revert_of_the_app_restores_every_part_at_once():
    with TestStore("app", exhaustive=False) as store:
        store.catalog.search("alien", ALIENS).movie(3, ALIEN_3)
        store.send({"type": "task"})
        store.send({"type": "queryChanged", "query": "alien"})
        store.advance(250)
        store.receive({"type": "searchResult", "intent": {"type": "searchNow"}})
        store.receive("searchResult")
        store.send({"type": "opened", "movieId": 3})
        before = store.store.history[-1]
        store.send({"type": "tabSelected", "tab": "discover"})
        store.send({"type": "queryChanged", "query": "x" * 300})
        assert store.store.state["notice"]["kind"] == "queryShortened"
        store.revert(before["seq"])
        state = store.store.state
        assert (state["tab"], state["search"]["query"], [d["movieId"] for d in state["details"]], state["notice"]) == \
            ("search", "alien", [3], None)
        assert state == before["state"]
        store.close()


# ------------------------------------------------------------------------------ child handles

@pytest.fixture
def app(runtimes):
    runtime = runtimes(HOST_CONFIG)
    runtime.set_provider(lambda request_id, request: {"movies": ALIENS} if request["op"] == "search"
                         else {"movie": ALIEN_3} if request["op"] == "movie" else None)
    with runtime.app() as store:
        yield store


def search_and_open(app: cinematic.AppStore) -> None:
    app.task()
    app.query_changed("alien")
    app.runtime.advance_clock(250)  # type: ignore[attr-defined]
    app.wait_for(lambda s: s["search"]["results"]["phase"] == "loaded")
    app.opened(3)
    app.wait_for(lambda s: s["details"][-1]["detail"]["phase"] == "loaded")


def test_children_are_typed_and_show_the_parents_parts(app):
    search = app.scope("search")
    discover, favorites = app.scope("discover"), app.scope("favorites")
    shown = app.scope("detail", cinematic.ShownDetailStore)
    assert isinstance(search, cinematic.SearchStore) and isinstance(discover, cinematic.DiscoverStore)
    assert isinstance(favorites, cinematic.FavoritesStore) and isinstance(app.scope("detail"), cinematic.ShownDetailStore)
    assert search.parent is app and app.parent is None and search.feature == "search"
    assert shown.state is None
    search_and_open(app)
    state = app.state
    assert search.state == state["search"] and discover.state == state["discover"]
    assert favorites.state == state["favorites"] and shown.state == state["details"][-1]
    assert json.loads(search.state_json) == state["search"]


@pytest.mark.parametrize("patches", [True, False], ids=["patched", "whole"])
def test_a_childs_deliveries_give_its_state(runtimes, patches):
    runtime = runtimes(dict(HOST_CONFIG, delivery="queued"), patches=patches)
    runtime.set_provider(lambda request_id, request: {"movies": ALIENS} if request["op"] == "search"
                         else {"movie": ALIEN_3} if request["op"] == "movie" else None)
    app = runtime.app()
    search, shown = app.scope("search"), app.scope("detail")
    seen: Dict[str, List[Any]] = {"search": [], "detail": []}

    search.subscribe(seen["search"].append)
    shown.subscribe(seen["detail"].append)
    runtime.dispatch()
    assert seen == {"search": [app.state["search"]], "detail": [None]}
    search_and_open(app)
    runtime.dispatch()
    assert [s["query"] for s in seen["search"]][:2] == ["", "alien"]
    assert seen["search"][-1] == app.state["search"] and seen["detail"][-1] == app.state["details"][-1]
    assert seen["detail"][0] is None and len(seen["detail"]) >= 3   # loading, loaded (and the heart's favorites)
    app.back()
    runtime.dispatch()
    assert seen["detail"][-1] is None


def test_a_childs_patches_are_relative_to_its_part(runtimes):
    runtime = runtimes(dict(HOST_CONFIG, delivery="queued"))
    runtime.set_provider(lambda request_id, request: {"movies": ALIENS} if request["op"] == "search" else None)
    app = runtime.app()
    search = app.scope("search")
    raws: List[Dict[str, Any]] = []
    deliver = search._deliver
    search._deliver = lambda raw: (raws.append(json.loads(raw)), deliver(raw))  # type: ignore[method-assign]
    search.subscribe(lambda state: None)
    runtime.dispatch()
    search.query_changed("alien")
    runtime.dispatch()
    assert raws[0] == {"seq": 1, "state": app.state["search"]} or raws[0]["seq"] == 1
    assert raws[1] == {"seq": 2, "patch": [{"op": "replace", "path": "/query", "value": "alien"}]}
    assert search.delivered_state == app.state["search"]


def test_a_keystroke_through_the_search_child_patches_only_search(runtimes):
    runtime = runtimes(dict(HOST_CONFIG, delivery="queued"))
    runtime.set_provider(lambda request_id, request: None)
    app = runtime.app()
    search = app.scope("search")
    raws: List[Dict[str, Any]] = []
    deliver = app._deliver
    app._deliver = lambda raw: (raws.append(json.loads(raw)), deliver(raw))  # type: ignore[method-assign]
    app.subscribe(lambda state: None)
    app.task()
    runtime.dispatch()
    raws.clear()
    for typed in ("a", "al", "ali"):
        search.query_changed(typed)
        runtime.dispatch()
    paths = [op["path"] for raw in raws for op in raw["patch"]]
    # /search/query once per keystroke; /view (derived from every part) when what it shows moved on.
    assert [path for path in paths if path.startswith("/search/")] == ["/search/query"] * 3, paths
    assert all(path.startswith(("/search/", "/view/")) for path in paths), paths
    assert app.delivered_state == app.state


def test_sends_through_a_child_are_the_parents_intents(runtimes):
    runtime = runtimes(dict(HOST_CONFIG, history=50))
    runtime.set_provider(lambda request_id, request: None)
    app = runtime.app()
    search, shown = app.scope("search", cinematic.SearchStore), app.scope("detail", cinematic.ShownDetailStore)
    search.query_changed("dune")
    search.submitted()
    shown.favorite_toggled()   # no Detail open: nothing to do, still the app's intent
    intents = [entry["intent"] for entry in app.history]
    assert intents[:3] == [{"type": "search", "intent": {"type": "queryChanged", "query": "dune"}},
                           {"type": "search", "intent": {"type": "submitted"}},
                           {"type": "detail", "intent": {"type": "favoriteToggled"}}]
    assert search.history == app.history[:len(search.history)] and search.pending_effects == app.pending_effects
    long_query = "é" * 300
    search.query_changed(long_query)   # any length: the app fits it
    assert search.state["query"] == "é" * 256 and app.state["notice"]["kind"] == "queryShortened"
    with pytest.raises(cinematic.InvalidError):
        search.send({"type": "loadMore", "extra": 1})


def test_bad_scopes_are_invalid(app, runtimes):
    with pytest.raises(cinematic.InvalidError):
        app.scope("nope")
    with pytest.raises(cinematic.InvalidError):
        app.scope("search").scope("search")
    with runtimes(HOST_CONFIG).search() as search, pytest.raises(cinematic.InvalidError):
        search.scope("search")


def test_closing_the_parent_closes_its_children(app):
    search, shown = app.scope("search"), app.scope("detail")
    ended: List[str] = []

    async def read() -> None:
        async for _ in search.states():
            pass
        ended.append("search")

    async def main() -> None:
        reader = asyncio.ensure_future(read())
        await asyncio.sleep(0.05)
        app.close()
        await asyncio.wait_for(reader, 5)

    asyncio.run(main())
    assert ended == ["search"] and search.closed and shown.closed
    for call in (lambda: search.query_changed("x"), lambda: search.state, lambda: shown.subscribe(print),
                 lambda: search.history, lambda: app.scope("search")):
        with pytest.raises(cinematic.ClosedError):
            call()
    search.close()   # idempotent, and fine after the parent's close


def test_closing_a_child_stops_only_its_callbacks(app):
    search = app.scope("search")
    seen: List[Any] = []
    search.subscribe(seen.append)
    search.close()
    count = len(seen)
    app.query_changed("dune")
    assert len(seen) == count and not app.closed and app.state["search"]["query"] == "dune"
    again = app.scope("search")
    assert again.state["query"] == "dune"


def test_a_save_during_a_restore_keeps_the_saved_pages(runtimes, tmp_path):
    """A state file with Search's 3 pages and Comedy's 3; the person switches to Search
    while the catalog has not answered the reloads, and the app is quiet for a second: what
    it saves (docs/wire.md, Snapshots) says the new tab and still 3 pages of each, so a kill
    then loses nothing."""
    path = tmp_path / "app.json"
    data = {"tab": "discover", "section": "comedy", "query": "star", "searchPages": 3,
            "sections": [{"section": "comedy", "pagesLoaded": 3}], "details": [],
            "positions": {"search": {"selection": 45, "firstVisible": 30}}, "removed": []}
    path.write_text(json.dumps({"cinematicAppState": 1, "snapshot": {"format": 1, "feature": "app", "data": data}}))
    runtime = runtimes(HOST_CONFIG)
    runtime.set_provider(lambda request_id, request: None)   # never answers (yet)
    app = runtime.app({"stateFile": str(path)})
    app.wait_for(lambda s: s["tab"] == "discover")
    before = path.read_text()
    app.send({"type": "tabSelected", "tab": "search"})   # a change to save, the reloads pending
    runtime.advance_clock(1000)   # a quiet second on the manual clock: the app saves
    deadline = time.monotonic() + 5
    while path.read_text() == before and time.monotonic() < deadline:
        time.sleep(0.02)          # the write runs on the library's own thread
    assert path.read_text() != before, "the app did not save after a quiet second"
    saved = json.loads(path.read_text())["snapshot"]["data"]
    assert saved["tab"] == "search" and app.state["search"]["pagesLoaded"] < 3
    assert saved["searchPages"] == 3
    assert {"section": "comedy", "pagesLoaded": 3} in saved["sections"]
