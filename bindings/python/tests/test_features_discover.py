"""Discover through Python (wire format: see the package README): every section loads and
pages, a second task while loading starts no duplicate requests, and bad intents are refused."""

from __future__ import annotations

from typing import Any

import pytest

import cinematic
from cinematic.testing import TestStore, movie
from conftest import HOST_CONFIG
from features import MOVIE_KEYS, phase


def section_of(discover: cinematic.DiscoverStore, name: str) -> Any:
    """The current state's entry for section ``name`` (None if it has none)."""
    return next((entry for entry in discover.state["sections"] if entry["section"] == name), None)


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
