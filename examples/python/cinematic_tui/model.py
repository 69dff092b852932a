"""The app's model: the one app store, the state it delivers, and what only the screen knows
(the help is open, the debug panel, a line of its own). What the screen shows is the state's
``view``, worded by the library; the terminal draws it and turns keys into intents."""

from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING, List

import cinematic
from cinematic import keymap, wire

from .common import Glyphs

if TYPE_CHECKING:
    import curses

    from .debug import DebugPanel


#: The library's typographic characters, in ASCII.
ASCII = str.maketrans({"★": "*", "…": "...", "“": '"', "”": '"', "‘": "'", "’": "'", "–": "-", "—": "-"})


class Model:
    """The app store, its latest state, and the screen's own few flags."""

    #: The debug panel (created by the app, which can draw it).
    debug: "DebugPanel"

    def __init__(self, stdscr: "curses.window", app: cinematic.AppStore, glyphs: Glyphs) -> None:
        self.screen = stdscr
        self.app = app
        self.glyphs = glyphs
        self.running = True
        self.dirty = True
        self.help = False
        self.prompt = ""                  # the screen's own line (the debug panel's, a refusal)
        self.state: wire.AppState = app.state
        app.subscribe(self._on_state)
        app.task()

    def _on_state(self, state: wire.AppState) -> None:
        self.state = state
        self.dirty = True

    @property
    def view(self) -> wire.AppView:
        return self.state["view"]

    @property
    def keys_screen(self) -> str:
        """The keymap's screen the keys act on: the debug panel's while it is open, else the view's."""
        return keymap.DEBUG_SCREEN if self.debug.open else self.view["screen"]

    def hint_lines(self, cols: int) -> List[str]:
        """The search's hint (what the catalog cannot answer: "Tom Hanks looks like a
        person…"), wrapped to at most 3 lines."""
        listed = self.view["list"]
        hint = listed["hint"] if listed is not None else ""
        return textwrap.wrap(hint, max(10, cols - 4))[:3] if hint else []

    def list_top(self, cols: int) -> int:
        """The first row of the list: under the header, the source note and the hint."""
        return 3 + max(1, (1 if self.view["source"] else 0) + len(self.hint_lines(cols)))

    def fit_list(self, rows: int, cols: int) -> None:
        """Tells the app how many rows of its list the screen shows when its view says another
        number (at the start, on every resize, after time travel to an older size; never while
        the debug panel is open): a page (PageDown) is that many, and the selection stays
        among them."""
        height = max(1, min(500, rows - self.list_top(cols) - 2))
        listed = self.view["list"]
        if listed is not None and height != listed["visibleRows"] and not self.debug.open:
            self.app.resized(height)

    def text(self, value: str) -> str:
        """`value` as the terminal can show it: as is on UTF-8, else folded to ASCII
        ("Amélie" → "Amelie", anything else → "?")."""
        if self.glyphs.utf8:
            return value
        value = value.translate(ASCII)
        import unicodedata
        folded = unicodedata.normalize("NFKD", value).encode("ascii", "ignore").decode("ascii")
        return folded if len(folded) >= len(value) // 2 else value.encode("ascii", "replace").decode("ascii")
