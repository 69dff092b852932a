"""Debugging from Python: history and time travel, and the log. A scripted session recorded
and replayed: test_debugging_replay.py; the CINEMATIC_LOG variable: test_debugging_log_env.py."""

from __future__ import annotations

from typing import List

import pytest

import cinematic
from conftest import HOST_CONFIG, ScriptedCatalog, wirecheck  # HOST_CONFIG: manual clock, host catalog, no shared offline cache


def test_history_is_bounded_after_ten_thousand_intents_and_revert_notifies(runtimes):
    runtime = runtimes(HOST_CONFIG, history=100)
    with runtime.search() as search:
        for i in range(1, 10_001):
            search.query_changed(f"q{i}")
        history = search.history
        assert wirecheck.validate("history", history) is None
        assert [entry["seq"] for entry in history] == list(range(9_901, 10_001))
        assert history[0]["intent"] == {"type": "queryChanged", "query": "q9901"}
        assert history[-1]["state"]["query"] == "q10000"
        assert all(entry["changed"] == ["query"] for entry in history)

        seen: List[str] = []
        search.subscribe(lambda state: seen.append(state["query"]))
        search.revert(9_950)
        assert search.state["query"] == "q9950"
        assert seen == ["q10000", "q9950"]  # the current state, then the reverted one

        with pytest.raises(cinematic.InvalidError) as error:
            search.revert(9_900)  # dropped out of the bounded history
        assert "9900" in error.value.message
        assert search.state["query"] == "q9950"
        assert [entry["seq"] for entry in search.history][-1] == 10_000  # time travel is not an intent


def test_history_is_a_property_like_state_and_calling_it_still_works_with_a_warning(runtimes):
    import warnings
    runtime = runtimes(HOST_CONFIG, history=10)
    with runtime.search() as search:
        search.query_changed("dune")
        history = search.history                 # a property, as state is
        assert isinstance(history, list) and [e["intent"]["query"] for e in history] == ["dune"]
        assert isinstance(cinematic.Store.__dict__["history"], property)
        with pytest.warns(DeprecationWarning, match=r"store\.history, not store\.history\(\)"):
            called = search.history()            # the old spelling: the same entries, and a warning
        assert called == history
        with warnings.catch_warnings():
            warnings.simplefilter("error")       # the property itself never warns
            assert search.history == history
        search.query_changed("alien")
        assert [e["intent"]["query"] for e in search.history] == ["dune", "alien"]   # fresh each time
        assert len(history) == 1


def test_history_is_off_by_default(runtimes):
    runtime = runtimes(HOST_CONFIG)
    with runtime.search() as search:
        search.query_changed("dune")
        assert search.history == []
        with pytest.raises(cinematic.InvalidError):
            search.revert(1)
    with pytest.raises(cinematic.InvalidError) as error:
        cinematic.Runtime(history=-1)
    assert error.value.path == "$.history"


def test_logger_reports_intents_changed_fields_and_effects(runtimes):
    runtime = runtimes(HOST_CONFIG)
    catalog = ScriptedCatalog(auto=lambda request: {"movies": [{"id": 7, "title": "Dune", "year": 2021}]})
    runtime.set_provider(catalog)
    lines: List[str] = []
    runtime.set_logger(lines.append)
    with runtime.search() as search:
        search.query_changed("dune")
        runtime.advance_clock(250)
        search.settle(5)
        text = "\n".join(lines)
        assert 'intent #1 queryChanged {"type":"queryChanged","query":"dune"} changed: query' in text
        assert '[250 ms] search#' in text and "intent #2 searchNow" in text
        assert "resultsLoaded" in text and "changed: results, pagesLoaded, isExhausted" in text
        assert 'effect started "search"' in text and 'effect finished "search"' in text
        runtime.set_logger(None)
        count = len(lines)
        search.query_changed("dunes")
        assert len(lines) == count


def test_an_exception_in_the_logger_is_raised_by_the_next_call(runtimes):
    runtime = runtimes(HOST_CONFIG)

    def broken(line: str) -> None:
        raise ValueError("logger broke")

    runtime.set_logger(broken)
    search = runtime.search()
    with pytest.raises(ValueError, match="logger broke"):
        search.query_changed("dune")
