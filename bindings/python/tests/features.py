"""What the feature suites share (test_features_discover.py, test_features_detail.py,
test_features_favorites.py): Dune's id, a movie's keys, reading a phase and a list's ids, and
a hosted Detail opened in a TestStore.

Favorites and Detail keep observing the favorites after "task", so they never settle: these
tests wait for states (``store.wait_for``) with a deadline instead."""

from __future__ import annotations

from cinematic.testing import movie_detail

DUNE = 15249
MOVIE_KEYS = {"id", "title", "year", "runtime", "rating", "votes", "genres", "mpaa"}


def phase(value, name):
    return isinstance(value, dict) and value.get("phase") == name


def ids(movies_phase):
    return [m["id"] for m in movies_phase.get("value", [])]


def hosted_detail(full=False):
    return movie_detail(42, "Hosted", 2001, full=full, budget=1000000)


def open_detail(store):
    """task: the movie loads (answered by the catalog) and the favorites are observed."""
    store.catalog.movie(42, hosted_detail())
    store.send({"type": "task"}, {"detail": {"phase": "loading"}})
    store.receive_all(["favoritesChanged", "detailLoaded"], {
        "detail": {"phase": "loaded", "source": "live", "value": hosted_detail(full=True)}})
