"""Every state drawn in the terminal app (issue 34), in a pseudo-terminal as in
test_terminal_app.py: a failed Discover section says what failed and which key tries again
(never "0 shown, more match"), an empty search says what to try, the search's hint is on
screen, the histogram's bars are the share on a fixed 0–100% track, F1 opens the help, Down
past the last row moves on to the first film of the next page, PageDown moves by the rows on
screen (after a resize too), F2 sorts, and a path option whose directory does not exist is
one line (nothing is created). Every word checked is the app state's view, drawn."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Callable

import pytest

import cinematic
from test_terminal_app import TerminalApp, line_with, words
from test_terminal_hints import free_port
from terminal_resume import section_movies

CTRL_Q, CTRL_U, F1, F2, F5 = "\x11", "\x15", "\x1bOP", "\x1bOQ", "\x1b[15~"
DOWN, PGDN, PGUP = "\x1bOB", "\x1b[6~", "\x1b[5~"


@pytest.fixture
def app(tmp_path):
    terminal = TerminalApp(tmp_path)
    yield terminal
    terminal.close()


def test_a_failed_section_says_what_failed_and_what_to_do_not_how_many_are_shown(tmp_path):
    port = free_port()   # nothing listens there
    app = TerminalApp(tmp_path, args=["--live", f"http://127.0.0.1:{port}"],
                      extra_env={"XDG_CACHE_HOME": str(tmp_path / "cache")})
    try:
        app.wait_for(lambda s: "Search:" in s, "the Search tab")
        app.send("\t")

        def popular_failing(text: str) -> None:
            assert "Could not load Popular: network" in text and "F5 tries again" in words(text, 14)
            assert app.screen.lines()[2].strip() == "Discover: Popular"   # no count
            assert "shown" not in text and "more match" not in text, text
            assert line_with(text, "Check that the movie server is running") is not None, text   # what to do

        app.expect(popular_failing, "Popular failing")
        app.send(CTRL_Q)
        assert app.wait_exit() == 0
    finally:
        app.close()


def test_an_empty_search_says_what_to_try_and_the_hint_is_shown(app):
    app.wait_for(lambda s: "Search:" in s and "Type at least 2 characters to search" in s, "the idle sentence")
    app.send("qqzzqqzz")
    # The catalog's limits, as the catalog says them (issue "Search that knows a film by every name").
    app.wait_for(lambda s: "No film in the catalog matches “qqzzqqzz”: it holds 58,788 films from 1893 to 2005 (IMDb's"
                 in words(s) and "Try fewer words" in words(s), "the empty sentence with what the catalog holds")
    app.send(CTRL_U + "tom hanks")
    app.wait_for(lambda s: "looks like a person" in app.screen.lines()[3] and line_with(s, "▶") is not None,
                 "the search's hint over the rows")
    app.send(CTRL_U + "casino royale 2006\r")
    app.wait_for(lambda s: "No film from 2006 is in the catalog: it holds 58,788 films" in words("\n".join(app.screen.lines()[3:6]))
                 and line_with(s, "Casino Royale", "1967") is not None, "the catalog's last year over the rows")
    app.send(CTRL_U + "the dark knight\r")
    app.wait_for(lambda s: "No title holds every word: these leave out “dark”. The catalog holds 58,788 films from 1893 to 2005 "
                 "(IMDb's figures as of 2005, via R's ggplot2movies; ASCII titles only)." in words("\n".join(app.screen.lines()[3:6]))
                 and line_with(s, "First Knight", "1995") is not None, "the word left out, whole, over the rows")
    app.send(CTRL_Q)
    assert app.wait_exit() == 0


def test_the_histogram_is_the_share_on_a_fixed_scale(app):
    app.wait_for(lambda s: "Search:" in s, "the Search tab")
    app.send("dune")
    app.wait_for(lambda s: line_with(s, "Dune", "1984") is not None, "Dune")
    app.send("\r")
    track = 80 - 16

    def histogram(text: str) -> None:
        # curses draws the view in several writes: every assertion waits for the whole of it.
        assert "0-100% scale" in text
        rows = {int(m.group(1)): line for line in text.splitlines() if (m := re.match(r"\s+(\d+)★ ", line))}
        assert sorted(rows) == list(range(1, 11)), text
        for stars, share in ((6, 14.5), (1, 4.5)):
            bar = rows[stars][7:7 + track]
            filled = bar.count("█") + 0.5 * bar.count("▌")
            assert abs(filled - share / 100 * track) <= 1, (stars, rows[stars])
            assert rows[stars].endswith(f"{share:5.1f}%")
        assert "4.5% means 0-10%" in text

    app.expect(histogram, "Dune's histogram")
    app.send(CTRL_Q)
    assert app.wait_exit() == 0


def test_f1_opens_the_help_even_with_a_query_typed(app):
    app.wait_for(lambda s: "Search:" in s, "the Search tab")
    app.send("dune" + F1)
    app.wait_for(lambda s: "Keys: Search" in s and line_with(s, "F1", "This help") is not None, "the help")
    app.send("x")
    app.wait_for(lambda s: "Search: dune_" in s and "Keys:" not in s, "the help closed, nothing typed")
    app.send(CTRL_Q)
    assert app.wait_exit() == 0


def test_down_past_the_last_row_moves_to_the_first_film_of_the_next_page(app, tmp_path):
    with cinematic.Runtime(favorites=str(tmp_path / "probe.sqlite")) as runtime, runtime.search() as search:
        search.query_changed("love")
        search.submitted()
        search.wait_for(lambda s: s["results"]["phase"] == "loaded", timeout=10)
        search.load_more()
        search.wait_for(lambda s: len(s["results"].get("value", [])) > 20 and not s["isLoadingMore"], timeout=10)
        twenty_first = search.state["results"]["value"][20]["title"]
    app.wait_for(lambda s: "Search:" in s, "the Search tab")
    app.send("love")
    app.wait_for(lambda s: "20 shown, more match" in app.screen.lines()[2], "the first page of love")
    app.send(DOWN * 20)
    selected = app.wait_for(lambda s: "40 shown" in app.screen.lines()[2] and line_with(s, "▶") is not None
                            and twenty_first[:20] in (line_with(s, "▶") or ""), "the 21st film selected")
    assert line_with(selected, "▶").startswith("▶" + twenty_first[:20])
    app.send(CTRL_Q)
    assert app.wait_exit() == 0


@pytest.mark.parametrize("option", ["--favorites", "--state-file", "--record"])
def test_a_named_path_in_a_missing_directory_is_one_line_and_nothing_is_created(tmp_path, option):
    missing = tmp_path / "nonexistent" / "dir"
    app = TerminalApp(tmp_path, args=[option, str(missing / "f.sqlite")])
    try:
        assert app.wait_exit() == 1
        said = app.transcript.decode("utf-8", "replace")
        assert f"cinematic-tui: cannot start: {option} {missing}/f.sqlite: the directory {missing} does not exist" in said
        assert not (tmp_path / "nonexistent").exists()
    finally:
        app.close()


def list_rows(text: str) -> list:
    """(title, year, selected) of each movie row on screen, top to bottom."""
    rows = []
    for line in text.splitlines()[4:-2]:
        found = re.match(r"^([ ▶])(.+?) +(\d{4}) +\d+\.\d★", line)
        if found:
            rows.append((found.group(2), int(found.group(3)), found.group(1) == "▶"))
    return rows


def test_f2_sorts_the_rows_and_enter_opens_the_row_chosen(app):
    app.wait_for(lambda s: "Search:" in s, "the Search tab")
    app.send("star wars")
    app.wait_for(lambda s: len(list_rows(s)) >= 5 and "Searching" not in s, "star wars")
    app.send(F2 + F2)   # by title, then by year

    def by_year(text: str) -> None:   # newest first
        assert app.screen.lines()[0].endswith("By year, newest first")
        years = [year for _, year, _ in list_rows(text)]
        assert len(years) >= 5 and years == sorted(years, reverse=True), text

    def by_title(text: str) -> None:
        assert app.screen.lines()[0].endswith("By title")
        titles = [title.casefold() for title, _, _ in list_rows(text)]
        assert titles == sorted(titles), text

    app.expect(by_year, "sorted by year")
    app.send(F2 + F2 + F2)   # rating, the list's order, title
    app.expect(by_title, "sorted by title")
    app.send(DOWN + DOWN + DOWN)
    text = app.wait_for(lambda s: [chosen for _, _, chosen in list_rows(s)][:4] == [False, False, False, True],
                        "the fourth row chosen")
    title = list_rows(text)[3][0]
    app.send("\r")
    app.wait_for(lambda s: "Budget" in s and app.screen.lines()[2].startswith(" " + title.rstrip("…")[:20]),
                 "the fourth row's film opened")
    app.send(CTRL_Q)
    assert app.wait_exit() == 0


def test_page_down_moves_by_the_rows_on_screen_after_a_resize_too(app):
    popular = [movie["title"] for movie in section_movies("popular", 1)]

    def shown(first: int, chosen: int, rows: int) -> Callable[[str], bool]:
        """Popular's films from ``first`` on the list rows (from row 4, ``rows`` of them; the
        rest of the 20 loaded beyond them not drawn), ``chosen`` with the pointer."""
        def check(text: str) -> bool:
            lines = app.screen.lines()
            films = popular[first:first + rows]
            return all(film[:20] in lines[4 + i] and lines[4 + i].startswith("▶" if first + i == chosen else " ", 14)
                       for i, film in enumerate(films)) and (first + rows >= 20 or not lines[4 + rows].strip()[14:])
        return check

    app.wait_for(lambda s: "Search:" in s, "the Search tab")
    app.send("\t")
    app.wait_for(shown(0, 0, 18), "Popular: 18 rows at 80x24, the first chosen")
    app.send(PGDN)   # a page is the 18 rows on screen: the 19th film chosen; the page stays full (rows 3-20)
    app.wait_for(shown(2, 18, 18), "a page down")
    app.resize(20, 80)   # 14 list rows now: the app is told (resized), the 19th film still shown
    app.wait_for(shown(5, 18, 14), "the same place, smaller")
    app.send(PGUP)   # a page of 14 rows up: the 5th film chosen, the rows from the top
    app.wait_for(shown(0, 4, 14), "a page up of 14 rows")
    app.send(CTRL_Q)
    assert app.wait_exit() == 0


def test_a_failed_detail_of_a_favorite_can_still_be_unfavorited(tmp_path):
    favorites = tmp_path / "favorites.sqlite"
    with cinematic.Runtime(favorites=str(favorites)) as runtime, runtime.detail(15249) as dune:   # Dune (1984)
        dune.task()
        dune.wait_for(lambda s: s["detail"]["phase"] == "loaded" and not s["isSaving"], timeout=10)
        dune.favorite_toggled()
        dune.wait_for(lambda s: s["isFavorite"] and not s["isSaving"], timeout=10)
    app = TerminalApp(tmp_path, args=["--favorites", str(favorites), "--live", f"http://127.0.0.1:{free_port()}"],
                      extra_env={"XDG_CACHE_HOME": str(tmp_path / "cache")})
    try:
        app.wait_for(lambda s: "Search:" in s, "the Search tab")
        app.send("\t\t")
        app.wait_for(lambda s: line_with(s, "Dune", "1984") is not None, "Dune in the favorites")
        app.send("\r")
        app.wait_for(lambda s: "Could not load Dune: network" in s and "★ In your favorites" in app.screen.lines()[2]
                     and "F5 tries again" in words(s) and line_with(s, "Rating", "votes") is not None,
                     "the failed detail, a favorite, with its row's facts")
        app.send("f")
        app.wait_for(lambda s: "☆ Not in your favorites" in app.screen.lines()[2], "unfavorited")
        app.send("\x1b")
        app.wait_for(lambda s: "No favorites yet" in s, "the favorites empty")
        app.send(CTRL_Q)
        assert app.wait_exit() == 0
    finally:
        app.close()
