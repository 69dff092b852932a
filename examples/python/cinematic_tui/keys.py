"""Input: a curses key becomes a key name ("Down", "Ctrl+Z", "F") looked up in the app's one
keymap (:mod:`cinematic.keymap`); its action goes to the app store as it is, or it opens the
host's own screens (help, debug panel) or quits. Text typed on the Search screen edits the
query (``queryChanged``): the only intent the terminal builds itself."""

from __future__ import annotations

import curses
from typing import Any, Dict, Optional, Union

from cinematic import keymap

from .model import Model

BACKSPACE = (curses.KEY_BACKSPACE, "\b", "\x7f")
CTRL_C, CTRL_U = "\x03", "\x15"

#: curses' keys by the keymap's names.
NAMES: Dict[Union[int, str], str] = {
    curses.KEY_DOWN: "Down", curses.KEY_UP: "Up", curses.KEY_NPAGE: "PageDown", curses.KEY_PPAGE: "PageUp",
    curses.KEY_HOME: "Home", curses.KEY_END: "End", curses.KEY_ENTER: "Enter", curses.KEY_DC: "Delete",
    curses.KEY_BTAB: "Shift+Tab", curses.KEY_LEFT: "Left", curses.KEY_RIGHT: "Right",
    "\n": "Enter", "\r": "Enter", "\t": "Tab", "\x1b": "Escape",
    **{curses.KEY_F0 + number: f"F{number}" for number in range(1, 13)},
}


def key_name(key: Any) -> Optional[str]:
    """The keymap's name of a curses key: "Down", "Ctrl+Z", "F" (a letter, either case)."""
    if key in NAMES:
        return NAMES[key]
    if isinstance(key, str) and len(key) == 1:
        if 1 <= ord(key) <= 26:
            return f"Ctrl+{chr(64 + ord(key))}"
        if key.isprintable():
            return key.upper()
    return None


class KeyHandling(Model):
    """Keys: the keymap's bindings, the query's text, the help and the debug panel."""

    def handle_key(self, key: Any) -> None:
        # Keys act on the store's state as it is now (the delivered one may not have caught
        # up with the keys before this one: a paste, a key repeat).
        self.state = self.app.state
        self.dirty = True
        self.prompt = ""
        if key == curses.KEY_RESIZE:
            return
        name = key_name(key)
        binding = keymap.binding_for(name, self.state["view"]["screen"]) if name else None
        host = binding.host if binding is not None else None
        if host == "quit" or key == CTRL_C:   # Ctrl-C: the terminal's interrupt, quits too
            self.running = False
        elif self.help:
            self.help = False  # any key closes the help
        elif host == "debug":
            self.debug.toggle()
        elif self.debug.open:
            self.debug.key(key)
        elif self.state["view"]["screen"] == "search" and self.edit_query(key):
            pass
        elif host == "help":
            self.help = True
        elif binding is not None and binding.action is not None:
            self.app.send(binding.action)

    def edit_query(self, key: Any) -> bool:
        """Typing, Backspace and Ctrl-U edit the query (any text: the app fits it to a
        search's bounds, and says so); True when ``key`` was one of them."""
        query = self.state["view"]["query"]
        if key in BACKSPACE:
            edited = query[:-1]
        elif key == CTRL_U:
            edited = ""
        elif isinstance(key, str) and len(key) == 1 and key.isprintable():
            edited = query + key
        else:
            return False
        if edited != query:
            self.app.query_changed(edited)
        return True
