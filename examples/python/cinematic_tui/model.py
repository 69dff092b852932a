"""The app's model: its stores, the states they deliver, what is on screen (tab, section,
selection, notices) and the actions keys trigger."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Dict, List, Optional, TypeVar

import cinematic
from cinematic import wire

from .common import TABS, Glyphs, ListCursor, movies_of, phase_of

if TYPE_CHECKING:
    import curses

    from .debug import DebugPanel

S = TypeVar("S", bound="cinematic.Store[Any]")


class Model:
    """The app's state and actions (no keys, no drawing)."""

    #: The debug panel (created by the app, which can draw it).
    debug: "DebugPanel"

    def __init__(self, stdscr: "curses.window", runtime: cinematic.Runtime, glyphs: Glyphs,
                 live_url: Optional[str] = None, restored: Optional[Dict[str, Any]] = None) -> None:
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
        self.pending_removal: Optional[wire.Movie] = None      # asked to remove, waiting for "y"
        self.removed: List[wire.Movie] = []                    # the undo stack (newest last)
        self.restoring: List[cinematic.DetailStore] = []       # undos re-adding a favorite
        self.discover_started = False
        self.section = 0
        self.cursors: Dict[str, ListCursor] = {}

        # Stores restored from the state file (resume.py) reload by themselves: no task.
        restored = restored or {}
        self.search: cinematic.SearchStore = restored.get("search") or runtime.search()
        self.search.subscribe(self._on_search)
        self.discover = restored.get("discover") or self._optional("discover", runtime.discover)
        if self.discover is not None:
            self.discover.subscribe(self._on_discover)
        self.favorites = restored.get("favorites") or self._optional("favorites", runtime.favorites)
        if self.favorites is not None:
            self.favorites.subscribe(self._on_favorites)
            if "favorites" not in restored:
                self.favorites.task()

    def _optional(self, name: str, opener: Callable[[], S]) -> Optional[S]:
        """Opens a store, or notes that this library build has no such feature."""
        try:
            return opener()
        except cinematic.UnknownFeatureError as error:
            self.unavailable[name] = f"{name} is not available in this library build ({error.message})"
            return None

    def cursor(self, key: str) -> ListCursor:
        return self.cursors.setdefault(key, ListCursor())

    # ------------------------------------------------------------------ states

    # Each store's state arrives typed by the schema's generated TypedDict (cinematic.wire).

    def _on_search(self, state: wire.SearchState) -> None:
        self.search_state = state
        if phase_of(state["results"]) in ("loaded", "failed"):
            self.results_query = state["query"]
        elif phase_of(state["results"]) == "idle":
            self.results_query = None
        self.dirty = True

    def _on_discover(self, state: wire.DiscoverState) -> None:
        self.discover_state = state
        self.dirty = True

    def _on_favorites(self, state: wire.FavoritesState) -> None:
        self.favorites_state = state
        self.dirty = True

    def _on_detail(self, state: wire.DetailState) -> None:
        self.detail_state = state
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

    def remove_favorite(self, movie: wire.Movie) -> None:
        """Removes a favorite (confirmed) and pushes it on the undo stack."""
        if self.favorites is None:
            return
        self.favorites.removed(int(movie["id"]))
        self.removed.append(movie)
        more = f" ({len(self.removed)} to undo)" if len(self.removed) > 1 else ""
        self.notice = f"Removed {self.text(movie['title'])}: press u to undo{more}"

    def undo_removal(self) -> None:
        """Undoes the newest removal not undone yet (every removal of the session, newest first)."""
        if not self.removed:
            self.notice = "Nothing to undo"
            return
        self.restore(self.removed.pop())

    def restore(self, movie: wire.Movie) -> None:
        """Undo of a removal: a Detail store of the movie toggles it back once loaded (several
        undos may be in flight at once; none cancels another)."""
        try:
            store = self.runtime.detail(int(movie["id"]))
        except cinematic.CinematicError as error:
            self.removed.append(movie)  # still undoable
            self.notice = f"cannot undo: {error.message}"
            return
        self.restoring.append(store)
        self.notice = f"Restoring {self.text(movie['title'])}{self.glyphs.ellipsis}"

        def on_state(state: wire.DetailState) -> None:
            if store not in self.restoring or state["isSaving"]:
                return
            if state["detail"]["phase"] == "loaded" and not state["isFavorite"] and state["favoriteError"] is None:
                store.favorite_toggled()
            elif state["isFavorite"] or state["favoriteError"] is not None or state["detail"]["phase"] == "failed":
                if state["isFavorite"]:
                    self.notice = f"Restored {self.text(movie['title'])}"
                else:
                    self.removed.append(movie)  # still undoable
                    self.notice = f"Could not restore {self.text(movie['title'])}"
                self.restoring.remove(store)
                store.close()
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

    def debug_store(self) -> Optional[cinematic.Store[Any]]:
        """The store behind the screen: Detail's when open, else the current tab's."""
        if self.detail is not None:
            return self.detail
        stores: Dict[str, Optional[cinematic.Store[Any]]] = {
            "Search": self.search, "Discover": self.discover, "Favorites": self.favorites}
        return stores[TABS[self.tab]]

    def reverted(self, store: cinematic.Store[Any], entry: wire.HistoryEntry) -> None:
        """After a time-travel step: the search field shows the query of that state (the
        store delivers the state itself to the subscribers)."""
        query = entry["state"].get("query")
        if store is self.search and isinstance(query, str):
            self.query = query
        self.dirty = True

    # ------------------------------------------------------------------ queries

    def results_are_current(self) -> bool:
        """True when the shown search results answer the query as typed now."""
        state = self.search_state
        if state is None:
            return False
        results = state["results"]
        return results["phase"] == "loaded" and results["query"] == self.query.strip()

    def search_in_flight(self) -> bool:
        """True while the search store runs an effect (the typing debounce or a search); False
        after time travel to a state whose search never ran."""
        try:
            return self.search.pending_effects > 0
        except cinematic.CinematicError:
            return False

    def load_more(self) -> None:
        section = self.current_section()
        if self.discover is not None and section and not section["isExhausted"] \
                and not section["isLoadingMore"] and phase_of(section["movies"]) == "loaded":
            self.discover.load_more(section["section"])

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

