"""Discover, Favorites and Detail through Python (wire format: see the package README).

Favorites and Detail keep observing the favorites after "task", so they never settle: these
tests wait for states (``store.wait_for``) with a deadline instead."""

from __future__ import annotations

import numbers
from typing import Any

import pytest

import cinematic
from conftest import HOST_CONFIG, ScriptedCatalog

DUNE = 15249
MOVIE_KEYS = {"id", "title", "year", "runtime", "rating", "votes", "genres", "mpaa"}


def section_of(discover: cinematic.DiscoverStore, name: str) -> Any:
    """The current state's entry for section ``name`` (None if it has none)."""
    return next((entry for entry in discover.state["sections"] if entry["section"] == name), None)


def phase(value, name):
    return isinstance(value, dict) and value.get("phase") == name


def ids(movies_phase):
    return [m["id"] for m in movies_phase.get("value", [])]


# --------------------------------------------------------------------------- discover


def test_discover_loads_every_section_and_pages(embedded):
    with embedded.discover() as discover:
        assert [s["section"] for s in discover.state["sections"]] == list(cinematic.DISCOVER_SECTIONS)
        assert all(phase(s["movies"], "idle") for s in discover.state["sections"])
        discover.task()
        discover.settle(30)
        state = discover.state
        assert [s["section"] for s in state["sections"]] == list(cinematic.DISCOVER_SECTIONS)
        for section in state["sections"]:
            assert phase(section["movies"], "loaded"), section
            assert section["pagesLoaded"] == 1
            assert section["isLoadingMore"] is False
            assert section["loadMoreError"] is None
            assert set(section) == {"section", "title", "movies", "pagesLoaded", "isExhausted",
                                    "isLoadingMore", "loadMoreError"}
        popular = state["sections"][0]
        assert len(popular["movies"]["value"]) == 20
        assert popular["isExhausted"] is False
        assert set(popular["movies"]["value"][0]) == MOVIE_KEYS
        for section in state["sections"][2:]:  # genre sections hold movies of that genre
            assert all(section["title"] in m["genres"] for m in section["movies"]["value"])

        # Sending task again while loaded starts no duplicate work.
        discover.task()
        assert discover.pending_effects == 0
        discover.settle(5)
        assert discover.state == state

        # Load more appends the next 20.
        discover.load_more("popular")  # (isLoadingMore while it loads: see the host test)
        discover.settle(30)
        popular2 = section_of(discover, "popular")
        assert popular2["pagesLoaded"] == 2
        assert popular2["isLoadingMore"] is False
        movies = popular2["movies"]["value"]
        assert len(movies) == 40
        assert movies[:20] == popular["movies"]["value"]
        assert len({m["id"] for m in movies}) == 40
        # Other sections did not change.
        assert discover.state["sections"][1:] == state["sections"][1:]


def test_discover_task_twice_while_loading_starts_no_duplicate_requests(runtimes):
    runtime = runtimes(HOST_CONFIG)
    catalog = ScriptedCatalog()  # holds every answer
    runtime.set_provider(catalog)
    with runtime.discover() as discover:
        discover.task()
        requests = catalog.wait_for("discover", len(cinematic.DISCOVER_SECTIONS))
        assert sorted(r["section"] for _, r in requests) == sorted(cinematic.DISCOVER_SECTIONS)
        assert all(r["page"] == 1 for _, r in requests)
        pending = discover.pending_effects
        assert pending == len(cinematic.DISCOVER_SECTIONS)
        assert all(phase(s["movies"], "loading") for s in discover.state["sections"])

        discover.task()                # again, while loading
        discover.load_more("popular")  # ignored while the section loads
        assert discover.pending_effects == pending
        with pytest.raises(cinematic.SettleTimeoutError):
            discover.settle(0.05)
        assert catalog.count("discover") == len(cinematic.DISCOVER_SECTIONS)

        for request_id, request in requests:
            movies = [{"id": 1000 * i + len(request["section"]), "title": f"{request['section']} {i}"}
                      for i in range(20 if request["section"] != "short" else 3)]
            runtime.respond(request_id, {"movies": movies})
        discover.settle(5)
        assert catalog.count("discover") == len(cinematic.DISCOVER_SECTIONS)
        short = section_of(discover, "short")
        assert short["isExhausted"] is True and len(short["movies"]["value"]) == 3
        popular = section_of(discover, "popular")
        assert popular["isExhausted"] is False and len(popular["movies"]["value"]) == 20

        # While the next page loads, movies stay loaded and isLoadingMore is true; a failed
        # next page keeps the content and sets loadMoreError.
        discover.load_more("popular")
        popular = section_of(discover, "popular")
        assert popular["isLoadingMore"] is True and phase(popular["movies"], "loaded")
        request_id, request = catalog.wait_for("discover", len(cinematic.DISCOVER_SECTIONS) + 1)[-1]
        assert request == {"op": "discover", "section": "popular", "page": 2}
        runtime.respond(request_id, {"error": {"code": "network", "message": "offline"}})
        discover.settle(5)
        popular = section_of(discover, "popular")
        assert popular["loadMoreError"] == {"code": "network", "message": "offline"}
        assert popular["isLoadingMore"] is False
        assert phase(popular["movies"], "loaded") and len(popular["movies"]["value"]) == 20

        # Refresh reloads every section from page 1.
        discover.refresh()
        requests = catalog.wait_for("discover", 2 * len(cinematic.DISCOVER_SECTIONS) + 1)
        assert all(r["page"] == 1 for _, r in requests[-len(cinematic.DISCOVER_SECTIONS):])


