"""Input: what each key sends on each screen. Keys become the app store's intents; the only
state kept here is the screen's own (the help, the Esc before q, a removal's "y")."""

from __future__ import annotations

import curses
from typing import Any

from .common import CTRL_C, CTRL_Q, CTRL_U, CTRL_X, CTRL_Z, ESC
from .debug import is_toggle
from .model import Model

BACKSPACE = (curses.KEY_BACKSPACE, "\b", "\x7f")


class KeyHandling(Model):
    """Keys: the tabs, lists, the query, Detail, the help and the debug panel's toggle."""

    def handle_key(self, key: Any) -> None:
        # Keys act on the store's state as it is now (the delivered one may not have caught
        # up with the keys before this one: a paste, a key repeat).
        self.state = self.app.state
        self.dirty = True
        self.prompt = ""
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
        if key == curses.KEY_F1:
            self.help = True
            return
        if key == curses.KEY_F2:
            self.cycle_sort()
            self.prompt = f"Rows sorted by {self.sort} (F2: next order)" if self.sort else "Rows in the app's order (F2 sorts)"
            return
        if is_toggle(key, code):
            self.esc_pending = False
            self.debug.toggle()
            return
        if self.debug.open:
            self.debug.key(key, code)
            return
        if key == curses.KEY_RESIZE:
            return
        self.showing_past = False
        if self.esc_pending:
            self.esc_pending = False
            if key in ("q", "Q"):
                self.running = False
                return
        if self.common_key(key, code):
            return
        if self.detail() is not None:
            self.detail_key(key, code)
        elif code == ESC:
            self.esc_pending = True
            self.prompt = "Esc: press q to quit"
        elif self.state["tab"] == "search":
            self.search_key(key, code)
        elif key == "?":
            self.help = True
        elif key in ("q", "Q"):
            self.running = False
        elif pending is not None:
            self.favorites_key(key, pending)   # y removes it, any other key keeps it
        elif key in ("u", "U"):
            self.app.undo()
        elif key in ("r", "R"):
            self.app.retried()
        elif self.state["tab"] == "discover":
            self.discover_key(key)
        else:
            self.favorites_key(key, pending)

    def common_key(self, key: Any, code: int) -> bool:
        """Keys that do the same on every screen; True when ``key`` was one."""
        moves = {curses.KEY_UP: -1, curses.KEY_DOWN: 1, curses.KEY_PPAGE: -(self.list_height() - 1),
                 curses.KEY_NPAGE: self.list_height() - 1, curses.KEY_HOME: -10**6, curses.KEY_END: 10**6}
        if key in ("\t", curses.KEY_RIGHT) or code == 9 or (key == curses.KEY_LEFT and self.detail() is None):
            self.switch_tab(-1 if key == curses.KEY_LEFT else 1)
        elif key == curses.KEY_BTAB:
            self.switch_tab(-1)
        elif code == CTRL_Z:
            self.app.undo()
        elif code == CTRL_X:
            notice = self.state["notice"]
            if notice is not None:
                self.app.notice_dismissed(notice["id"])
        elif key in moves and self.detail() is None:
            self.move(moves[key])
        elif key in ("\n", "\r", curses.KEY_ENTER) or code in (10, 13):
            self.enter()
        else:
            return False
        return True

    def enter(self) -> None:
        """Opens the selected film. In Search, when the results shown do not answer the query
        in the box (typed since, or failed), Enter searches it now instead."""
        if self.detail() is not None:
            return
        if self.state["tab"] == "search" and not self.results_are_current():
            if len(self.query.strip()) >= 2:
                self.search.submitted()
                self.prompt = f"searching{self.glyphs.ellipsis}"
            return
        movie = self.selected_movie()
        if movie is not None:
            self.app.opened(movie["id"])

    def search_key(self, key: Any, code: int) -> None:
        """Typing edits the query: any text goes to the app, which fits it to a search's
        bounds (and says so). "?" opens the help while the box is empty."""
        if key in BACKSPACE or code in (8, 127):
            if self.query:
                self.app.query_changed(self.query[:-1])
        elif code == CTRL_U:
            self.app.query_changed("")
        elif key == "?" and not self.query:
            self.help = True
        elif isinstance(key, str) and key.isprintable() and len(key) == 1:
            self.app.query_changed(self.query + key)

    def favorites_key(self, key: Any, pending: Any) -> None:
        """d or Delete asks to remove the selected film, y confirms it (any other key keeps
        it). A word typed here by mistake ("dune") removes nothing."""
        if pending is not None:
            if key in ("y", "Y"):
                self.app.removed(pending["id"])
            else:
                self.prompt = f"Kept {self.text(pending['title'])}"
                if self.typed_a_word(key):
                    self.prompt += " (typing? the search box is in the Search tab)"
            return
        movie = self.selected_movie()
        if (key in ("d", "D") or key == curses.KEY_DC) and movie is not None:
            self.pending_removal = movie
            self.prompt = f"Remove {self.text(movie['title'])} from favorites? y removes, any other key keeps it"
        elif self.typed_a_word(key):
            self.prompt = "The search box is in the Search tab (Tab switches tabs)"

    @staticmethod
    def typed_a_word(key: Any) -> bool:
        return isinstance(key, str) and len(key) == 1 and key.isprintable() and key not in "?[]"

    def discover_key(self, key: Any) -> None:
        sections = self.state["discover"]["sections"]
        ids = [s["section"] for s in sections]
        index = ids.index(self.state["section"]) if self.state["section"] in ids else 0
        if key in ("]", "["):
            self.app.section_selected(ids[(index + (1 if key == "]" else -1)) % len(ids)])
        elif isinstance(key, str) and key.isdigit() and key != "0" and int(key) <= len(ids):
            self.app.section_selected(ids[int(key) - 1])
        elif key in ("m", "M"):
            self.move_to(len(self.current_list()))   # past the last row: the next page

    def detail_key(self, key: Any, code: int) -> None:
        if code in (ESC, 8, 127) or key in (*BACKSPACE, "q", "Q", curses.KEY_LEFT):
            self.app.back()
        elif key in ("f", "F"):
            self.shown.favorite_toggled()
        elif key in ("u", "U"):
            self.app.undo()
        elif key in ("r", "R"):
            self.app.retried()
        elif key == "?":
            self.help = True
