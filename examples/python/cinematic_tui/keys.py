"""Input: what each key does on each screen (the model's actions)."""

from __future__ import annotations

import curses
from typing import Any, List, Optional

from cinematic import wire

from .common import CTRL_C, CTRL_Q, CTRL_U, ESC, MAX_QUERY_BYTES, MAX_QUERY_CHARACTERS, TABS, phase_of, query_fits
from .debug import is_toggle
from .model import Model


class KeyHandling(Model):
    """Keys: the tabs, lists, the query, Detail, the help and the debug panel's toggle."""

    def handle_key(self, key: Any) -> None:
        self.dirty = True
        self.notice = ""
        # A removal waiting for its "y" is kept by any other key (a tab switch, a move...).
        pending, self.pending_removal = self.pending_removal, None
        if pending is not None and key == curses.KEY_RESIZE:
            self.pending_removal = pending
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
                    self.search.submitted()
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
            self.favorites_key(key, movies, cursor.index, pending)

    def favorites_key(self, key: Any, movies: List[wire.Movie], index: int, pending: Optional[wire.Movie]) -> None:
        """Favorites: d or Delete asks to remove the selected film, y confirms it (any other
        key keeps it); u undoes the removals one by one, newest first (an undo stack for the
        session). A word typed here by mistake ("dune") removes nothing."""
        if pending is not None:
            if key in ("y", "Y"):
                self.remove_favorite(pending)
            else:
                self.notice = f"Kept {self.text(pending['title'])}"
                if self.typed_a_word(key):
                    self.notice += " (typing? the search box is in the Search tab)"
            return
        if (key in ("d", "D") or key == curses.KEY_DC) and movies and self.favorites is not None:
            movie = movies[min(index, len(movies) - 1)]
            self.pending_removal = movie
            self.notice = f"Remove {self.text(movie['title'])} from favorites? y removes, any other key keeps it"
        elif key in ("u", "U"):
            self.undo_removal()
        elif self.typed_a_word(key):
            self.notice = "The search box is in the Search tab (Tab switches tabs)"

    @staticmethod
    def typed_a_word(key: Any) -> bool:
        return isinstance(key, str) and len(key) == 1 and key.isprintable() and key not in "?[]"

    def search_key(self, key: Any, code: int) -> None:
        if key in (curses.KEY_BACKSPACE, "\b", "\x7f") or code in (8, 127):
            if self.query:
                self.set_query(self.query[:-1])
        elif code == CTRL_U:
            self.set_query("")
        elif isinstance(key, str) and key.isprintable() and len(key) == 1:
            if query_fits(self.query + key):
                self.set_query(self.query + key)
            else:  # typed or pasted past the limit: the rest is not typed
                self.notice = (f"The query is at its limit ({MAX_QUERY_CHARACTERS} characters or "
                               f"{MAX_QUERY_BYTES} bytes): the rest was not typed")

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

    def detail_key(self, key: Any, code: int) -> None:
        assert self.detail is not None
        if code == ESC or key in (curses.KEY_BACKSPACE, "\b", "\x7f", "q", "Q") or code in (8, 127) or key == curses.KEY_LEFT:
            self.close_detail()
        elif key in ("f", "F"):
            if self.detail_state is not None and phase_of(self.detail_state["detail"]) == "loaded":
                self.detail.favorite_toggled()
            else:
                self.notice = "wait for the detail to load"
        elif key == "\t" or code == 9:
            self.switch_tab(1)
        elif key == curses.KEY_BTAB:
            self.switch_tab(-1)

    # ------------------------------------------------------------------ drawing
