"""Discover, Favorites and Detail through Python (wire format: see the package README).

Favorites and Detail keep observing the favorites after "task", so they never settle: these
tests wait for states (``store.wait_for``) with a deadline instead."""

from __future__ import annotations

import numbers
from typing import Any

import pytest

import cinematic
from cinematic.testing import ANY, TestRuntime, TestStore, movie, movie_detail
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


def discover_movies(section, count, first=0):
    return [movie(1000 * i + len(section), f"{section} {i}") for i in range(first, first + count)]


def test_discover_task_twice_while_loading_starts_no_duplicate_requests_and_pages():
    """Discover through a TestStore: every section loads from its own request (a second task
    and a load more while loading start nothing), pages append, a failed next page keeps the
    content and sets loadMoreError, refresh starts over from page 1."""
    with TestStore("discover") as store:
        store.catalog.hold(op="discover")
        sections = list(cinematic.DISCOVER_SECTIONS)
        store.send({"type": "task"}, lambda s: [entry.update(movies={"phase": "loading"}) for entry in s["sections"]])
        for section in sections:
            store.catalog.wait_for(op="discover", section=section)
        assert store.store.pending_effects == len(sections)
        store.send({"type": "task"})                                 # again, while loading: no change
        store.send({"type": "loadMore", "section": "popular"})       # ignored while the section loads
        assert store.store.pending_effects == len(sections)
        assert sorted(r.request["section"] for r in store.catalog.requests) == sorted(sections)
        assert all(r.request["page"] == 1 for r in store.catalog.requests)

        # Answered one section at a time, each answer is received in turn.
        for index, section in enumerate(sections):
            count = 3 if section == "short" else 20
            store.catalog.respond({"movies": discover_movies(section, count)}, op="discover", section=section)
            store.receive("sectionLoaded", lambda s: s["sections"][index].update(
                movies={"phase": "loaded", "source": "live", "value": [dict(m, runtime=0, rating=0, votes=0, genres=[], mpaa=None)
                                                                         for m in discover_movies(section, count)]},
                pagesLoaded=1, isExhausted=count < 20))

        # While the next page loads, movies stay loaded and isLoadingMore is true.
        store.send({"type": "loadMore", "section": "popular"}, lambda s: s["sections"][0].update(isLoadingMore=True))
        page2 = store.catalog.wait_for(op="discover", section="popular", page=2)
        store.catalog.respond({"movies": discover_movies("popular", 20, 20)}, op="discover", section="popular", page=2)
        store.receive("sectionLoaded", lambda s: (
            s["sections"][0]["movies"]["value"].extend(dict(m, runtime=0, rating=0, votes=0, genres=[], mpaa=None)
                                                       for m in discover_movies("popular", 20, 20)),
            s["sections"][0].update(pagesLoaded=2, isLoadingMore=False)))
        assert page2.request == {"op": "discover", "section": "popular", "page": 2}

        # A failed next page keeps the content and sets loadMoreError.
        store.send({"type": "loadMore", "section": "popular"}, lambda s: s["sections"][0].update(isLoadingMore=True))
        store.catalog.respond({"error": {"code": "network", "message": "offline"}}, op="discover", section="popular", page=3)
        store.receive("sectionFailed", lambda s: s["sections"][0].update(
            isLoadingMore=False, loadMoreError={"code": "network", "message": "offline"}))

        # An exhausted section ignores loadMore; refresh reloads every section from page 1.
        store.send({"type": "loadMore", "section": "short"})
        store.send({"type": "refresh"}, lambda s: [entry.update(
            movies={"phase": "loading"}, pagesLoaded=0, isExhausted=False, isLoadingMore=False, loadMoreError=None)
            for entry in s["sections"]])
        for section in sections:
            store.catalog.wait_for(op="discover", section=section, page=1, count=2)
            store.catalog.respond({"movies": []}, op="discover", section=section, page=1)
        store.receive_all(["sectionLoaded"] * len(sections), lambda s: [entry.update(
            movies={"phase": "loaded", "source": "live", "value": []}, pagesLoaded=1, isExhausted=True)
            for entry in s["sections"]])


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


def hosted_detail(full=False):
    return movie_detail(42, "Hosted", 2001, full=full, budget=1000000)


def open_detail(store):
    """task: the movie loads (answered by the catalog) and the favorites are observed."""
    store.catalog.movie(42, hosted_detail())
    store.send({"type": "task"}, {"detail": {"phase": "loading"}})
    store.receive_all(["favoritesChanged", "detailLoaded"], {
        "detail": {"phase": "loaded", "source": "live", "value": hosted_detail(full=True)}})


def test_detail_toggles_optimistically_and_the_store_follows_the_write():
    with TestStore("detail", {"movieId": 42}) as store:
        store.send({"type": "favoriteToggled"})  # ignored until the movie has loaded
        open_detail(store)
        store.send({"type": "favoriteToggled"}, {"isFavorite": True, "isSaving": True})  # at once
        store.receive_all(["favoritesChanged", "favoriteSaved"], {"isSaving": False})
        store.send({"type": "favoriteToggled"}, {"isFavorite": False, "isSaving": True})
        store.receive_all(["favoritesChanged", "favoriteSaved"], {"isSaving": False})
        store.finish(still_running=["detail.favorites"])


def test_read_only_favorites_roll_back_with_a_storage_error(tmp_path):
    path = str(tmp_path / "favorites.sqlite")
    with cinematic.Runtime(favorites=path) as runtime:  # create the database
        with runtime.favorites() as favorites:
            favorites.task()
            favorites.wait_for(lambda s: phase(s["favorites"], "loaded"), 10)
    with TestRuntime({"favorites": {"path": path, "readOnly": True}}) as rt:
        detail = rt.store("detail", {"movieId": 42})
        open_detail(detail)
        detail.send({"type": "favoriteToggled"}, {"isFavorite": True, "isSaving": True})  # optimistic...
        detail.receive("favoriteSaveFailed", {"isFavorite": False, "isSaving": False,    # ...rolled back
                                              "favoriteError": {"code": "storage", "message": ANY}})
        favorites = rt.store("favorites")
        favorites.send({"type": "task"}, {"favorites": {"phase": "loading"}})
        favorites.receive("favoritesChanged", {"favorites": {"phase": "loaded", "value": []}})
        favorites.send({"type": "removed", "movieId": 42})
        favorites.receive("removalFailed", {"removalError": {"code": "storage", "message": ANY}})
        detail.finish(still_running=["detail.favorites"])
        favorites.finish(still_running=["favorites.observe"])


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
