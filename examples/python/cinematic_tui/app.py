"""A terminal movie app over libcinematic: Search, Discover, Favorites and a Detail view.

The runtime uses queued delivery: its file descriptor sits in the app's ``select`` loop next
to stdin (and a wake-up pipe for SIGWINCH, SIGTERM and SIGHUP), and ``runtime.dispatch()``
runs the state callbacks on this thread. No threads, no polling sleeps: the loop blocks until
a key, a state, a resize or a stop signal arrives. Every way out closes the runtime.

Keys (also on the status line):
    Tab / Shift-Tab / Left / Right   switch tabs
    Up / Down, PgUp / PgDn, Home / End   move the selection
    Enter                            search now (Search), open the selected movie's detail
    f                                toggle favorite (Detail)
    d / Delete, u                    remove the selected favorite, undo the removal (Favorites)
    [ / ]                            previous / next Discover section; m loads more
    r                                refresh Discover
    Esc / Backspace / q              back from Detail
    ?                                help (any key closes it)
    Ctrl-D or F12                    debug panel: the store's last intents; in it [ / ] (or
                                     Up / Down) step back / forward through its history,
                                     Home / End go to the oldest / latest, Esc closes it
                                     (keeping the state shown)
    Ctrl-Q, or Esc then q            quit (q alone quits outside the Search tab)
    typing                           edits the query (Search); Backspace deletes, Ctrl-U clears

Options: ``--favorites PATH``, ``--catalog PATH``, ``--record FILE`` (records the session to
FILE, complete when the app exits; replay it with ``python -m cinematic.replay FILE``). The
runtime keeps the last ``HISTORY`` intents of each store for the debug panel.
``--live URL`` takes the catalog from a movie API (``examples/catalog-server``) through
``cinematic.http_provider`` instead of the embedded catalog. Lists and details then say where
they came from ("live from ...", or "offline, showing saved results from HH:MM" when the
server cannot be reached and the library's offline cache had the answer).
"""

from __future__ import annotations

import curses
import locale
import os
import select
import signal
import sys
import time
from pathlib import Path
from typing import Any, Callable, Dict, List, Mapping, Optional, cast

import cinematic
from cinematic import wire

from .debug import FOOTER_KEYS, HISTORY, TOGGLE_KEYS, DebugPanel, is_toggle

TABS = ("Search", "Discover", "Favorites")
MIN_COLS, MIN_ROWS = 60, 18
CTRL_Q, CTRL_C, CTRL_U, ESC = 17, 3, 21, 27


def favorites_path() -> Path:
    """$XDG_DATA_HOME/cinematic/favorites.sqlite, else ~/.local/share/cinematic/."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "cinematic" / "favorites.sqlite"


class Glyphs:
    """Characters for the terminal's encoding (UTF-8 or plain ASCII)."""

    def __init__(self, utf8: bool) -> None:
        self.utf8 = utf8
        self.star = "★" if utf8 else "*"
        self.hollow = "☆" if utf8 else "o"
        self.bar = "█" if utf8 else "#"
        self.half = "▌" if utf8 else "|"
        self.ellipsis = "…" if utf8 else "..."
        self.line = "─" if utf8 else "-"
        self.dot = "·" if utf8 else "|"


def phase_of(value: Optional[Mapping[str, object]]) -> str:
    phase = value.get("phase", "idle") if value is not None else "idle"
    return phase if isinstance(phase, str) else "idle"


def movies_of(value: Optional[wire.MoviesPhase]) -> List[wire.Movie]:
    """The movies of a loaded phase (the schema's moviesPhase), else none."""
    if value is not None and value["phase"] == "loaded":
        return value["value"]
    return []


def money(amount: Optional[int]) -> str:
    return "unknown" if amount is None else f"${amount:,}"


class ListCursor:
    """A selection and scroll offset over a list of some length."""

    def __init__(self) -> None:
        self.index = 0
        self.offset = 0

    def clamp(self, length: int, height: int) -> None:
        self.index = max(0, min(self.index, length - 1)) if length else 0
        height = max(1, height)
        if self.index < self.offset:
            self.offset = self.index
        elif self.index >= self.offset + height:
            self.offset = self.index - height + 1
        self.offset = max(0, min(self.offset, max(0, length - height)))

    def move(self, delta: int, length: int) -> None:
        if length:
            self.index = max(0, min(length - 1, self.index + delta))


