"""Detail through Python (wire format: see the package README): it loads, toggles a favorite
optimistically (seen by a Favorites store), fails with notFound for an unknown movie, loads
from a host catalog, and needs a movie id.

Detail keeps observing the favorites after "task", so it never settles: these tests wait for
states (``store.wait_for``) with a deadline instead."""

from __future__ import annotations

import numbers

import pytest

import cinematic
from cinematic.testing import TestStore
from conftest import HOST_CONFIG, ScriptedCatalog
from features import DUNE, MOVIE_KEYS, ids, open_detail, phase


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


def test_detail_toggles_optimistically_and_the_store_follows_the_write():
    with TestStore("detail", {"movieId": 42}) as store:
        store.send({"type": "favoriteToggled"})  # ignored until the movie has loaded
        open_detail(store)
        store.send({"type": "favoriteToggled"}, {"isFavorite": True, "isSaving": True})  # at once
        store.receive_all(["favoritesChanged", "favoriteSaved"], {"isSaving": False})
        store.send({"type": "favoriteToggled"}, {"isFavorite": False, "isSaving": True})
        store.receive_all(["favoritesChanged", "favoriteSaved"], {"isSaving": False})
        store.finish(still_running=["detail.favorites"])


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