def test_discover_bad_intents(runtimes):
    runtime = runtimes(HOST_CONFIG)
    with runtime.discover() as discover:
        for intent, path in [({"type": "loadMore"}, "$.section"),
                             ({"type": "loadMore", "section": 3}, "$.section"),
                             ({"type": "loadMore", "section": "Westerns"}, "$.section"),
                             ({"type": "task", "now": True}, "$.now"),
                             ({"type": "sectionLoaded"}, "$.type")]:
            with pytest.raises(cinematic.InvalidError) as raised:
                discover.send(intent)
            assert raised.value.path == path, raised.value.details
        with pytest.raises(cinematic.InvalidError):
            runtime.open_store("discover", {"section": "popular"})


# --------------------------------------------------------------------------- detail


def test_detail_loads_and_toggles_a_favorite_seen_by_a_favorites_store(embedded):
    with embedded.detail(DUNE) as detail, embedded.favorites() as favorites:
        # (the header's detail state has "isSaving" too; the brief's list did not)
        assert detail.state == {"movieId": DUNE, "detail": {"phase": "idle"}, "isFavorite": False,
                                "isSaving": False, "favoriteError": None}
        detail.task()
        state = detail.wait_for(lambda s: phase(s["detail"], "loaded"), 10)
        movie = state["detail"]["value"]
        assert (movie["id"], movie["title"], movie["year"]) == (DUNE, "Dune", 1984)
        assert MOVIE_KEYS <= set(movie) and {"budget", "ratingDistribution"} <= set(movie)
        assert movie["budget"] is None or isinstance(movie["budget"], int)
        distribution = movie["ratingDistribution"]
        assert len(distribution) == 10
        assert all(isinstance(x, numbers.Real) and not isinstance(x, bool) for x in distribution)
        assert state["isFavorite"] is False and state["favoriteError"] is None

        favorites.task()
        favorites.wait_for(lambda s: phase(s["favorites"], "loaded") and s["favorites"]["value"] == [], 10)

        detail.favorite_toggled()
        assert detail.state["isFavorite"] is True  # optimistic: at once
        listed = favorites.wait_for(lambda s: DUNE in ids(s["favorites"]), 10)
        dune = [m for m in listed["favorites"]["value"] if m["id"] == DUNE][0]
        assert (dune["title"], dune["year"]) == ("Dune", 1984) and set(dune) == MOVIE_KEYS
        assert listed["removalError"] is None
        saved = detail.wait_for(lambda s: s["isFavorite"] and not s["isSaving"], 10)
        assert saved["favoriteError"] is None

        # Removing it from the favorites store turns the detail's heart off.
        favorites.removed(DUNE)
        favorites.wait_for(lambda s: DUNE not in ids(s["favorites"]), 10)
        detail.wait_for(lambda s: s["isFavorite"] is False, 10)

        # Toggling twice quickly ends where it started.
        detail.favorite_toggled()
        detail.favorite_toggled()
        favorites.wait_for(lambda s: DUNE not in ids(s["favorites"]), 10)
        assert detail.wait_for(lambda s: not s["isFavorite"], 10)["favoriteError"] is None


def test_read_only_favorites_roll_back_with_a_storage_error(tmp_path):
    path = str(tmp_path / "favorites.sqlite")
    with cinematic.Runtime(favorites=path) as runtime:  # create the database
        with runtime.favorites() as favorites:
            favorites.task()
            favorites.wait_for(lambda s: phase(s["favorites"], "loaded"), 10)
    with cinematic.Runtime(favorites={"path": path, "readOnly": True}) as runtime:
        with runtime.detail(DUNE) as detail, runtime.favorites() as favorites:
            favorites.task()
            assert ids(favorites.wait_for(lambda s: phase(s["favorites"], "loaded"), 10)["favorites"]) == []
            detail.task()
            detail.wait_for(lambda s: phase(s["detail"], "loaded"), 10)
            seen = []
            detail.subscribe(seen.append)  # every distinct state, in order
            detail.favorite_toggled()
            failed = detail.wait_for(lambda s: s["favoriteError"] is not None and not s["isSaving"], 10)
            assert failed["favoriteError"]["code"] == "storage"
            assert failed["isFavorite"] is False  # rolled back...
            flags = [s["isFavorite"] for s in seen]
            assert True in flags and flags.index(True) < len(flags) - 1  # ...after the optimistic flip
            favorites.removed(DUNE)
            removal = favorites.wait_for(lambda s: s["removalError"] is not None, 10)
            assert removal["removalError"]["code"] == "storage"


