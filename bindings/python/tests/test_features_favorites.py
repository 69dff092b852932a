"""Favorites through Python (wire format: see the package README): read-only favorites roll
a toggle back with a storage error, a missing directory is an I/O error, favorites persist
across runtimes, and bad intents are refused.

Favorites keep observing after "task", so they never settle: these tests wait for states
(``store.wait_for``) with a deadline instead."""

from __future__ import annotations

import pytest

import cinematic
from cinematic.testing import ANY, TestRuntime
from conftest import HOST_CONFIG
from features import DUNE, ids, open_detail, phase


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
