"""cinematic.testing.TestStore itself: it passes when every change is asserted, and fails with
a readable diff when a change is unasserted, when a state differs, when an effect result is
not received, and when an effect is still running at finish()."""

from __future__ import annotations

import re

import pytest

from cinematic.testing import ANY, TestRuntime, TestStore, TestStoreFailure, diff, movie, movie_detail

DUNE = [movie(15249, "Dune", 1984), movie(15251, "Dune Warriors", 1990)]
DUNE_STATE = [movie(15249, "Dune", 1984, full=True), movie(15251, "Dune Warriors", 1990, full=True)]


def loaded(query, value, **paging):
    return {"results": {"phase": "loaded", "query": query, "source": "live", "value": value},
            "pagesLoaded": 1, "isExhausted": True, **paging}


def search_dune(store):
    store.catalog.search("dune", DUNE)
    store.send({"type": "queryChanged", "query": "dune"}, {"query": "dune"})
    store.advance(250)
    store.receive("searchNow", {"results": {"phase": "loading", "query": "dune"}})


def test_a_fully_asserted_search_passes_with_dict_or_function_changes():
    with TestStore("search") as store:
        search_dune(store)
        intent = store.receive("resultsLoaded", lambda s: s.update(loaded("dune", DUNE_STATE)))
        assert intent["movies"][0]["title"] == "Dune"
        assert store.state["results"]["value"][1]["title"] == "Dune Warriors"


def test_an_unasserted_change_fails_naming_the_member():
    store = TestStore("search")
    try:
        with pytest.raises(TestStoreFailure) as failure:
            store.send({"type": "queryChanged", "query": "dune"})  # query changes, nothing asserted
        message = str(failure.value)
        assert 'send({"type":"queryChanged","query":"dune"})' in message
        assert 'query: expected "", actual "dune"' in message
        assert "changed but not asserted: query" in message
    finally:
        store.close()


def test_a_differing_state_fails_with_a_diff_naming_list_positions():
    store = TestStore("search")
    try:
        search_dune(store)
        wrong = [DUNE_STATE[0], dict(DUNE_STATE[1], year=1991)]
        with pytest.raises(TestStoreFailure) as failure:
            store.receive("resultsLoaded", loaded("dune", wrong, pagesLoaded=2))
        message = str(failure.value)
        assert "TestStore(search) receive(resultsLoaded): the state differs" in message
        assert "results.value[1].year: expected 1991, actual 1990" in message
        assert "pagesLoaded: expected 2, actual 1" in message
        assert "results.value[0]" not in message  # equal members are not listed
    finally:
        store.close()


def test_a_list_of_another_length_names_the_missing_position():
    assert diff({"a": [1, 2]}, {"a": [1]}) == ["a[1]: expected 2, actual (absent)", "a: expected 2 items, actual 1"]
    assert diff({"e": {"code": "x", "message": ANY}}, {"e": {"code": "x", "message": "whatever"}}) == []
    assert diff({"e": ANY}, {}) == ["e: expected a value, actual (absent)"]


def test_an_effect_result_not_received_fails_at_finish():
    store = TestStore("search")
    search_dune(store)
    store.catalog.wait_for(op="search", query="dune")
    with pytest.raises(TestStoreFailure) as failure:
        store.finish()  # resultsLoaded was fed back and never received
    message = str(failure.value)
    assert "finish(): 1 intent(s) fed back by effects were not received" in message
    assert '"type":"resultsLoaded"' in message
    assert store.store.closed


def test_an_effect_result_not_received_fails_the_next_send():
    store = TestStore("search")
    try:
        search_dune(store)
        store.catalog.wait_for(op="search", query="dune")
        store.test_runtime._wait(lambda: store._new_entries(), 5)  # (the answer was given from the provider)
        with pytest.raises(TestStoreFailure, match=r"must be received first: \{\"type\":\"resultsLoaded\""):
            store.send({"type": "queryChanged", "query": "dunes"}, {"query": "dunes"})
    finally:
        store.close()


def test_an_effect_still_running_fails_at_finish_naming_it():
    store = TestStore("search")
    store.send({"type": "queryChanged", "query": "dune"}, {"query": "dune"})  # a debounce, never advanced
    with pytest.raises(TestStoreFailure) as failure:
        store.finish(timeout=0.2)
    message = str(failure.value)
    assert re.search(r'finish\(\): 1 effect\(s\) still running after 0.2 s: \[\'search\'\]', message), message
    assert store.store.closed


