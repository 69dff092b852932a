"""Input: a curses key becomes a key name ("Down", "Ctrl+Z", "F": ``keymap.curses_key_name``)
looked up in the app's one keymap (:mod:`cinematic.keymap`) on the screen shown, or on the
debug panel's screen while it is open; its action goes to the app store as it is, or it opens
the host's own screens (help, debug panel), steps the panel through the history, or quits.
Text typed on the Search screen edits the query (``queryChanged``): the only intent the
terminal builds itself."""

from __future__ import annotations

import curses
from typing import Any, Optional

from cinematic import keymap
from cinematic.timetravel import STEPS

from .model import Model


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
        name = keymap.curses_key_name(key)
        binding = keymap.binding_for(name, self.keys_screen)
        host = binding.host if binding is not None else None
        if host == "quit" or name == "Ctrl+C":   # Ctrl-C: the terminal's interrupt, quits too
            self.running = False
        elif self.help:
            self.help = False  # any key closes the help
        elif host == "debug":
            self.debug.toggle()
        elif host in STEPS:
            self.debug.step(STEPS[host])
        elif host == "help":
            self.help = True
        elif self.debug.open:
            self.prompt = f"not a key of the debug panel ({keymap.keys_for('help')} lists them)"
        elif self.state["view"]["screen"] == "search" and self.edit_query(key, name):
            pass
        elif binding is not None and binding.action is not None:
            self.app.send(binding.action)

    def edit_query(self, key: Any, name: Optional[str]) -> bool:
        """Typing, Backspace and Ctrl-U edit the query (any text: the app fits it to a
        search's bounds, and says so); True when ``key`` (named ``name``) was one of them."""
        query = self.state["view"]["query"]
        if name == "Backspace":
            edited = query[:-1]
        elif name == "Ctrl+U":
            edited = ""
        elif isinstance(key, str) and len(key) == 1 and key.isprintable():
            edited = query + key
        else:
            return False
        if edited != query:
            self.app.query_changed(edited)
        return True
