"""Input: what each key does on each screen (the model's actions)."""

from __future__ import annotations

import curses
from typing import Any

from .common import CTRL_C, CTRL_Q, CTRL_U, ESC, TABS, phase_of
from .debug import is_toggle
from .model import Model


class KeyHandling(Model):
    """Keys: the tabs, lists, the query, Detail, the help and the debug panel's toggle."""

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
            if (key in ("d", "D") or key == curses.KEY_DC) and movies and self.favorites is not None:
                removed = movies[min(cursor.index, len(movies) - 1)]
                self.favorites.removed(int(removed["id"]))
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
