"""The terminal app (``--live``) in a pseudo-terminal over a live catalog
(examples/catalog-server) with the library's offline cache: it keeps showing what it saved when
the server goes away (search results, Discover lists, details), and never shows one server's
saved answers for another.

Waits are on conditions (the screen): no sleeps."""

from __future__ import annotations

from pathlib import Path

from catalog_server import CatalogServer, server  # noqa: F401
from test_terminal_app import TerminalApp, line_with

#: The source notes under the header (the view's words).
LIVE = "Live from the movie server"
OFFLINE = "Offline: showing saved results (the movie server does not answer)"


def test_terminal_app_keeps_showing_dune_when_the_server_goes_away(server: CatalogServer, tmp_path: Path) -> None:
    env = {"XDG_CACHE_HOME": str(tmp_path / "cache")}
    app = TerminalApp(tmp_path, args=["--live", server.url], extra_env=env)
    try:
        app.wait_for(lambda s: "Search:" in s, "the Search tab")
        app.send("dune")
        app.wait_for(lambda s: line_with(s, "Dune", "1984") is not None and app.screen.lines()[3].strip() == LIVE,
                     "Dune (1984), live from the server")
        server.stop()
        app.send("\x15alien\r")                       # Ctrl-U, a search never made before
        app.wait_for(lambda s: "Search failed: network" in s and line_with(s, "Dune", "1984") is None
                     and OFFLINE not in s, "the failure of a search nobody saved")
        finds_dune_offline(app, "\x15dune\r")
    finally:
        app.close()

    # A fresh start with the server still down: what was shown before is still there.
    app = TerminalApp(tmp_path, args=["--live", server.url], extra_env=env)
    try:
        app.wait_for(lambda s: "Search:" in s, "the Search tab")
        finds_dune_offline(app, "dune")
    finally:
        app.close()


def finds_dune_offline(app: TerminalApp, keys: str) -> None:
    """Types ``keys``, expects Dune (1984) from the offline cache, then quits."""
    app.send(keys)
    app.wait_for(lambda s: line_with(s, "Dune", "1984") is not None and app.screen.lines()[3].strip() == OFFLINE,
                 "Dune from the offline cache")
    app.send("\x11")
    assert app.wait_exit() == 0


def test_terminal_app_shows_saved_discover_lists_and_details_when_the_server_goes_away(server: CatalogServer,
                                                                                        tmp_path: Path) -> None:
    """A detail and the Discover lists seen live stay readable offline, each with the
    offline note."""
    env = {"XDG_CACHE_HOME": str(tmp_path / "cache")}
    app = TerminalApp(tmp_path, args=["--live", server.url], extra_env=env)
    try:
        app.wait_for(lambda s: "Search:" in s, "the Search tab")
        app.send("dune")
        app.wait_for(lambda s: line_with(s, "Dune", "1984") is not None and LIVE in s, "Dune, live")
        app.send("\r")                                   # opens the first result's detail
        app.wait_for(lambda s: "Dune (1984)" in s and "190 min" in s and app.screen.lines()[3].strip() == LIVE,
                     "Dune's detail, live")
        app.send("\x1b")                                 # back to the results
        app.wait_for(lambda s: "Search:" in s and LIVE in s, "the results again")
        app.send("\t")                                   # Discover
        app.wait_for(lambda s: app.screen.lines()[2].startswith(" Discover: Popular") and "20 shown, more match" in s
                     and app.screen.lines()[3].strip() == LIVE, "Discover's popular list, live")
        server.stop()

        app.send("\x1b[Z")                               # Shift-Tab: back to Search (results as shown)
        app.send("\x15dune\r")
        app.wait_for(lambda s: line_with(s, "Dune", "1984") is not None and app.screen.lines()[3].strip() == OFFLINE,
                     "Dune from the offline cache")
        app.send("\r")
        app.wait_for(lambda s: "190 min" in s and app.screen.lines()[3].strip() == OFFLINE, "Dune's saved detail, marked offline")
    finally:
        app.close()

    # A fresh start with the server still down: Discover shows the saved first pages.
    app = TerminalApp(tmp_path, args=["--live", server.url], extra_env=env)
    try:
        app.wait_for(lambda s: "Search:" in s, "the Search tab")
        app.send("\t")
        app.wait_for(lambda s: app.screen.lines()[2].startswith(" Discover: Popular") and "20 shown, more match" in s
                     and app.screen.lines()[3].strip() == OFFLINE, "Discover's popular list from the offline cache")
        app.send("\x11")
        assert app.wait_exit() == 0
    finally:
        app.close()


def test_terminal_app_shows_no_saved_results_of_another_server(server: CatalogServer, tmp_path: Path) -> None:
    """The terminal app with the default cache: --live URL saves under URL; another URL (the
    first server gone, a second one down) shows no saved results, the first URL does."""
    env = {"XDG_CACHE_HOME": str(tmp_path / "cache")}
    app = TerminalApp(tmp_path, args=["--live", server.url], extra_env=env)
    try:
        app.wait_for(lambda s: "Search:" in s, "the Search tab")
        app.send("dune")
        app.wait_for(lambda s: line_with(s, "Dune", "1984") is not None and LIVE in s, "Dune, live")
        app.send("\x11")
        assert app.wait_exit() == 0
    finally:
        app.close()
    other = CatalogServer()
    other_url = other.url
    other.stop()
    server.stop()
    app = TerminalApp(tmp_path, args=["--live", other_url], extra_env=env)
    try:
        app.wait_for(lambda s: "Search:" in s, "the Search tab")
        app.send("dune")
        screen = app.wait_for(lambda s: "Search failed: network" in s, "the failure: nothing saved from this server")
        assert OFFLINE not in screen and line_with(screen, "Dune", "1984") is None
        app.send("\x11")
        assert app.wait_exit() == 0
    finally:
        app.close()
    app = TerminalApp(tmp_path, args=["--live", server.url], extra_env=env)
    try:
        app.wait_for(lambda s: "Search:" in s, "the Search tab")
        finds_dune_offline(app, "dune")
    finally:
        app.close()
