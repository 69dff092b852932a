"""The four search promises (seed 004) through Python, as TestStore tests (cinematic.testing):
a manual clock, a scripted host catalog that holds answers back and ignores cancellation,
every state change and every fed-back intent asserted."""

from __future__ import annotations

import pytest

import cinematic
from cinematic.testing import ANY, TestStore, movie
from conftest import HOST_CONFIG, ScriptedCatalog, echo_movies

VOYAGE = ["v", "vo", "voy", "voya", "voyag", "voyage"]


def voyage_movie(full: bool = False):
    return movie(1, "voyage", 2000, full=full)


def test_keystrokes_collapse_into_one_request_for_the_last_query():
    """Promise 1: typing "voyage" letter by letter sends one request, for "voyage", exactly
    when the 250 ms debounce after the last keystroke elapses."""
    with TestStore("search") as store:
        store.catalog.search("voyage", [voyage_movie()])
        for i, prefix in enumerate(VOYAGE):
            store.send({"type": "queryChanged", "query": prefix}, {"query": prefix})  # only the query changes
            assert store.store.pending_effects == (0 if i == 0 else 1)  # one debounce, replaced
        store.advance(249)
        store.expect_nothing_received()  # the debounce has not elapsed: nothing can arrive
        assert store.catalog.count(op="search") == 0

        store.advance(1)
        store.receive("searchNow", {"results": {"phase": "loading", "query": "voyage"}})
        store.receive("resultsLoaded", {
            "results": {"phase": "loaded", "query": "voyage", "source": "live", "value": [voyage_movie(full=True)]},
            "pagesLoaded": 1, "isExhausted": True})
        assert [r.request for r in store.catalog.requests] == [{"op": "search", "query": "voyage", "page": 1}]
        assert store.catalog.cancelled == []

        store.advance(10_000)  # nothing else was waiting
    # finish(): no effect running, every fed-back intent received (so exactly one searchNow)


def test_short_query_resets_at_once_and_cancels_the_pending_search():
    """Promise 2: below two characters the state is idle at once and nothing is asked."""
    with TestStore("search") as store:
        store.send({"type": "queryChanged", "query": "du"}, {"query": "du"})
        assert store.store.pending_effects == 1
        store.send({"type": "queryChanged", "query": "d"}, {"query": "d"})
        assert store.store.pending_effects == 0  # the debounce was cancelled, not left to fire
        store.advance(1000)
        store.expect_nothing_received()

        # Whitespace does not count, and "submitted" with a short query asks nothing either.
        store.send({"type": "queryChanged", "query": "  x  "}, {"query": "  x  "})
        store.send({"type": "submitted"})
        store.advance(1000)
        assert store.catalog.count(op="search") == 0


def test_short_query_cancels_a_request_in_flight_and_drops_its_late_answer():
    """Promise 2 with the request already sent: idle at once, a cancel, the answer dropped."""
    with TestStore("search") as store:
        store.catalog.hold(op="search", query="du")
        store.send({"type": "queryChanged", "query": "du"}, {"query": "du"})
        store.advance(250)
        store.receive("searchNow", {"results": {"phase": "loading", "query": "du"}})
        du = store.catalog.wait_for(op="search", query="du")

        store.send({"type": "queryChanged", "query": "d"}, {"query": "d", "results": {"phase": "idle"}})
        assert store.store.pending_effects == 0
        store.catalog.wait_cancelled(du)
        assert store.catalog.cancelled == [du.id]

        store.catalog.respond({"movies": [movie(2, "Late du", 1999)]}, op="search", query="du")
    # finish(): the late answer fed nothing back (no resultsLoaded to receive)


def test_stale_answer_arriving_after_the_current_one_is_dropped():
    """Promise 3: "du" held, "dune" answered first, then the late "du" answer is accepted
    (no error) and dropped: the state still shows dune, and no intent comes of it."""
    dune = [movie(15249, "Dune", 1984), movie(15251, "Dune Warriors", 1990)]
    with TestStore("search") as store:
        store.catalog.hold(op="search", query="du")
        store.catalog.search("dune", dune)
        store.send({"type": "queryChanged", "query": "du"}, {"query": "du"})
        store.advance(250)
        store.receive("searchNow", {"results": {"phase": "loading", "query": "du"}})
        du = store.catalog.wait_for(op="search", query="du")
        assert du.request == {"op": "search", "query": "du", "page": 1}

        store.send({"type": "queryChanged", "query": "dune"}, {"query": "dune"})
        store.catalog.wait_cancelled(du)  # told, and ignored
        store.advance(250)
        store.receive("searchNow", {"results": {"phase": "loading", "query": "dune"}})
        store.receive("resultsLoaded", {
            "results": {"phase": "loaded", "query": "dune", "source": "live",
                        "value": [movie(15249, "Dune", 1984, full=True), movie(15251, "Dune Warriors", 1990, full=True)]},
            "pagesLoaded": 1, "isExhausted": True})

        # The late answer for "du": accepted (no exception) and dropped.
        store.catalog.respond({"movies": [movie(15235, "Dumb & Dumber", 1994)]}, op="search", query="du")
        store.runtime.respond(du.id, {"movies": []})  # a second answer to an answered request too
        with pytest.raises(cinematic.InvalidError) as raised:
            store.runtime.respond(987654321, {"movies": []})  # a never-issued id is not
        assert "987654321" in raised.value.message
        assert store.catalog.cancelled == [du.id]
    # finish(): nothing was fed back by the late answers