class App:
    """The app's model, key handling and drawing (one curses screen)."""

    def __init__(self, stdscr: "curses.window", runtime: cinematic.Runtime, glyphs: Glyphs,
                 live_url: Optional[str] = None) -> None:
        self.screen = stdscr
        self.runtime = runtime
        self.glyphs = glyphs
        self.live_url = live_url          # the movie API, with --live
        self.running = True
        self.dirty = True
        self.tab = 0
        self.esc_pending = False
        self.notice = ""
        self.query = ""                   # what the user typed (the store has it too)
        self.results_query: Optional[str] = None  # the query the shown results belong to
        self.unavailable: Dict[str, str] = {}

        # States as the schema types them (generated TypedDicts, cinematic.wire).
        self.search_state: Optional[wire.SearchState] = None
        self.discover_state: Optional[wire.DiscoverState] = None
        self.favorites_state: Optional[wire.FavoritesState] = None
        self.detail_state: Optional[wire.DetailState] = None
        self.detail_movie: Optional[wire.Movie] = None  # the row Detail was opened from
        self.detail: Optional[cinematic.DetailStore] = None
        self.help = False
        self.undo_movie: Optional[wire.Movie] = None          # the last favorite removed
        self.restoring: Optional[cinematic.DetailStore] = None  # re-adding it (undo)
        self.discover_started = False
        self.section = 0
        self.cursors: Dict[str, ListCursor] = {}
        self.debug = DebugPanel(self)

        self.search = runtime.search()
        self.search.subscribe(self._on_search)
        self.discover = self._open(runtime.discover, "discover", self._on_discover)
        self.favorites = self._open(runtime.favorites, "favorites", self._on_favorites)
        if self.favorites is not None:
            self.favorites.task()

    def _open(self, opener: Callable[[], Any], name: str, on_state: Callable[[Dict[str, Any]], None]) -> Any:
        try:
            store = opener()
        except cinematic.UnknownFeatureError as error:
            self.unavailable[name] = f"{name} is not available in this library build ({error.message})"
            return None
        store.subscribe(on_state)
        return store

    def cursor(self, key: str) -> ListCursor:
        return self.cursors.setdefault(key, ListCursor())

    # ------------------------------------------------------------------ states

    # The binding hands states out as parsed JSON; the schema says what they hold.

    def _on_search(self, raw: cinematic.State) -> None:
        state = self.search_state = cast(wire.SearchState, raw)
        if phase_of(state["results"]) in ("loaded", "failed"):
            self.results_query = state["query"]
        elif phase_of(state["results"]) == "idle":
            self.results_query = None
        self.dirty = True

    def _on_discover(self, raw: cinematic.State) -> None:
        self.discover_state = cast(wire.DiscoverState, raw)
        self.dirty = True

    def _on_favorites(self, raw: cinematic.State) -> None:
        self.favorites_state = cast(wire.FavoritesState, raw)
        self.dirty = True

    def _on_detail(self, raw: cinematic.State) -> None:
        self.detail_state = cast(wire.DetailState, raw)
        self.dirty = True

    # ------------------------------------------------------------------ actions

    def switch_tab(self, delta: int) -> None:
        self.close_detail()
        self.tab = (self.tab + delta) % len(TABS)
        if TABS[self.tab] == "Discover" and self.discover is not None and not self.discover_started:
            self.discover.task()
            self.discover_started = True
        self.dirty = True

    def open_detail(self, movie: wire.Movie) -> None:
        self.close_detail()
        try:
            self.detail = self.runtime.detail(int(movie["id"]))
        except cinematic.UnknownFeatureError as error:
            self.notice = f"detail is not available in this library build ({error.message})"
            return
        self.detail_movie = movie
        self.detail_state = {"movieId": movie["id"], "detail": {"phase": "loading"}, "isFavorite": False,
                             "isSaving": False, "favoriteError": None}
        self.detail.subscribe(self._on_detail)
        self.detail.task()
        self.dirty = True

    def restore(self, movie: wire.Movie) -> None:
        """Undo of a removal: a Detail store of the movie toggles it back once loaded."""
        if self.restoring is not None:
            self.restoring.close()
        try:
            store = self.runtime.detail(int(movie["id"]))
        except cinematic.CinematicError as error:
            self.notice = f"cannot undo: {error.message}"
            return
        self.restoring = store
        self.notice = f"Restoring {self.text(movie['title'])}{self.glyphs.ellipsis}"

        def on_state(raw: cinematic.State) -> None:
            state = cast(wire.DetailState, raw)
            if store is not self.restoring or state["isSaving"]:
                return
            if state["detail"]["phase"] == "loaded" and not state["isFavorite"] and state["favoriteError"] is None:
                store.toggle_favorite()
            elif state["isFavorite"] or state["favoriteError"] is not None or state["detail"]["phase"] == "failed":
                self.notice = "Restored" if state["isFavorite"] else "Could not restore the favorite"
                store.close()
                self.restoring = None
                self.dirty = True

        store.subscribe(on_state)
        store.task()

    def close_detail(self) -> None:
        if self.detail is not None:
            self.detail.close()
            self.detail = None
            self.detail_state = None
            self.detail_movie = None
            self.dirty = True

    def set_query(self, query: str) -> None:
        self.query = query
        self.search.query_changed(query)
        self.cursor("search").index = 0
        self.dirty = True

    def current_list(self) -> List[wire.Movie]:
        name = TABS[self.tab]
        if name == "Search":
            return movies_of(self.search_state["results"]) if self.search_state else []
        if name == "Favorites":
            return movies_of(self.favorites_state["favorites"]) if self.favorites_state else []
        section = self.current_section()
        return movies_of(section["movies"]) if section else []

    def current_cursor(self) -> ListCursor:
        name = TABS[self.tab]
        if name == "Discover":
            section = self.current_section()
            return self.cursor("discover:" + (section["section"] if section else ""))
        return self.cursor(name.lower())

    def current_section(self) -> Optional[wire.DiscoverSection]:
        sections = self.discover_state["sections"] if self.discover_state else []
        if not sections:
            return None
        self.section = max(0, min(self.section, len(sections) - 1))
        return sections[self.section]

    # ------------------------------------------------------------------ debugging

    def debug_store(self) -> Optional[cinematic.Store]:
        """The store behind the screen: Detail's when open, else the current tab's."""
        if self.detail is not None:
            return self.detail
        stores: Dict[str, Optional[cinematic.Store]] = {
            "Search": self.search, "Discover": self.discover, "Favorites": self.favorites}
        return stores[TABS[self.tab]]

    def reverted(self, store: cinematic.Store, entry: wire.HistoryEntry) -> None:
        """After a time-travel step: the search field shows the query of that state (the
        store delivers the state itself to the subscribers)."""
        query = entry["state"].get("query")
        if store is self.search and isinstance(query, str):
            self.query = query
        self.dirty = True

    # ------------------------------------------------------------------ keys

    def results_are_current(self) -> bool:
        """True when the shown search results answer the query as typed now."""
        state = self.search_state
        if state is None:
            return False
        results = state["results"]
        return results["phase"] == "loaded" and results["query"] == self.query.strip()

    def handle_key(self, key: Any) -> None:
        self.dirty = True
        self.notice = ""
        code = key if isinstance(key, int) else ord(key) if len(key) == 1 else -1
        if code in (CTRL_Q, CTRL_C):
            self.running = False
            return
        if self.help:
            self.help = False  # any key closes the help
            return
        if is_toggle(key, code):
            self.esc_pending = False
            self.debug.toggle()
            return
        if self.debug.open:
            self.debug.key(key, code)
            return
        if key == "?" and (self.detail is not None or TABS[self.tab] == "Search" and not self.query):
            self.help = True
            return
        if key == curses.KEY_RESIZE:
            return
        if self.esc_pending:
            self.esc_pending = False
            if key in ("q", "Q"):
                self.running = False
                return
        if self.detail is not None:
            self.detail_key(key, code)
            return
        if key == curses.KEY_DOWN and TABS[self.tab] == "Search":
            state = self.search_state
            movies_now = self.current_list()
            if state is not None and movies_now and self.current_cursor().index >= len(movies_now) - 1 \
                    and not state["isExhausted"] and not state["isLoadingMore"] and self.results_are_current():
                self.search.load_more()
        if key in ("\t",) or code == 9:
            self.switch_tab(1)
            return
        if key == curses.KEY_BTAB:
            self.switch_tab(-1)
            return
        if key == curses.KEY_RIGHT:
            self.switch_tab(1)
            return
        if key == curses.KEY_LEFT:
            self.switch_tab(-1)
            return
        movies = self.current_list()
        cursor = self.current_cursor()
        page = max(1, self.list_height() - 1)
        moves = {curses.KEY_UP: -1, curses.KEY_DOWN: 1, curses.KEY_PPAGE: -page, curses.KEY_NPAGE: page,
                 curses.KEY_HOME: -len(movies), curses.KEY_END: len(movies)}
        if key in moves:
            if (key in (curses.KEY_DOWN, curses.KEY_NPAGE, curses.KEY_END) and TABS[self.tab] == "Discover"
                    and movies and cursor.index >= len(movies) - 1):
                self.load_more()
            cursor.move(moves[key], len(movies))
            return
        if key in ("\n", "\r") or code in (10, 13) or key == curses.KEY_ENTER:
            if TABS[self.tab] == "Search" and not self.results_are_current():
                # The shown results answer an older query: search this one now instead of
                # opening a film the user did not search for.
                if len(self.query.strip()) >= 2:
                    self.search.submit()
                    self.notice = f"searching{self.glyphs.ellipsis}"
                return
            if movies:
                self.open_detail(movies[min(cursor.index, len(movies) - 1)])
            return
        if key == "?" and TABS[self.tab] != "Search":
            self.help = True
            return
        if code == ESC:
            self.esc_pending = True
            self.notice = "Esc: press q to quit"
            return
        name = TABS[self.tab]
        if name == "Search":
            self.search_key(key, code)
        elif key in ("q", "Q"):
            self.running = False
        elif name == "Discover":
            self.discover_key(key)
        elif name == "Favorites":
            if (key in ("d", "D") or key == curses.KEY_DC) and movies and self.favorites is not None:
                removed = movies[min(cursor.index, len(movies) - 1)]
                self.favorites.remove(int(removed["id"]))
                self.undo_movie = removed
                self.notice = f"Removed {self.text(removed['title'])}: press u to undo"
            elif key in ("u", "U") and self.undo_movie is not None:
                self.restore(self.undo_movie)
                self.undo_movie = None

    def search_key(self, key: Any, code: int) -> None:
        if key in (curses.KEY_BACKSPACE, "\b", "\x7f") or code in (8, 127):
            if self.query:
                self.set_query(self.query[:-1])
        elif code == CTRL_U:
            self.set_query("")
        elif isinstance(key, str) and key.isprintable() and len(key) == 1:
            self.set_query(self.query + key)

    def discover_key(self, key: Any) -> None:
        sections = self.discover_state["sections"] if self.discover_state else []
        if key == "]" and sections:
            self.section = (self.section + 1) % len(sections)
        elif key == "[" and sections:
            self.section = (self.section - 1) % len(sections)
        elif isinstance(key, str) and key.isdigit() and key != "0" and int(key) <= len(sections):
            self.section = int(key) - 1
        elif key in ("m", "M"):
            self.load_more()
        elif key in ("r", "R") and self.discover is not None:
            self.discover.refresh()

    def load_more(self) -> None:
        section = self.current_section()
        if self.discover is not None and section and not section["isExhausted"] \
                and not section["isLoadingMore"] and phase_of(section["movies"]) == "loaded":
            self.discover.load_more(section["section"])

    def detail_key(self, key: Any, code: int) -> None:
        assert self.detail is not None
        if code == ESC or key in (curses.KEY_BACKSPACE, "\b", "\x7f", "q", "Q") or code in (8, 127) or key == curses.KEY_LEFT:
            self.close_detail()
        elif key in ("f", "F"):
            if self.detail_state is not None and phase_of(self.detail_state["detail"]) == "loaded":
                self.detail.toggle_favorite()
            else:
                self.notice = "wait for the detail to load"
        elif key == "\t" or code == 9:
            self.switch_tab(1)
        elif key == curses.KEY_BTAB:
            self.switch_tab(-1)

    # ------------------------------------------------------------------ drawing

    def list_height(self) -> int:
        rows, _ = self.screen.getmaxyx()
        return max(1, rows - 5)

    def text(self, value: str) -> str:
        """`value` as the terminal can show it: as is on UTF-8, else folded to ASCII
        ("Amélie" → "Amelie", anything else → "?")."""
        if self.glyphs.utf8:
            return value
        import unicodedata
        folded = unicodedata.normalize("NFKD", value).encode("ascii", "ignore").decode("ascii")
        return folded if len(folded) >= len(value) // 2 else value.encode("ascii", "replace").decode("ascii")

    def put(self, y: int, x: int, text: str, attr: int = 0) -> None:
        rows, cols = self.screen.getmaxyx()
        if y < 0 or y >= rows or x >= cols:
            return
        text = self.text(text)[: max(0, cols - x - (1 if y == rows - 1 else 0))]
        try:
            self.screen.addstr(y, x, text, attr)
        except curses.error:
            pass

    def render(self) -> None:
        self.dirty = False
        screen = self.screen
        screen.erase()
        rows, cols = screen.getmaxyx()
        if rows < MIN_ROWS or cols < MIN_COLS:
            lines = ["Terminal too small", f"{cols}x{rows}; need at least {MIN_COLS}x{MIN_ROWS}",
                     "Resize it, or press Ctrl-Q to quit"]
            for i, line in enumerate(lines):
                self.put(max(0, rows // 2 - 1) + i, max(0, (cols - len(line)) // 2), line[:cols], curses.A_BOLD)
            screen.refresh()
            return
        self.draw_tabs(cols)
        if self.help:
            self.draw_help(rows, cols)
        elif self.debug.open:
            # The view keeps the upper half (drawn as on a screen that ends there).
            self.draw_view(self.debug.top(rows) + 1, cols)
            self.debug.draw(rows, cols)
        else:
            self.draw_view(rows, cols)
        self.draw_status(rows, cols)
        screen.refresh()

    def draw_view(self, rows: int, cols: int) -> None:
        """Detail, or the current tab, on the screen's first ``rows`` rows."""
        if self.detail is not None and self.detail_state is not None:
            self.draw_detail(rows, cols)
        elif TABS[self.tab] == "Search":
            self.draw_search(rows, cols)
        elif TABS[self.tab] == "Discover":
            self.draw_discover(rows, cols)
        else:
            self.draw_favorites(rows, cols)

    def draw_tabs(self, cols: int) -> None:
        x = 1
        self.put(0, x, "Cinematic", curses.A_BOLD)
        x += 11
        for i, name in enumerate(TABS):
            label = f" {name} "
            if name == "Favorites":
                count = len(movies_of(self.favorites_state["favorites"])) if self.favorites_state else 0
                label = f" {name} ({count}) "
            self.put(0, x, label, curses.A_REVERSE | curses.A_BOLD if i == self.tab else 0)
            x += len(label) + 1
        self.put(1, 0, self.glyphs.line * cols)

    def draw_status(self, rows: int, cols: int) -> None:
        """The footer lists the keys of the screen; a notice shows on the line above it."""
        if self.debug.open:
            keys = FOOTER_KEYS
        elif self.detail is not None:
            keys = "f favorite  q/Esc back  Tab tabs  ? help  Ctrl-Q quit"
        elif TABS[self.tab] == "Search":
            keys = "Type  Enter search/open  Up/Dn move  Tab tabs  ? help  Ctrl-Q quit"
        elif TABS[self.tab] == "Discover":
            keys = "[ ] section  m more  r refresh  Enter open  Tab tabs  ? help  q quit"
        else:
            keys = "Enter open  d remove  u undo  Tab tabs  ? help  q quit"
        if self.notice:
            self.put(rows - 2, 0, self.notice.ljust(cols), curses.A_BOLD)
        self.put(rows - 1, 0, keys.ljust(cols), curses.A_REVERSE)

    def draw_help(self, rows: int, cols: int) -> None:
        lines = [
            "Keys", "",
            "Tab, Shift-Tab, Left, Right   switch tabs (Search, Discover, Favorites)",
            "Up, Down, PgUp, PgDn, Home, End   move; Down at the end loads more",
            "Enter                          Search: search now, or open the selected film",
            "                               elsewhere: open the selected film",
            "typing, Backspace, Ctrl-U      edit the query (Search)",
            "[ ]  1-9  m  r                 Discover: section, more, refresh",
            "d or Delete, u                 Favorites: remove, undo the removal",
            "f                              Detail: toggle the favorite",
            "q, Esc, Backspace              Detail: back",
            "?                              this help (any key closes it)",
            f"{TOGGLE_KEYS + '  ':<31}debug panel: intents, [ ] step through them",
            "Ctrl-Q, or Esc then q          quit",
        ]
        for i, line in enumerate(lines):
            self.put(3 + i, 2, line, curses.A_BOLD if i == 0 else 0)

    def movie_row(self, movie: wire.Movie, cols: int) -> str:
        year = str(movie["year"] or "")
        rating = movie["rating"]
        minutes = movie["runtime"]
        genre_width = 20 if cols >= 76 else 12
        genres = self.clip(", ".join(movie["genres"]), genre_width)
        right = f"{year:>4}  {rating:4.1f}{self.glyphs.star}  {minutes:>3}m  {genres}"
        title_width = max(10, cols - 2 - 22 - genre_width)
        title = self.clip(movie["title"], title_width)
        return f" {title:<{title_width}} {right}"

    def clip(self, text: str, width: int) -> str:
        """``text`` cut to ``width`` characters, with an ellipsis when cut."""
        if len(text) <= width:
            return text
        return text[: max(0, width - len(self.glyphs.ellipsis))] + self.glyphs.ellipsis

    def draw_movies(self, top: int, height: int, cols: int, movies: List[wire.Movie], cursor: ListCursor,
                    x: int = 0) -> None:
        cursor.clamp(len(movies), height)
        width = cols - x
        for row in range(height):
            i = cursor.offset + row
            if i >= len(movies):
                break
            line = self.movie_row(movies[i], width).ljust(width)
            self.put(top + row, x, line, curses.A_REVERSE if i == cursor.index else 0)

    def source_note(self, phase: Mapping[str, object]) -> str:
        """Where a loaded value came from, for a live catalog: "live from URL", or the
        offline note with the time the copy was saved; "" for the embedded catalog."""
        source = phase.get("source") if phase_of(phase) == "loaded" else None
        if source == "cache":
            saved = time.strftime("%H:%M", time.localtime(cast(int, phase.get("cachedAt", 0))))
            return f"offline, showing saved results from {saved}"
        if source == "live":
            return f"live from {self.live_url}" if self.live_url else "live"
        return ""

    def draw_phase_message(self, y: int, x: int, phase: Mapping[str, object], what: str) -> bool:
        """Draws a message for a non-loaded phase; True when it did."""
        name = phase_of(phase)
        if name == "loading":
            self.put(y, x, f"Loading {what}{self.glyphs.ellipsis}")
        elif name == "failed":
            error = cast(wire.FailedPhase, phase)["error"]
            self.put(y, x, f"Could not load {what}: {error['code']}: {error['message']}")
        elif name == "idle":
            return False
        else:
            return False
        return True

    def draw_search(self, rows: int, cols: int) -> None:
        results: wire.MoviesPhase = self.search_state["results"] if self.search_state else {"phase": "idle"}
        phase = phase_of(results)
        searchable = len(self.query.strip()) >= 2
        shown_query = self.search_state["query"] if self.search_state else ""
        pending = searchable and (phase == "loading" or self.results_query != shown_query)
        self.put(2, 1, "Search: ", curses.A_BOLD)
        room = max(10, cols - 9 - 24)  # the status on the right keeps its place
        shown = self.query + "_"
        if len(shown) > room:
            shown = self.glyphs.ellipsis + shown[-(room - len(self.glyphs.ellipsis)):]
        self.put(2, 9, shown)
        status = ""
        if pending:
            status = f"searching{self.glyphs.ellipsis}"
        elif phase == "loaded":
            count = len(movies_of(results))
            status = f"{count} movie{'s' if count != 1 else ''}" + (" (first page)" if count == 20 else "")
        elif phase == "failed":
            status = f"failed: {cast(wire.FailedPhase, results)['error']['code']}"
        self.put(2, cols - len(status) - 2, status, curses.A_DIM if pending else 0)
        note = self.source_note(results)
        if note:
            self.put(3, 2, self.clip(note, cols - 4), curses.A_BOLD if "offline" in note else curses.A_DIM)
        movies = movies_of(results)
        if movies:
            self.draw_movies(4, rows - 5, cols, movies, self.cursor("search"))
        elif phase == "failed":
            error = cast(wire.FailedPhase, results)["error"]
            self.put(4, 2, self.clip(f"Search failed ({error['code']}): {error['message']}", cols - 4))
            if self.live_url and error["code"] in ("network", "timeout"):
                self.put(5, 2, "offline, and nothing saved for this search")
        elif phase == "loaded" and not pending:
            self.put(4, 2, "No movies match.")
        elif not searchable:
            self.put(4, 2, "Type at least two characters to search 58,788 films.")

    def draw_discover(self, rows: int, cols: int) -> None:
        if "discover" in self.unavailable:
            self.put(3, 2, self.unavailable["discover"])
            return
        sections = self.discover_state["sections"] if self.discover_state else []
        side = 14
        for i, entry in enumerate(sections):
            label = f"{i + 1} {entry['title']}"
            busy = phase_of(entry["movies"]) == "loading" or entry["isLoadingMore"]
            if busy:
                label += self.glyphs.ellipsis
            self.put(3 + i, 1, label[: side - 1].ljust(side - 1), curses.A_REVERSE if i == self.section else 0)
        section = self.current_section()
        if section is None:
            self.put(3, side + 2, f"Loading{self.glyphs.ellipsis}")
            return
        movies_phase = section["movies"]
        title = section["title"]
        info = f"{title}: {len(movies_of(movies_phase))} movies, {section['pagesLoaded']} page(s)"
        if section["isLoadingMore"]:
            info += f", loading more{self.glyphs.ellipsis}"
        elif section["isExhausted"]:
            info += ", all loaded"
        error = section["loadMoreError"]
        if error:
            info += f", more failed: {error['code']}"
        note = self.source_note(movies_phase)
        if note and "offline" in note:
            info += f" ({note})"
        self.put(2, side + 1, self.clip(info, cols - side - 2), curses.A_BOLD)
        if not self.draw_phase_message(4, side + 2, movies_phase, title):
            movies = movies_of(movies_phase)
            if movies:
                self.draw_movies(3, rows - 4, cols, movies, self.current_cursor(), x=side)

    def draw_favorites(self, rows: int, cols: int) -> None:
        if "favorites" in self.unavailable:
            self.put(3, 2, self.unavailable["favorites"])
            return
        favorites: wire.FavoritesPhase = self.favorites_state["favorites"] if self.favorites_state else {"phase": "idle"}
        error = self.favorites_state["removalError"] if self.favorites_state else None
        if error:
            self.put(2, 1, f"Could not remove: {error['code']}: {error['message']}", curses.A_BOLD)
        else:
            self.put(2, 1, "Your favorites", curses.A_BOLD)
        if self.draw_phase_message(4, 2, favorites, "favorites"):
            return
        movies = movies_of(cast(wire.MoviesPhase, favorites))
        if movies:
            self.draw_movies(4, rows - 5, cols, movies, self.cursor("favorites"))
        else:
            self.put(4, 2, "No favorites yet: open a movie and press f.")

    def draw_detail(self, rows: int, cols: int) -> None:
        state = self.detail_state
        if state is None:
            return
        detail = state["detail"]
        loaded = cast(wire.DetailLoaded, detail)["value"] if phase_of(detail) == "loaded" else None
        note = self.source_note(detail)
        if note and "offline" in note:
            self.put(rows - 3, 1, self.clip(note, cols - 2), curses.A_BOLD)
        heart = (f"{self.glyphs.star} Favorite" if state["isFavorite"]
                 else f"{self.glyphs.hollow} Not a favorite (f to add)")
        if state["isSaving"]:
            heart = f"saving{self.glyphs.ellipsis} {heart}"
        shown = loaded or self.detail_movie
        # The full title, wrapped (the heart keeps the right of the first line).
        top = 2
        if shown:
            import textwrap
            width = max(10, cols - len(heart) - 5)
            lines = textwrap.wrap(f"{shown['title']} ({shown['year']})", width) or [""]
            for i, line in enumerate(lines[:3]):
                self.put(top + i, 1, line, curses.A_BOLD)
            top += min(3, len(lines)) - 1
        self.put(2, cols - len(heart) - 2, heart, curses.A_BOLD if state["isFavorite"] else 0)
        error = state["favoriteError"]
        if error:
            top += 1
            self.put(top, 1, f"Could not save the favorite: {error['code']}: {error['message']}")
        if self.draw_phase_message(top + 2, 2, detail, "the detail"):
            return
        if loaded is None:
            return
        movie = loaded
        genres = ", ".join(movie["genres"]) or "none listed"
        mpaa = movie["mpaa"] or "unknown"   # the catalog does not know it (not "not rated")
        minutes = movie["runtime"]
        base = top + 2
        self.put(base, 2, f"Runtime  {minutes} min    Genres  {genres}    MPAA  {mpaa}")
        self.put(base + 1, 2, f"Budget   {money(movie['budget'])}")
        self.put(base + 2, 2, f"Rating   {movie['rating']:.1f}/10 from {movie['votes']:,} votes")
        distribution = [float(x) for x in movie["ratingDistribution"]]
        self.put(base + 4, 2, "Share of votes per star rating", curses.A_BOLD)
        self.put(base + 5, 2, "(IMDb rounds each share to x4.5%; they need not add up to 100%)")
        if not distribution:
            self.put(base + 6, 2, "no votes")
            return
        scale = 100.0 if max(distribution) <= 1.0 else 1.0  # fractions or percentages
        peak = max(distribution) or 1.0
        bar_width = max(5, cols - 20)
        for i, share in enumerate(distribution[:10]):
            y = base + 6 + (9 - i)  # 10 stars on top
            if y >= rows - 1:
                continue
            cells = share / peak * bar_width
            bar = self.glyphs.bar * int(cells) + (self.glyphs.half if cells - int(cells) >= 0.5 else "")
            self.put(y, 2, f"{i + 1:>2}{self.glyphs.star} ")
            self.put(y, 7, bar)
            self.put(y, 8 + len(bar), f"{share * scale:.1f}%")


#: Signals that end the app like Ctrl-Q does (the loop ends, the runtime closes, a recording
#: is complete); the exit status is then 128 + the signal's number.
STOP_SIGNALS = (signal.SIGTERM, signal.SIGHUP)


class Terminal:
    """The select loop: stdin, the runtime's fd and a wake-up pipe for signals (SIGWINCH,
    and the stop signals)."""

    def __init__(self, stdscr: "curses.window", app: App) -> None:
        self.screen = stdscr
        self.app = app
        self.stopped_by: Optional[int] = None  # the stop signal that ended the loop
        self.wake_r, self.wake_w = os.pipe()
        os.set_blocking(self.wake_r, False)
        os.set_blocking(self.wake_w, False)

    def run(self) -> int:
        """Runs the loop until the app quits; returns the exit status (0, or 128 + a stop
        signal's number)."""
        previous_wakeup = signal.set_wakeup_fd(self.wake_w)
        handlers = {number: signal.getsignal(number) for number in (signal.SIGWINCH, *STOP_SIGNALS)}
        signal.signal(signal.SIGWINCH, lambda signum, frame: None)
        for number in STOP_SIGNALS:
            signal.signal(number, self.stop)
        try:
            self.loop()
        finally:
            for number, handler in handlers.items():
                signal.signal(number, handler if handler is not None else signal.SIG_DFL)
            signal.set_wakeup_fd(previous_wakeup)
            os.close(self.wake_r)
            os.close(self.wake_w)
        return 0 if self.stopped_by is None else 128 + self.stopped_by

    def stop(self, signum: int, frame: object) -> None:
        """A stop signal's handler: the loop ends (the wake-up pipe wakes its select)."""
        self.stopped_by = signum
        self.app.running = False

    def resize(self) -> None:
        try:
            size = os.get_terminal_size(sys.stdin.fileno())
        except OSError:
            return
        curses.resizeterm(size.lines, size.columns)
        self.app.dirty = True

    def loop(self) -> None:
        app = self.app

        stdin = sys.stdin.fileno()
        runtime_fd = app.runtime.fileno()
        self.screen.nodelay(True)
        while app.running:
            if app.dirty:
                app.render()
            readable, _, _ = select.select([stdin, runtime_fd, self.wake_r], [], [])
            if self.wake_r in readable:
                try:
                    while os.read(self.wake_r, 512):
                        pass
                except BlockingIOError:
                    pass
                self.resize()
            if runtime_fd in readable:
                app.runtime.dispatch()
            if stdin in readable:
                self.read_keys()

    def read_keys(self) -> None:
        while self.app.running:
            try:
                key = self.screen.get_wch()
            except curses.error:
                return  # nothing more buffered
            # KEY_RESIZE comes from resizeterm (see resize): the screen already has its new
            # size, so it only asks for a redraw (handle_key marks the app dirty).
            self.app.handle_key(key)


def main_curses(stdscr: "curses.window", runtime: cinematic.Runtime, glyphs: Glyphs, status: List[int],
                live_url: Optional[str] = None) -> None:
    """Runs the app on ``stdscr``; appends the exit status to ``status`` (read even when
    restoring the terminal fails afterwards)."""
    curses.raw()           # Ctrl-Q and Ctrl-C arrive as keys
    curses.noecho()
    stdscr.keypad(True)
    try:
        curses.curs_set(0)
    except curses.error:
        pass
    app = App(stdscr, runtime, glyphs, live_url)
    status.append(Terminal(stdscr, app).run())


def main(argv: Optional[List[str]] = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(prog="cinematic-tui", description="A terminal movie app over libcinematic.")
    parser.add_argument("--favorites", help="favorites database (default: $XDG_DATA_HOME/cinematic/favorites.sqlite)")
    parser.add_argument("--catalog", help="a catalog index built by cinematic-index (default: the catalog built into the library)")
    parser.add_argument("--record", metavar="FILE",
                        help="record the session to FILE (complete when the app exits); "
                             "replay it with python -m cinematic.replay FILE")
    parser.add_argument("--live", metavar="URL",
                        help="take the catalog from a movie API (examples/catalog-server), with the "
                             "library's offline cache for when it cannot be reached")
    args = parser.parse_args(argv)

    locale.setlocale(locale.LC_ALL, "")
    os.environ.setdefault("ESCDELAY", "25")
    # The C library's codeset, as curses sees it (Python's UTF-8 mode would say UTF-8 in the
    # C locale, where curses drops every non-ASCII character).
    utf8 = "utf" in (locale.nl_langinfo(locale.CODESET) or "").lower().replace("-", "")
    path = Path(args.favorites) if args.favorites else favorites_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    config: Dict[str, Any] = {"delivery": "queued", "favorites": str(path), "history": HISTORY}
    if args.catalog:
        config["catalog"] = {"path": args.catalog}
    if args.record:
        config["record"] = args.record
    if args.live:
        config["catalog"] = "host"   # the offline cache is on by default (XDG_CACHE_HOME)
    if not sys.stdin.isatty() or not sys.stdout.isatty():
        print("cinematic-tui: needs a terminal", file=sys.stderr)
        return 2
    try:
        runtime = cinematic.Runtime(config)
    except (cinematic.LibraryNotFoundError, cinematic.CinematicError) as error:
        print(f"cinematic-tui: cannot start: {error}", file=sys.stderr)
        return 1
    provider = None
    if args.live:
        from cinematic.http_provider import HttpCatalogProvider
        try:
            provider = HttpCatalogProvider(runtime, args.live, timeout=5.0)
        except ValueError as error:      # not an http:// URL
            runtime.close()
            print(f"cinematic-tui: --live: {error}", file=sys.stderr)
            return 2
        runtime.set_provider(provider)
    # Every way out (quit keys, a stop signal, an exception) closes the runtime, which
    # completes the recording.
    status: List[int] = []
    with runtime:
        try:
            curses.wrapper(main_curses, runtime, Glyphs(utf8), status, args.live)
        except curses.error:
            if status != [128 + signal.SIGHUP]:
                raise
            # The terminal hung up: curses cannot restore it, and need not.
        finally:
            if provider is not None:
                provider.close()
    return status[0]
