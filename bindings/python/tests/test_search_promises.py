"""The four search promises (seed 004) through Python: a manual clock, a host catalog whose
Python provider holds answers back and ignores cancellation, settle instead of sleeps."""

from __future__ import annotations

import pytest

import cinematic
from conftest import HOST_CONFIG, ScriptedCatalog, echo_movies, search_state

VOYAGE = ["v", "vo", "voy", "voya", "voyag", "voyage"]


def test_keystrokes_collapse_into_one_request_for_the_last_query(runtimes):
    """Promise 1: typing "voyage" letter by letter sends one request, for "voyage"."""
    runtime = runtimes(HOST_CONFIG)
    catalog = ScriptedCatalog(auto=echo_movies)  # answers at once, from inside the provider
    runtime.set_provider(catalog)
    with runtime.search() as search:
        for i, prefix in enumerate(VOYAGE):
            search.query_changed(prefix)
            # send reduces before it returns
            assert search.state == search_state(prefix)
            assert search.pending_effects == (0 if i == 0 else 1)  # one debounce, replaced
        assert catalog.count("search") == 0

        runtime.advance_clock(249)
        with pytest.raises(cinematic.SettleTimeoutError):
            search.settle(0.05)  # the debounce has not elapsed yet
        assert catalog.count("search") == 0

        runtime.advance_clock(1)
        search.settle(5)
        assert [request for _, request in catalog.requests("search")] == [
            {"op": "search", "query": "voyage", "page": 1}]
        assert catalog.count("cancel") == 0
        assert search.state == search_state("voyage", {"phase": "loaded", "query": "voyage", "source": "live", "value": [
            {"id": 1, "title": "voyage", "year": 2000, "runtime": 0, "rating": 0,
             "votes": 0, "genres": [], "mpaa": None}]}, pagesLoaded=1, isExhausted=True)
        assert search.pending_effects == 0

        runtime.advance_clock(10_000)  # nothing else was waiting
        search.settle(5)
        assert catalog.count("search") == 1


def test_short_query_resets_at_once_and_cancels_the_pending_search(host):
    """Promise 2: below two characters the state is idle at once and nothing is asked."""
    runtime, catalog = host
    with runtime.search() as search:
        search.query_changed("du")
        assert search.pending_effects == 1
        search.query_changed("d")
        assert search.state == search_state("d")
        assert search.pending_effects == 0
        runtime.advance_clock(1000)
        search.settle(5)
        assert catalog.count("search") == 0
        assert search.state == search_state("d")

        # Whitespace does not count, and "submitted" with a short query asks nothing either.
        search.query_changed("  x  ")
        search.submitted()
        search.settle(5)
        assert catalog.count("search") == 0
        assert search.state["results"] == {"phase": "idle"}


def test_short_query_cancels_a_request_in_flight_and_drops_its_late_answer(host):
    """Promise 2 with the request already sent: idle at once, a cancel, the answer dropped."""
    runtime, catalog = host
    with runtime.search() as search:
        seen = []
        search.subscribe(seen.append)
        search.query_changed("du")
        runtime.advance_clock(250)
        [(du_id, du)] = catalog.wait_for("search", 1)
        assert du["query"] == "du"
        with pytest.raises(cinematic.SettleTimeoutError):
            search.settle(0.02)  # held by the provider
        assert search.state["results"] == {"phase": "loading", "query": "du"}

        search.query_changed("d")
        assert search.state == search_state("d")
        assert search.pending_effects == 0
        cancels = catalog.wait_for("cancel", 1)
        assert [rid for rid, _ in cancels] == [du_id]

        runtime.respond(du_id, {"movies": [{"id": 2, "title": "Late du", "year": 1999}]})
        search.settle(5)
        assert search.state == search_state("d")
        assert "Late du" not in repr(seen)


def test_stale_answer_arriving_after_the_current_one_is_dropped(host):
    """Promise 3: "du" held, "dune" answered first, then the late "du" answer is accepted
    (no error) and dropped: the screen still shows dune."""
    runtime, catalog = host
    with runtime.search() as search:
        seen = []
        search.subscribe(seen.append)
        search.query_changed("du")
        runtime.advance_clock(250)
        [(du_id, du)] = catalog.wait_for("search", 1)
        assert du == {"op": "search", "query": "du", "page": 1}

        search.query_changed("dune")
        catalog.wait_for("cancel", 1)  # the provider is told, and ignores it
        runtime.advance_clock(250)
        requests = catalog.wait_for("search", 2)
        dune_id, dune = requests[1]
        assert dune == {"op": "search", "query": "dune", "page": 1}
        assert dune_id != du_id

        runtime.respond(dune_id, {"movies": [
            {"id": 15249, "title": "Dune", "year": 1984},
            {"id": 15251, "title": "Dune Warriors", "year": 1990},
        ]})
        search.settle(5)
        shown = search.state
        assert shown["query"] == "dune"
        assert shown["results"]["phase"] == "loaded"
        assert [(m["title"], m["year"]) for m in shown["results"]["value"]] == [
            ("Dune", 1984), ("Dune Warriors", 1990)]
        delivered = len(seen)

        # The late answer for "du": accepted (no exception) and dropped.
        runtime.respond(du_id, {"movies": [{"id": 15235, "title": "Dumb & Dumber", "year": 1994}]})
        search.settle(5)
        assert search.state == shown
        assert len(seen) == delivered
        assert "Dumb & Dumber" not in repr(seen)
        assert [rid for rid, _ in catalog.requests("cancel")] == [du_id]

        # A second answer to an answered request is dropped too; a never-issued id is not.
        runtime.respond(dune_id, {"movies": []})
        with pytest.raises(cinematic.InvalidError) as raised:
            runtime.respond(987654321, {"movies": []})
        assert "987654321" in raised.value.message
        assert search.state == shown


def test_failures_are_typed(host):
    """Promise 4: an error answer gives the failed phase with the error's code."""
    runtime, catalog = host
    with runtime.search() as search:
        search.query_changed("dune")
        runtime.advance_clock(250)
        [(request_id, _)] = catalog.wait_for("search", 1)
        runtime.respond(request_id, {"error": {"code": "network", "message": "timed out"}})
        search.settle(5)
        assert search.state == search_state("dune", {
            "phase": "failed", "query": "dune", "error": {"code": "network", "message": "timed out"}})

        # A code outside the closed set becomes invalidResponse, naming the code.
        search.query_changed("dunes")
        runtime.advance_clock(250)
        request_id = catalog.wait_for("search", 2)[1][0]
        runtime.respond(request_id, {"error": {"code": "teapot", "message": "short and stout"}})
        search.settle(5)
        results = search.state["results"]
        assert results["phase"] == "failed"
        assert results["error"]["code"] == "invalidResponse"
        assert "teapot" in results["error"]["message"]

        # An undecodable answer fails the request (nothing waits forever) and raises.
        search.query_changed("dune 2")
        runtime.advance_clock(250)
        request_id = catalog.wait_for("search", 3)[2][0]
        with pytest.raises(cinematic.InvalidError):
            runtime.respond(request_id, {"movies": [{"title": "no id"}]})
        search.settle(5)
        assert search.state["results"]["error"]["code"] == "invalidResponse"


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