def test_failures_are_typed():
    """Promise 4: an error answer gives the failed phase with the error's code; a code outside
    the closed set becomes invalidResponse; an undecodable answer raises and fails the request."""
    with TestStore("search") as store:
        store.catalog.search("dune", error=("network", "timed out"))
        store.catalog.search("dunes", error=("teapot", "short and stout"))
        store.catalog.hold(op="search", query="dune 2")
        store.send({"type": "queryChanged", "query": "dune"}, {"query": "dune"})
        store.advance(250)
        store.receive("searchNow", {"results": {"phase": "loading", "query": "dune"}})
        store.receive("searchFailed", {"results": {
            "phase": "failed", "query": "dune", "error": {"code": "network", "message": "timed out"}}})

        store.send({"type": "queryChanged", "query": "dunes"}, {"query": "dunes"})
        store.send({"type": "submitted"}, {"results": {"phase": "loading", "query": "dunes"}})
        store.receive("searchFailed", {"results": {
            "phase": "failed", "query": "dunes", "error": {"code": "invalidResponse", "message": ANY}}})
        assert "teapot" in store.state["results"]["error"]["message"]

        store.send({"type": "queryChanged", "query": "dune 2"}, {"query": "dune 2"})
        store.send({"type": "submitted"}, {"results": {"phase": "loading", "query": "dune 2"}})
        request = store.catalog.wait_for(op="search", query="dune 2")
        with pytest.raises(cinematic.InvalidError):
            store.runtime.respond(request.id, {"movies": [{"title": "no id"}]})
        store.receive("searchFailed", lambda s: s["results"].update(
            phase="failed", error={"code": "invalidResponse", "message": ANY}))


def test_no_provider_fails_with_network(runtimes):
    runtime = runtimes(HOST_CONFIG)
    with runtime.search() as search:
        search.query_changed("dune")
        search.submitted()
        search.settle(5)
        assert search.state["results"]["phase"] == "failed"
        assert search.state["results"]["error"]["code"] == "network"


def test_provider_can_be_replaced_and_removed(runtimes):
    runtime = runtimes(HOST_CONFIG)
    first, second = ScriptedCatalog(auto=echo_movies), ScriptedCatalog(auto=echo_movies)
    runtime.set_provider(first)
    runtime.set_provider(second)
    with runtime.search() as search:
        search.query_changed("alien")
        search.submitted()
        search.settle(5)
        assert first.count("search") == 0 and second.count("search") == 1
        runtime.set_provider(None)
        search.query_changed("aliens")
        search.submitted()
        search.settle(5)
        assert search.state["results"]["error"]["code"] == "network"


def test_embedded_catalog_finds_dune(embedded):
    """The real catalog: "dune" lists Dune (1984) first."""
    with embedded.search() as search:
        search.query_changed("dune")
        search.settle(10)
        state = search.state
        assert state["query"] == "dune"
        assert state["results"]["phase"] == "loaded"
        first = state["results"]["value"][0]
        assert (first["title"], first["year"], first["id"]) == ("Dune", 1984, 15249)
        assert set(first) == {"id", "title", "year", "runtime", "rating", "votes", "genres", "mpaa"}


def test_embedded_catalog_articles_and_fts_operators(embedded):
    """Titles carry their article in front; FTS5 syntax in user text is harmless."""
    with embedded.search() as search:
        search.query_changed("godfather")
        search.submitted()
        search.settle(10)
        titles = [(m["title"], m["year"]) for m in search.state["results"]["value"]]
        assert ("The Godfather", 1972) in titles
        for nasty in ['"unbalanced', "dune OR NOT", "title:*", "a AND (", "NEAR(x y)"]:
            search.query_changed(nasty)
            search.submitted()
            search.settle(10)
            assert search.state["results"]["phase"] in ("loaded", "failed")
            assert search.state["query"] == nasty
