"""The app's model: the one app store, the state it delivers, and what only the screen knows
(the help, the debug panel, a question waiting for its answer). Everything else (the tab,
the lists and the places in them, the open Details, the undo stack, the notices, saving and
resuming) is the app store's state: the terminal renders it and turns keys into intents."""

from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Optional, Tuple

import cinematic
from cinematic import wire, wording

from .common import TAB_IDS, Glyphs, movies_of

if TYPE_CHECKING:
    import curses

    from .debug import DebugPanel


class Model:
    """The app store, its latest state, and the screen's own few flags."""

    #: The debug panel (created by the app, which can draw it).
    debug: "DebugPanel"

    def __init__(self, stdscr: "curses.window", app: cinematic.AppStore, glyphs: Glyphs,
                 live_url: Optional[str] = None) -> None:
        self.screen = stdscr
        self.app = app
        self.runtime = app.runtime
        self.glyphs = glyphs
        self.live_url = live_url          # the movie API, with --live
        self.running = True
        self.dirty = True
        self.help = False
        self.esc_pending = False
        self.prompt = ""                  # the screen's own line: a question, a key's hint
        self.pending_removal: Optional[wire.Movie] = None   # asked to remove, waiting for "y"
        self.showing_past = False         # the debug panel's time travel shows an earlier state
        self.sort: Optional[str] = None   # how the rows are shown (F2); None: the app's order
        # Child handles, for the parts' own intents: Search's "search now", the shown heart.
        self.search = app.scope("search", cinematic.SearchStore)
        self.shown = app.scope("detail", cinematic.ShownDetailStore)
        self.state: wire.AppState = app.state
        app.subscribe(self._on_state)
        app.task()

    def _on_state(self, state: wire.AppState) -> None:
        self.state = state
        self.dirty = True

    # ------------------------------------------------------------------ reading the state

    @property
    def tab(self) -> int:
        return TAB_IDS.index(self.state["tab"])

    @property
    def query(self) -> str:
        return self.state["search"]["query"]

    def detail(self) -> Optional[wire.AppDetailState]:
        """The Detail shown over the tab (the last one opened), if any."""
        details = self.state["details"]
        return details[-1] if details else None

    def current_section(self) -> Optional[wire.DiscoverSection]:
        return next((s for s in self.state["discover"]["sections"] if s["section"] == self.state["section"]), None)

    def list_name(self) -> wire.AppList:
        """The list the tab shows: "search", "favorites" or the Discover section's id."""
        tab = self.state["tab"]
        return self.state["section"] if tab == "discover" else "favorites" if tab == "favorites" else "search"

    def current_list(self) -> List[wire.Movie]:
        tab = self.state["tab"]
        if tab == "search":
            return movies_of(self.state["search"]["results"])
        if tab == "favorites":
            favorites = self.state["favorites"]["favorites"]
            return favorites["value"] if favorites["phase"] == "loaded" else []
        section = self.current_section()
        return movies_of(section["movies"]) if section else []

    def position(self, name: Optional[str] = None) -> Tuple[int, int]:
        """(selection, first visible row) in a list (the tab's by default), from the state."""
        found = self.state["positions"].get(name or self.list_name())
        if isinstance(found, dict):
            return int(found.get("selection", 0)), int(found.get("firstVisible", 0))
        return 0, 0

    def results_are_current(self) -> bool:
        """True when the shown search results answer the query in the box."""
        results = self.state["search"]["results"]
        return results["phase"] == "loaded" and results["query"] == self.query.strip()

    def hint_lines(self, cols: int) -> List[str]:
        """The search's hint (what the catalog cannot answer: "Tom Hanks looks like a
        person…"), wrapped to at most 2 lines."""
        hint = self.state["search"]["hint"]
        return textwrap.wrap(self.text(hint["text"]), max(10, cols - 4))[:2] if hint else []

    def list_top(self) -> int:
        """The first row of the tab's list: Discover's starts a row higher; Search's moves
        down under its source note and its hint."""
        tab = self.state["tab"]
        if tab != "search":
            return 3 if tab == "discover" else 4
        _, cols = self.screen.getmaxyx()
        note = bool(wording.source_note(self.state["search"]["results"], self.live_url))
        return max(4, 3 + (1 if note else 0) + len(self.hint_lines(cols)))

    def list_height(self) -> int:
        """Rows of the tab's list on screen."""
        rows, _ = self.screen.getmaxyx()
        return max(1, rows - self.list_top() - 1)

    # ------------------------------------------------------------------ intents

    # ------------------------------------------------------------------ sorting (a way of looking)

    #: F2 cycles through these: the app's order, then by title, year, rating, votes.
    SORTS: Tuple[Optional[str], ...] = (None, "title", "year", "rating", "votes")

    def cycle_sort(self) -> None:
        """The next order (F2): title and year ascending, rating and votes highest first."""
        self.sort = self.SORTS[(self.SORTS.index(self.sort) + 1) % len(self.SORTS)]

    def shown_order(self, movies: List[wire.Movie]) -> List[int]:
        """Indices into ``movies`` (the app's order) in the order the rows are shown."""
        indices = list(range(len(movies)))
        if self.sort is None:
            return indices
        keys: Dict[str, Callable[[wire.Movie], Any]] = {
            "title": lambda m: m["title"].casefold(), "year": lambda m: m["year"] or 0,
            "rating": lambda m: -m["rating"], "votes": lambda m: -m["votes"]}
        key = keys[self.sort]
        return sorted(indices, key=lambda i: key(movies[i]))

    def move(self, delta: int) -> None:
        """Moves the selection ``delta`` shown rows. Down from the last row goes one past it:
        the app loads the next page and moves on to its first film (or stays, at the end).
        Positions sent to the app are indices in its order, whatever the rows are sorted by."""
        order = self.shown_order(self.current_list())
        last = len(order) - 1
        selection, _ = self.position()
        row = order.index(selection) if 0 <= selection < len(order) else min(selection, last)
        if delta > 0:
            self.move_to(last + 1 if row >= last else order[min(row + delta, last)])
        elif order:
            self.move_to(order[max(0, min(row, last) + delta)])

    def move_to(self, target: int) -> None:
        """Selects row ``target`` (the row after the last: the next page), scrolling the
        least that shows it."""
        if not self.current_list():
            return
        selection, first = self.position()
        height = self.list_height()
        first = min(first, target) if target < first else max(first, target - height + 1)
        if (target, first) != (selection, self.position()[1]):
            self.app.moved(self.list_name(), target, max(0, first))

    def selected_movie(self) -> Optional[wire.Movie]:
        movies = self.current_list()
        selection, _ = self.position()
        return movies[selection] if 0 <= selection < len(movies) else None

    def switch_tab(self, delta: int) -> None:
        self.app.tab_selected(TAB_IDS[(self.tab + delta) % len(TAB_IDS)])

    def text(self, value: str) -> str:
        """`value` as the terminal can show it: as is on UTF-8, else folded to ASCII
        ("Amélie" → "Amelie", anything else → "?")."""
        if self.glyphs.utf8:
            return value
        import unicodedata
        folded = unicodedata.normalize("NFKD", value).encode("ascii", "ignore").decode("ascii")
        return folded if len(folded) >= len(value) // 2 else value.encode("ascii", "replace").decode("ascii")

    # ------------------------------------------------------------------ debugging

    def debug_store(self) -> Optional[cinematic.Store[Any]]:
        """The store behind the screen: the app's (one store for every screen)."""
        return self.app

    def reverted(self, store: cinematic.Store[Any], entry: wire.HistoryEntry) -> None:
        """After a time-travel step (the app delivers that state like any other): an earlier
        state has no search coming (its debounce ran then), until a key sends something."""
        self.showing_past = self.debug.travel is not None and self.debug.travel.in_the_past
        self.dirty = True
