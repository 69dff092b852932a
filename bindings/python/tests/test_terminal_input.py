"""What a new user typed into the terminal app (issue 25), in a pseudo-terminal as in
test_terminal_app.py: a query past the library's limit (the app store fits it and says so),
words typed into the Favorites tab, and the debug panel's time travel followed by Esc."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest

from test_terminal_app import STAR, TerminalApp, line_with

CTRL_D, ESC, CTRL_Q, CTRL_U, CTRL_X, DELETE = "\x04", "\x1b", "\x11", "\x15", "\x18", "\x1b[3~"


@pytest.fixture
def app(tmp_path):
    terminal = TerminalApp(tmp_path)
    yield terminal
    terminal.close()


def search_line(app: TerminalApp) -> str:
    return app.screen.lines()[2]


def queries_shown(recording: Path) -> list:
    """The app's search query in each recorded state, in order."""
    queries = []
    for line in recording.read_text().splitlines():
        event = json.loads(line)
        if event.get("event") == "state":
            queries.append(event["state"]["search"]["query"])
    return queries


@pytest.mark.parametrize("letter", ["x", "é"])
def test_a_query_typed_or_pasted_past_256_characters_is_cut_with_a_note(tmp_path, letter):
    """300 characters typed in one go (a paste): the app takes them, keeps 256 and says so on
    the notice line (the app store's notice: the same words in every host); the app keeps
    running (no traceback), the query can still be edited, Ctrl-X hides the notice."""
    recording = tmp_path / "session.jsonl"
    app = TerminalApp(tmp_path, args=["--record", str(recording)])
    try:
        app.wait_for(lambda s: "Search:" in s, "the Search tab")
        app.send(letter * 300)
        app.wait_for(lambda s: "Your search was shortened to 256 characters" in app.screen.lines()[-2],
                     "the app's notice about the limit")
        assert "Traceback" not in app.transcript.decode("utf-8", "replace")
        app.send(CTRL_X)  # hides it
        app.wait_for(lambda s: "shortened" not in s, "the notice hidden")
        app.send("\x7f")  # the app still answers keys: Backspace, then two more letters
        app.send("yz")
        app.wait_for(lambda s: "shortened to 256" in s and letter + "y_" in search_line(app),
                     "the box full again after one letter, and the notice again")
        app.send(CTRL_U + "dune")
        app.wait_for(lambda s: line_with(s, "Dune", "1984") is not None, "searching works after the long query")
        app.send(CTRL_Q)
        assert app.wait_exit() == 0
    finally:
        app.close()
    queries = queries_shown(recording)
    assert max(len(q) for q in queries) == 256
    assert letter * 255 + "y" in queries and queries[-1] == "dune"


def add_favorite(app: TerminalApp, query: str, title: str, year: str, count: int) -> None:
    app.send(CTRL_U + query)
    app.wait_for(lambda s: line_with(s, title, year) is not None and "Stale" not in s
                 and title in app.screen.lines()[4], f"{title} first in the results")
    app.send("\r")
    app.wait_for(lambda s: "Budget" in s and "Not a favorite" in s, f"the Detail view of {title}")
    app.send("f")
    app.wait_for(lambda s: f"{STAR} Favorite" in s and f"Favorites ({count})" in s and "saving" not in s,
                 f"{title} saved as a favorite")
    app.send(ESC)
    app.wait_for(lambda s: "Budget" not in s, "back in Search")


def test_typing_in_the_favorites_tab_removes_nothing_and_every_removal_can_be_undone(app):
    app.wait_for(lambda s: "Search:" in s, "the Search tab")
    add_favorite(app, "dune", "Dune", "1984", 1)
    add_favorite(app, "stargate", "Stargate", "1994", 2)
    add_favorite(app, "the godfather part", "The Godfather: Part II", "1974", 3)
    app.send("\t\t")
    app.wait_for(lambda s: "Your favorites" in s and "Favorites (3)" in s, "the Favorites tab")

    # Someone who thinks the search box has focus types words, with pauses between them.
    for word in ("dune", "delete", "ddd", "dude"):
        for letter in word:
            app.send(letter)
            time.sleep(0.05)
        time.sleep(0.6)
        app.pump(0.1)
    assert "Favorites (3)" in app.screen.text(), app.screen.text()
    app.send(DELETE)  # the Delete key asks too
    app.wait_for(lambda s: "y removes" in s, "the confirmation of Delete")
    app.send("n")
    app.wait_for(lambda s: "Kept" in s and "Favorites (3)" in s, "kept after n")

    for remaining in (2, 1, 0):
        app.send("d")
        app.wait_for(lambda s: "y removes" in s, "the confirmation")
        app.send("y")
        app.wait_for(lambda s: f"Favorites ({remaining})" in s and "(u undoes)" in s, f"{remaining} left")
    # Undo, one by one, newest first: all three come back. A film shows in the list at once and
    # "Restored <title>" once it is stored: each wait is for that film's own notice, so no
    # write is still under way when "u" finds nothing left to undo (its notice would be
    # replaced by the last "Restored").
    restored_titles: set = set()
    for restored in (1, 2, 3):
        app.send("u")
        def stored(s: str) -> bool:
            notice = re.search(r"Restored (.+?)\s*$", app.screen.lines()[-2])
            return f"Favorites ({restored})" in s and notice is not None and notice.group(1) not in restored_titles
        app.wait_for(stored, f"{restored} restored")
        restored_titles.add(re.search(r"Restored (.+?)\s*$", app.screen.lines()[-2]).group(1))  # as stored() saw it
    # One condition for the whole frame (curses may be mid-redraw between two reads).
    app.wait_for(lambda s: all(line_with(s, title, year) is not None for title, year in (
        ("Dune", "1984"), ("Stargate", "1994"), ("The Godfather: Part II", "1974"))), "all three back")
    app.send("u")
    app.wait_for(lambda s: "Nothing to undo" in s, "an empty undo stack says so")


def test_leaving_the_debug_panel_after_time_travel_shows_no_false_searching(app):
    app.wait_for(lambda s: "Search:" in s, "the Search tab")
    app.send("alien")
    app.wait_for(lambda s: line_with(s, "Aliens", "1986") is not None and "searching" not in search_line(app),
                 "results for alien")
    app.send(CTRL_D)
    app.wait_for(lambda s: "Debug: app store" in s, "the debug panel")
    app.send("[[")
    app.wait_for(lambda s: "(time travel)" in s and line_with(s, "> #", 'query="alien"') is not None,
                 "back at the state after typing alien, before its search")
    app.send(ESC)
    app.wait_for(lambda s: "Debug:" not in s and "Search: alien_" in s, "the panel closed")
    deadline = time.monotonic() + 1.0
    while time.monotonic() < deadline:  # give a stale flag time to show
        app.pump(0.1)
    line = search_line(app)
    assert "searching" not in line, app.screen.text()  # no request runs
    assert "Enter searches" in line, app.screen.text()  # what the state says: not searched yet
    app.send("\r")
    app.wait_for(lambda s: line_with(s, "Aliens", "1986") is not None and "shown, more available" in search_line(app),
                 "Enter searches again")