def test_a_held_request_is_named_when_finish_fails():
    store = TestStore("search")
    store.catalog.hold(op="search")
    store.send({"type": "queryChanged", "query": "dune"}, {"query": "dune"})
    store.send({"type": "submitted"}, {"results": {"phase": "loading", "query": "dune"}})
    store.catalog.wait_for(op="search")
    with pytest.raises(TestStoreFailure, match=r'catalog requests waiting for an answer: \[#\d+ \{"op": "search", "query": "dune", "page": 1\}'):
        store.finish(timeout=0.2)


def test_receiving_the_wrong_intent_or_nothing_fails():
    store = TestStore("search")
    try:
        search_dune(store)
        with pytest.raises(TestStoreFailure, match=r'receive\(searchFailed\): the next intent fed back was \{"type":"resultsLoaded"'):
            store.receive("searchFailed")
        store.skip_received()
        with pytest.raises(TestStoreFailure, match=r"no intent was fed back within 0.1 s; effects running: none"):
            store.receive("resultsLoaded", timeout=0.1)
    finally:
        store.close()


def test_changes_naming_an_unknown_member_fail():
    store = TestStore("search")
    try:
        with pytest.raises(TestStoreFailure, match="querry: not members of the search state"):
            store.send({"type": "queryChanged", "query": "dune"}, {"querry": "dune"})
    finally:
        store.close()


def test_a_delayed_answer_arrives_when_the_manual_clock_reaches_it():
    with TestStore("search") as store:
        store.catalog.search("dune", DUNE, delay_ms=400)
        store.send({"type": "queryChanged", "query": "dune"}, {"query": "dune"})
        store.send({"type": "submitted"}, {"results": {"phase": "loading", "query": "dune"}})
        request = store.catalog.wait_for(op="search", query="dune")
        store.advance(399)
        store.expect_nothing_received()
        assert not request.answered
        store.advance(1)
        store.receive("resultsLoaded", loaded("dune", DUNE_STATE))


def test_non_exhaustive_mode_checks_only_what_is_named():
    with TestStore("search", exhaustive=False) as store:
        store.catalog.search("dune", DUNE)
        store.send({"type": "queryChanged", "query": "dune"})  # nothing named: nothing checked
        store.advance(250)
        store.receive("resultsLoaded", {"pagesLoaded": 1})  # searchNow skipped; results not compared
        with pytest.raises(TestStoreFailure, match="pagesLoaded: expected 2, actual 1"):
            store.send({"type": "loadMore"}, {"pagesLoaded": 2})  # exhausted: ignored
        store.send({"type": "queryChanged", "query": "x"})  # finish() does not require anything


def test_stores_on_one_runtime_share_the_favorites():
    """A detail store's heart and a favorites store, on one TestRuntime (in-memory favorites)."""
    with TestRuntime() as rt:
        rt.catalog.movie(42, movie_detail(42, "Hosted", 2001, budget=1000000))
        favorites = rt.store("favorites")
        detail = rt.store("detail", {"movieId": 42})
        favorites.send({"type": "task"}, {"favorites": {"phase": "loading"}})
        favorites.receive("favoritesChanged", {"favorites": {"phase": "loaded", "value": []}})
        detail.send({"type": "task"}, {"detail": {"phase": "loading"}})
        detail.receive_all(["favoritesChanged", "detailLoaded"], {"detail": {
            "phase": "loaded", "source": "live", "value": movie_detail(42, "Hosted", 2001, full=True, budget=1000000)}})
        detail.send({"type": "favoriteToggled"}, {"isFavorite": True, "isSaving": True})
        detail.receive_all(["favoritesChanged", "favoriteSaved"], {"isSaving": False})
        favorites.receive("favoritesChanged", {"favorites": {"phase": "loaded", "value": [movie(42, "Hosted", 2001, full=True)]}})
        favorites.finish(still_running=["favorites.observe"])
        detail.finish(still_running=["detail.favorites"])


def test_finish_fails_when_a_long_lived_effect_is_not_named():
    store = TestStore("favorites")
    store.send({"type": "task"}, {"favorites": {"phase": "loading"}})
    store.receive("favoritesChanged", {"favorites": {"phase": "loaded", "value": []}})
    with pytest.raises(TestStoreFailure, match=r"still running after 0.2 s: \['favorites.observe'\]"):
        store.finish(timeout=0.2)
