"""What a new user typed into the terminal app (issue 25), in a pseudo-terminal as in
test_terminal_app.py: a query past the library's limit (the app store fits it and says so),
words typed into the Favorites tab (letters are no keys there; Delete removes at once and
Ctrl+Z puts back), and the debug panel's time travel followed by Esc."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest

from test_terminal_app import STAR, TerminalApp, line_with

F12, ESC, CTRL_Q, CTRL_U, CTRL_Z, DELETE = "\x1b[24~", "\x1b", "\x11", "\x15", "\x1a", "\x1b[3~"


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
    running (no traceback), the query can still be edited."""
    recording = tmp_path / "session.jsonl"
    app = TerminalApp(tmp_path, args=["--record", str(recording)])
    try:
        app.wait_for(lambda s: "Search:" in s, "the Search tab")
        app.send(letter * 300)
        # The box shows the query's end (…xxx_), the notice line the app's words.
        app.wait_for(lambda s: "Your search was shortened to 256 characters" in app.screen.lines()[-2]
                     and search_line(app).startswith(" Search: …" + letter * 10) and search_line(app).endswith(letter + "_"),
                     "the app's notice about the limit")
        assert "Traceback" not in app.transcript.decode("utf-8", "replace")
        app.send("\x7f")  # the app still answers keys: Backspace, then two more letters
        app.send("yz")
        app.wait_for(lambda s: "shortened to 256" in app.screen.lines()[-2] and search_line(app).endswith(letter + "y_"),
                     "the box full again after one letter, and the notice")
        app.send(CTRL_U + "dune")
        app.wait_for(lambda s: line_with(s, "Dune", "1984") is not None, "searching works after the long query")
        app.send(CTRL_Q)
        assert app.wait_exit() == 0
    finally:
        app.close()
    queries = queries_shown(recording)
    assert max(len(q) for q in queries) == 256
    assert letter * 255 + "y" in queries and queries[-1] == "dune"


def noticed(app: TerminalApp, verb: str) -> str:
    """The film the notice line names after ``verb`` ("Removed Dune (2 to undo)": "Dune")."""
    found = re.match(rf"{verb} (.+?)(?: \(\d+ to undo\))?$", app.screen.lines()[-2].strip())
    return found.group(1) if found else ""


def add_favorite(app: TerminalApp, query: str, title: str, year: str, count: int) -> None:
    app.send(CTRL_U + query)
    app.wait_for(lambda s: line_with(s, title, year) is not None and app.screen.lines()[4].startswith("▶" + title),
                 f"{title} first in the results")
    app.send("\r")
    app.wait_for(lambda s: "Budget" in s and "Not in your favorites" in s, f"the Detail view of {title}")
    app.send("f")
    app.wait_for(lambda s: f"{STAR} In your favorites" in s, f"{title} saved as a favorite")
    app.send(ESC)
    app.wait_for(lambda s: "Budget" not in s, "back in Search")


def test_typing_in_the_favorites_tab_removes_nothing_and_every_removal_can_be_undone(app):
    app.wait_for(lambda s: "Search:" in s, "the Search tab")
    add_favorite(app, "dune", "Dune", "1984", 1)
    add_favorite(app, "stargate", "Stargate", "1994", 2)
    add_favorite(app, "the godfather part", "The Godfather: Part II", "1974", 3)
    app.send("\t\t")
    # The whole Favorites screen drawn: its status, its three rows, and nothing left of the
    # Discover tab passed through on the way (its loading rows, or its loaded rows and section
    # names while the redraw is still arriving): every line below the three rows is blank.
    def favorites_drawn(s: str) -> bool:
        lines = app.screen.lines()
        rows = [line.lstrip("▶ ").split("  ")[0] for line in lines[4:7]]
        return "3 favorites" in lines[2] and "░" not in s \
            and sorted(rows) == ["Dune", "Stargate", "The Godfather: Part II"] \
            and not any(line.strip() for line in lines[7:-1])
    app.wait_for(favorites_drawn, "the Favorites tab")
    before = app.screen.text()

    # Someone who thinks the search box has focus types words, with pauses between them.
    for word in ("dune", "delete", "ddd", "dude"):
        for letter in word:
            app.send(letter)
            time.sleep(0.05)
        time.sleep(0.6)
        app.pump(0.1)
    assert app.screen.text() == before   # letters are no keys on Favorites: nothing changed
    titles = {"Dune", "Stargate", "The Godfather: Part II"}
    removed = []
    for remaining in (2, 1, 0):
        app.send(DELETE)   # no question: undo puts it back
        def gone(s: str) -> bool:
            return noticed(app, "Removed") in titles - set(removed) \
                and (f"{remaining} favorite" in app.screen.lines()[2] if remaining else "No favorites yet" in s)
        app.wait_for(gone, f"{remaining} left")
        removed.append(noticed(app, "Removed"))  # as gone() saw it
    # Undo, one by one, newest first: all three come back. A film shows in the list at once and
    # "Restored <title>" once it is stored: each wait is for that film's own notice, so no
    # write is still under way when Ctrl+Z finds nothing left to undo.
    for restored, title in enumerate(reversed(removed), 1):
        app.send(CTRL_Z)
        app.wait_for(lambda s: f"{restored} favorite" in app.screen.lines()[2] and noticed(app, "Restored") == title,
                     f"{title} restored")
    # One condition for the whole frame (curses may be mid-redraw between two reads).
    app.wait_for(lambda s: all(line_with(s, title, year) is not None for title, year in (
        ("Dune", "1984"), ("Stargate", "1994"), ("The Godfather: Part II", "1974"))), "all three back")
    app.send(CTRL_Z)
    app.wait_for(lambda s: "Nothing to undo" in app.screen.lines()[-2], "an empty undo stack says so")


def leave_time_travel_after_typing_alien(app: TerminalApp) -> None:
    """Searches "alien", steps back to the state after typing it (before its search) in the
    debug panel, and closes the panel there."""
    app.wait_for(lambda s: "Search:" in s, "the Search tab")
    app.send("alien")
    app.wait_for(lambda s: line_with(s, "Aliens", "1986") is not None and "shown, more match" in search_line(app),
                 "results for alien")
    app.send(F12)
    app.wait_for(lambda s: "Debug: app store" in s, "the debug panel")
    app.send("[[")
    app.wait_for(lambda s: "(time travel)" in s and line_with(s, "> #", 'query="alien"') is not None,
                 "back at the state after typing alien, before its search")
    app.send(ESC)
    app.wait_for(lambda s: "Debug:" not in s and "Search: alien_" in s, "the panel closed")


def test_after_time_travel_enter_searches_the_query_shown(app):
    leave_time_travel_after_typing_alien(app)
    app.send("\r")   # the results shown are not the query's: Enter searches it now
    app.wait_for(lambda s: line_with(s, "Aliens", "1986") is not None and "shown, more match" in search_line(app),
                 "Enter searches again")


def test_after_time_travel_the_screen_does_not_claim_a_search_runs(app):
    """A past state whose search was on its way: time travel cancels it (SearchReducer.reverted),
    and the screen says the query is not searched yet, not that a search runs."""
    leave_time_travel_after_typing_alien(app)
    deadline = time.monotonic() + 1.0
    while time.monotonic() < deadline:  # give a false "searching" time to show
        app.pump(0.1)
    assert "Searching" not in app.screen.text(), app.screen.text()   # no request runs
    assert "“alien” is not searched yet" in app.screen.text() or "not searched yet (Enter: search)" in app.screen.text(), \
        app.screen.text()
