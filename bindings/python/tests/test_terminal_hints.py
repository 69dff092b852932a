"""The terminal app's smaller hints (issue 25, "Smaller"), in a pseudo-terminal as in
test_terminal_app.py: "?" is a character of the query and F1 the help, how many films a paged
list shows, and that a failed search or section says which key tries again (and that key
does)."""

from __future__ import annotations

import re
import socket
import subprocess
import sys

import pytest

from conftest import REPO
from test_terminal_app import TerminalApp, line_with, words

CTRL_Q, CTRL_U, CTRL_L, SHIFT_TAB = "\x11", "\x15", "\x0c", "\x1b[Z"
DOWN, F1, F5 = "\x1bOB", "\x1bOP", "\x1b[15~"   # xterm in keypad mode (curses turns it on)


@pytest.fixture
def app(tmp_path):
    terminal = TerminalApp(tmp_path)
    yield terminal
    terminal.close()


def footer(app: TerminalApp) -> str:
    return app.screen.lines()[-1]


def test_question_mark_is_typed_and_f1_opens_the_help_over_a_query(app):
    app.wait_for(lambda s: "Search:" in s and "F1 This help" in footer(app), "the Search tab and its footer")
    app.send("?")   # a character of a query, never a key (the keymap binds no letters on Search)
    app.wait_for(lambda s: "Search: ?_" in s, "? typed into the query")
    app.send(CTRL_U + "dune")
    app.wait_for(lambda s: "Search: dune_" in s, "the query typed")
    app.send(F1)
    app.wait_for(lambda s: "Keys: Search" in s and line_with(s, "F1", "This help") is not None, "the help")
    app.send("x")   # any key closes the help (and is not typed)
    app.wait_for(lambda s: "Search: dune_" in s and "Keys:" not in s, "the help closed, nothing typed")
    app.send(CTRL_Q)
    assert app.wait_exit() == 0


def test_a_paged_list_says_how_many_are_shown_and_that_more_match(app):
    app.wait_for(lambda s: "Search:" in s, "the Search tab")
    app.send("love")
    app.wait_for(lambda s: "20 shown, more match" in app.screen.lines()[2], "the first page of love")
    app.send(DOWN * 20)   # Down from the last row loads the next page
    app.wait_for(lambda s: "40 shown, more match" in app.screen.lines()[2], "two pages of love")
    assert " 40 movies" not in app.screen.text()
    # A search whose every result is loaded says how many there are.
    app.send(CTRL_U + "godfather part iii")
    app.wait_for(lambda s: re.search(r"\b\d+ movies?$", app.screen.lines()[2]) is not None
                 and "Search: godfather part iii_" in s, "an exhausted search")
    # Discover's sections say the same; Ctrl+L loads the next page.
    app.send("\t")
    app.wait_for(lambda s: app.screen.lines()[2].startswith(" Discover: Popular")
                 and app.screen.lines()[2].endswith("20 shown, more match"), "the first page of Popular")
    app.send(CTRL_L)
    app.wait_for(lambda s: app.screen.lines()[2].endswith("40 shown, more match"), "two pages of Popular")
    app.send(CTRL_Q)
    assert app.wait_exit() == 0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_a_network_error_says_which_key_tries_again_and_that_key_does(tmp_path):
    port = free_port()   # nothing listens there yet
    app = TerminalApp(tmp_path, args=["--live", f"http://127.0.0.1:{port}"],
                      extra_env={"XDG_CACHE_HOME": str(tmp_path / "cache")})
    server = None
    try:
        app.wait_for(lambda s: "Search:" in s, "the Search tab")
        app.send("dune\r")
        app.wait_for(lambda s: "Search failed: network" in s and "F5 tries again" in words(s),
                     "the search failing, with its hint")
        app.send("\t")
        app.wait_for(lambda s: "Could not load Popular: network" in s and "F5 tries again" in words(s, 14),
                     "Discover failing, with its hint")
        # The server comes up: each key does what its hint says.
        server = subprocess.Popen([sys.executable, str(REPO / "examples" / "catalog-server" / "server.py"),
                                   "--port", str(port), "--quiet"], stdout=subprocess.PIPE, text=True)
        assert server.stdout is not None and server.stdout.readline().startswith("listening on")
        app.send(F5)
        app.wait_for(lambda s: "20 shown" in app.screen.lines()[2] and "tries again" not in s, "Popular loaded after F5")
        app.send(SHIFT_TAB + "\r")   # Enter on failed results searches again (so would F5)
        app.wait_for(lambda s: line_with(s, "Dune", "1984") is not None and "tries again" not in s,
                     "the search answered after Enter")
        app.send(CTRL_Q)
        assert app.wait_exit() == 0
    finally:
        app.close()
        if server is not None:
            server.terminate()
            server.wait(timeout=10)
