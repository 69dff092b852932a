"""Issue 31's scenario in the terminal app, in a pty: search "alien", open the third result,
heart it, go to Favorites, remove it, undo, open Discover's Comedy and scroll to page 3,
SIGKILL, restart: the same tab, positions, detail stack and favorites. Then once more with a
Detail open over Comedy's page 3.

The app runs as a person runs it (system clock, embedded catalog, favorites and state file in
a temp directory). The library saves the state file after a second of quiet: each kill waits,
bounded, until the file holds the step; each restart is compared on screen and, after a
clean exit, with what the file held before the kill."""

from __future__ import annotations

from typing import Any, Dict, List

from test_terminal_app import STAR, TerminalApp, line_with
from terminal_resume import Doc, Resumable, read_data, search_results, section_movies

DOWN, RIGHT, ESC, SHIFT_TAB, CTRL_Q = "\x1bOB", "\x1bOC", "\x1b", "\x1b[Z", "\x11"
DELETE, CTRL_Z = "\x1b[3~", "\x1a"


def favorites_line(app: TerminalApp, movie: Dict[str, Any]) -> bool:
    return line_with(app.screen.text(), movie["title"][:30], str(movie["year"])) is not None


def comedy_at(app: TerminalApp, data: Doc, comedy: List[Dict[str, Any]]) -> bool:
    """Discover shows Comedy's three pages, its selected film on its row (the first visible
    row as saved at the list's top)."""
    place = data["positions"]["comedy"]
    row = 4 + place["selection"] - place["firstVisible"]
    lines = app.screen.lines()
    return (lines[2].startswith(" Discover: Comedy") and lines[2].endswith("60 shown, more match")
            and comedy[place["firstVisible"]]["title"][:20] in lines[4]
            and lines[row].startswith("▶", 14) and comedy[place["selection"]]["title"][:20] in lines[row])


def restart_and_compare(session: Resumable, saved: Doc, shown: Any, what: str) -> TerminalApp:
    """Starts the app again; waits for ``shown(app)``; quits cleanly: the library saves the
    restored app, which must be what it saved before the kill."""
    app = session.start()
    app.wait_for(lambda s: shown(app), what)
    app.send(CTRL_Q)
    assert app.wait_exit() == 0
    assert read_data(session.state) == saved
    return session.start()


def test_the_issue_scenario_survives_sigkill(tmp_path):
    alien = search_results("alien", 1)[2]
    comedy = section_movies("comedy", 3)
    session = Resumable(tmp_path)
    try:
        app = session.start()
        app.wait_for(lambda s: "Search: _" in s, "the Search tab")
        app.send("alien")
        app.wait_for(lambda s: line_with(s, alien["title"][:30], str(alien["year"])) is not None, "results for alien")
        app.send(DOWN * 2 + "\r")   # the third result
        app.wait_for(lambda s: f"{alien['title']} ({alien['year']})"[:40] in s and "Budget" in s, "its Detail")
        app.send("f")
        app.wait_for(lambda s: f"{STAR} In your favorites" in s, "hearted")
        app.send(SHIFT_TAB)          # Search -> Favorites (the Detail closes)
        app.wait_for(lambda s: app.screen.lines()[2].endswith("1 favorite") and favorites_line(app, alien),
                     "it in Favorites")
        app.send(DELETE)             # removed at once (undo puts it back)
        app.wait_for(lambda s: "No favorites yet" in s and f"Removed {alien['title']}" in s, "removed")
        app.send(CTRL_Z)
        app.wait_for(lambda s: app.screen.lines()[2].endswith("1 favorite") and favorites_line(app, alien)
                     and f"Restored {alien['title']}" in s, "undone")
        app.send(SHIFT_TAB + RIGHT * 4)   # Favorites -> Discover, four sections on: Comedy
        app.wait_for(lambda s: app.screen.lines()[2].startswith(" Discover: Comedy")
                     and app.screen.lines()[2].endswith("20 shown, more match"), "Comedy")
        for pages in (2, 3):         # Down from the last row: the next page (and its first film)
            app.send(DOWN * 20)
            app.wait_for(lambda s: app.screen.lines()[2].endswith(f"{20 * pages} shown, more match"),
                         f"Comedy's page {pages}")
        saved = session.wait_saved(lambda d: d["tab"] == "discover" and d["section"] == "comedy"
                                   and {"section": "comedy", "pagesLoaded": 3} in d["sections"]
                                   and d["positions"].get("comedy", {}).get("selection") == 40, "Comedy's page 3")
        assert saved["details"] == [] and saved["removed"] == [] and saved["query"] == "alien"
        assert saved["positions"]["search"]["selection"] == 2
        session.kill()

        app = restart_and_compare(session, saved, lambda app: comedy_at(app, saved, comedy),
                                  "Comedy's page 3 restored")
        app.wait_for(lambda s: comedy_at(app, saved, comedy), "Comedy's page 3 again")
        app.send("\r")               # a Detail over Discover: the stack is saved too
        film = comedy[40]
        app.wait_for(lambda s: f"{film['title']} ({film['year']})"[:40] in s and "Budget" in s, "the Detail of the 41st")
        with_detail = session.wait_saved(lambda d: [x["movieId"] for x in d["details"]] == [film["id"]], "the Detail")
        session.kill()

        app = restart_and_compare(session, with_detail, lambda app: "Budget" in app.screen.text()
                                  and f"{film['title']} ({film['year']})"[:40] in app.screen.text(),
                                  "the Detail restored over Discover")
        app.wait_for(lambda s: "Budget" in s, "the Detail again")
        app.send(ESC)                # back: Discover, Comedy, the same place
        app.wait_for(lambda s: comedy_at(app, with_detail, comedy), "Comedy's page 3 behind the Detail")
        app.send("\t")               # Favorites: the hearted film, after two kills
        app.wait_for(lambda s: app.screen.lines()[2].endswith("1 favorite") and favorites_line(app, alien),
                     "the favorite, after two kills")
        app.send(CTRL_Q)
        assert app.wait_exit() == 0
    finally:
        session.close()