def test_favorites_in_a_missing_directory_is_io(tmp_path):
    with pytest.raises(cinematic.CinematicIOError):
        cinematic.Runtime(favorites=str(tmp_path / "missing" / "favorites.sqlite"))


def test_favorites_persist_across_runtimes(tmp_path):
    path = str(tmp_path / "favorites.sqlite")
    with cinematic.Runtime(favorites=path) as runtime, runtime.detail(DUNE) as detail:
        detail.task()
        detail.wait_for(lambda s: phase(s["detail"], "loaded"), 10)
        detail.favorite_toggled()
        with runtime.favorites() as favorites:
            favorites.task()
            favorites.wait_for(lambda s: DUNE in ids(s["favorites"]), 10)

    with cinematic.Runtime(favorites=path, delivery="queued") as runtime:
        with runtime.favorites() as favorites:
            favorites.task()
            state = favorites.wait_for(lambda s: phase(s["favorites"], "loaded"), 10)  # dispatches
            assert ids(state["favorites"]) == [DUNE]
            with runtime.detail(DUNE) as detail:
                detail.task()
                assert detail.wait_for(lambda s: phase(s["detail"], "loaded") and s["isFavorite"], 10)
            favorites.removed(DUNE)
            favorites.wait_for(lambda s: ids(s["favorites"]) == [], 10)

    with cinematic.Runtime(favorites=path) as runtime, runtime.favorites() as favorites:
        favorites.task()
        assert ids(favorites.wait_for(lambda s: phase(s["favorites"], "loaded"), 10)["favorites"]) == []


def test_detail_of_an_unknown_movie_fails_with_not_found(embedded):
    with embedded.detail(999_999_999) as detail:
        detail.task()
        state = detail.wait_for(lambda s: phase(s["detail"], "failed"), 10)
        assert state["detail"]["error"]["code"] == "notFound"
        detail.favorite_toggled()  # ignored until loaded
        assert detail.state["isFavorite"] is False


def test_detail_with_a_host_catalog(runtimes):
    runtime = runtimes(HOST_CONFIG)
    catalog = ScriptedCatalog()
    runtime.set_provider(catalog)
    with runtime.detail(42) as detail:
        detail.task()
        [(request_id, request)] = catalog.wait_for("movie", 1)
        assert request == {"op": "movie", "id": 42}
        runtime.respond(request_id, {"movie": {
            "id": 42, "title": "Hosted", "year": 2001, "budget": 1000000,
            "ratingDistribution": [0.5, 0, 0, 0, 0, 0, 0, 0, 0, 0.5]}})
        state = detail.wait_for(lambda s: phase(s["detail"], "loaded"), 10)
        assert state["detail"]["value"]["title"] == "Hosted"
        assert state["detail"]["value"]["budget"] == 1000000
        assert state["detail"]["value"]["ratingDistribution"][0] == 0.5


@pytest.mark.parametrize("args, error_class", [
    (None, cinematic.InvalidError),
    ({}, cinematic.InvalidError),
    ({"movieId": "15249"}, cinematic.InvalidError),
    ({"movieId": 15249, "title": "Dune"}, cinematic.InvalidError),
    ({"movie_id": 15249}, cinematic.InvalidError),  # 0.1.0's spelling
])
def test_detail_needs_a_movie_id(runtimes, args, error_class):
    runtime = runtimes(HOST_CONFIG)
    with pytest.raises(error_class):
        runtime.open_store("detail", args)


def test_favorites_bad_intents(runtimes):
    runtime = runtimes(HOST_CONFIG)
    with runtime.favorites() as favorites:
        assert favorites.state == {"favorites": {"phase": "idle"}, "removalError": None}
        for intent, path in [({"type": "removed"}, "$.movieId"),
                             ({"type": "removed", "movieId": "15249"}, "$.movieId"),
                             ({"type": "removed", "movie_id": 1, "movieId": 1}, "$.movie_id")]:
            with pytest.raises(cinematic.InvalidError) as raised:
                favorites.send(intent)
            assert raised.value.path == path, raised.value.details
