"""What the catalog holds, said where a query looks past it (issue "Search that knows a film
by every name", parts 2 and 4): a year after the catalog's last, a query that matches nothing,
or one no title holds whole (the words the first film leaves out named) gets a hint in the
state with the catalog's films, years and provenance, as the catalog that answered says them
(the embedded one, a user's index its own); the app's view shows it; a recording keeps it,
so a replay words the same hint."""

from __future__ import annotations

import json
from pathlib import Path

import cinematic
from cinematic.replay import replay
from conftest import wirecheck
from test_catalog_index import HEADER, film

EMBEDDED = "58,788 films from 1893 to 2005 (IMDb's figures as of 2005, via R's ggplot2movies; ASCII titles only)"
MANUAL = {"clock": "manual"}


def search(rt: cinematic.Runtime, query: str) -> cinematic.SearchStore:
    store = rt.search()
    store.query_changed(query)
    store.submitted()
    store.settle(timeout=30)
    return store


def test_a_year_after_the_catalogs_last_is_named_with_its_range():
    with cinematic.Runtime(MANUAL) as rt:
        store = search(rt, "casino royale 2006")
        state = store.state
        assert [(m["title"], m["year"]) for m in state["results"]["value"][:1]] == [("Casino Royale", 1967)]
        assert state["hint"] == {"kind": "years", "text": f"No film from 2006 is in the catalog: it holds {EMBEDDED}. "
                                                          "These titles hold your other words."}
        assert wirecheck.validate("state", state, "search") is None
        store.close()
        # A year the catalog spans says nothing.
        assert search(rt, "casino royale 1967").state["hint"] is None


def test_a_query_no_title_holds_whole_names_the_word_left_out():
    with cinematic.Runtime(MANUAL) as rt:
        state = search(rt, "the dark knight").state
        assert state["results"]["value"][0]["title"] == "First Knight"
        assert state["hint"] == {"kind": "partial", "text": f"No title holds every word: these leave out “dark”. The catalog holds {EMBEDDED}."}
        assert search(rt, "forest gump").state["hint"] is None   # a typo of the title leaves nothing out


def test_the_app_shows_the_hint_over_the_rows_and_in_the_empty_message():
    with cinematic.Runtime(MANUAL) as rt, rt.app() as app:
        app.task()
        app.query_changed("casino royale 2006")
        app.search({"type": "submitted"})
        view = app.wait_for(lambda s: s["search"]["results"]["phase"] == "loaded", timeout=30)["view"]
        assert view["list"]["hint"] == f"No film from 2006 is in the catalog: it holds {EMBEDDED}. These titles hold your other words."
        app.query_changed("qqzzqqzz wvvy")
        app.search({"type": "submitted"})
        view = app.wait_for(lambda s: s["search"]["results"].get("query") == "qqzzqqzz wvvy"
                            and s["search"]["results"]["phase"] == "loaded", timeout=30)["view"]
        assert view["list"]["message"] == {
            "kind": "empty", "heading": "Nothing found",
            "body": f"No film in the catalog matches “qqzzqqzz wvvy”: it holds {EMBEDDED}. Try fewer words, another spelling, "
                    "or part of the title; the catalog knows titles, years and genres."}
        assert view["list"]["hint"] == ""


def test_a_users_index_says_its_own_films_years_and_file(tmp_path):
    movies, index = tmp_path / "movies.tsv", tmp_path / "my films.idx"
    movies.write_text(HEADER + film(1, "Zardoz", 50) + film(2, "Brazil", 90).replace("\t1999\t", "\t1985\t"))
    cinematic.build_index(movies, index)
    with cinematic.Runtime({"clock": "manual", "catalog": {"path": str(index)}}) as rt:
        assert search(rt, "zardoz 2010").state["hint"] == {
            "kind": "years", "text": "No film from 2010 is in the catalog: it holds 2 films from 1985 to 1999 "
                                     "(the catalog file “my films.idx”). These titles hold your other words."}


def test_a_host_catalog_says_nothing_of_its_limits():
    with cinematic.Runtime({"clock": "manual", "catalog": "host"}) as rt:
        rt.set_provider(lambda request_id, request: {"movies": []})
        assert search(rt, "zardoz 2010").state["hint"] is None


def test_a_recording_keeps_the_coverage_and_a_replay_words_the_same_hint(tmp_path: Path):
    path = tmp_path / "session.jsonl"
    with cinematic.Runtime(MANUAL, record=str(path)) as rt:
        assert search(rt, "casino royale 2006").state["hint"]["kind"] == "years"
        assert search(rt, "the dark knight").state["hint"]["kind"] == "partial"
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    answers = [line for line in lines if line["event"] == "answer"]
    assert [line.get("unmatched") for line in answers] == [None, ["dark"]]
    assert answers and all(line["coverage"] == {"films": 58788, "firstYear": 1893, "lastYear": 2005,
                                                "provenance": "IMDb's figures as of 2005, via R's ggplot2movies; ASCII titles only"}
                           for line in answers)
    for line in lines:
        assert wirecheck.validate("recording", line) is None, line
    assert replay(path)["matched"] is True
    # The replay reads them from the recording: others word another hint.
    recorded = path.read_text()
    path.write_text(recorded.replace('"lastYear":2005', '"lastYear":2010'))
    assert replay(path)["matched"] is False
    path.write_text(recorded.replace('"unmatched":["dark"]', '"unmatched":["knight"]'))
    assert replay(path)["matched"] is False
