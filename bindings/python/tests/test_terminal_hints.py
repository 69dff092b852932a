"""The terminal app's smaller hints (issue 25, "Smaller"), in a pseudo-terminal as in
test_terminal_app.py: what "? help" does with a query typed, how many films a paged list
shows, and that a failed search or section says which key tries again (and that key does)."""

from __future__ import annotations

import socket
import subprocess
import sys

import pytest

from conftest import REPO
from test_terminal_app import TerminalApp, line_with

CTRL_Q, CTRL_U, SHIFT_TAB = "\x11", "\x15", "\x1b[Z"
DOWN, END = "\x1bOB", "\x1bOF"   # xterm in keypad mode (curses turns it on)


@pytest.fixture
def app(tmp_path):
    terminal = TerminalApp(tmp_path)
    yield terminal
    terminal.close()


def footer(app: TerminalApp) -> str:
    return app.screen.lines()[-1]


def test_question_mark_types_into_a_query_and_the_hint_says_help_needs_an_empty_box(app):
    app.wait_for(lambda s: "Search:" in s and "? help  " in footer(app), "the Search tab and its hint")
    assert "when empty" not in footer(app)
    app.send("dune")
    # With text in the box, "?" is a character of the query, and the hint says so.
    app.wait_for(lambda s: "dune_" in s and "? help when empty" in footer(app), "the query typed, the hint")
    app.send("?")
    app.wait_for(lambda s: "dune?_" in s, "? typed into the query")
    assert "Keys" not in app.screen.lines()[3], app.screen.text()
    app.send(CTRL_U)
    app.wait_for(lambda s: "Search: _" in s and "when empty" not in footer(app), "the box empty, the plain hint")
    app.send("?")
    app.wait_for(lambda s: "this help" in s and "when the query is empty" in s, "the help")
    app.send("x")   # any key closes the help (and is not typed)
    app.wait_for(lambda s: "Search: _" in s and "this help" not in s, "the help closed")
    app.send(CTRL_Q)
    assert app.wait_exit() == 0


def test_a_paged_list_says_how_many_are_shown_and_that_more_are_available(app):
    app.wait_for(lambda s: "Search:" in s, "the Search tab")
    app.send("love")
    app.wait_for(lambda s: "20 shown, more available" in app.screen.lines()[2], "the first page of love")
    app.send(END + DOWN)   # Down at the end loads the next page
    app.wait_for(lambda s: "40 shown, more available" in app.screen.lines()[2], "two pages of love")
    assert " 40 movies" not in app.screen.text()
    # A search whose every result is loaded says how many there are.
    app.send(CTRL_U + "godfather part iii")
    # The status line is drawn apart from the rest: wait until the previous search's is gone too.
    line = app.wait_for(lambda s: line_with(s, "Search:", " movie") is not None and "more available" not in app.screen.lines()[2],
                        "an exhausted search")
    assert "more available" not in app.screen.lines()[2], line
    # Discover's sections say the same.
    app.send("\t")
    app.wait_for(lambda s: "Popular: 20 shown, more available" in s, "the first page of Popular")
    app.send("m")
    app.wait_for(lambda s: "Popular: 40 shown, more available" in s, "two pages of Popular")
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
        app.wait_for(lambda s: "Search failed: network" in s and line_with(s, "Enter tries again") is not None,
                     "the search failing, with its hint")
        app.send("\t")
        app.wait_for(lambda s: "Could not load Popular: network" in s and line_with(s, "r tries again") is not None,
                     "Discover failing, with its hint")
        # The server comes up: each key does what its hint says.
        server = subprocess.Popen([sys.executable, str(REPO / "examples" / "catalog-server" / "server.py"),
                                   "--port", str(port), "--quiet"], stdout=subprocess.PIPE, text=True)
        assert server.stdout is not None and server.stdout.readline().startswith("listening on")
        app.send("r")
        app.wait_for(lambda s: "Popular: 20 shown" in s and "tries again" not in s, "Popular loaded after r")
        app.send(SHIFT_TAB + "\r")
        app.wait_for(lambda s: line_with(s, "Dune", "1984") is not None and "tries again" not in s,
                     "the search answered after Enter")
        app.send(CTRL_Q)
        assert app.wait_exit() == 0
    finally:
        app.close()
        if server is not None:
            server.terminate()
            server.wait(timeout=10)
