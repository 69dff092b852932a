"""The debug panel: the last intents of the app store, and time travel through them.

It reads ``store.history`` (the runtime keeps ``HISTORY`` entries per store) and shows one
line per reduced intent, newest at the bottom: ``#6 searchResult.resultsLoaded changed:
search`` and a short summary of the intent's arguments. Stepping calls ``store.revert(seq)``:
the app store delivers that past state like any other, and one step brings back every part
at once (the tab, the query, the lists, the open Details, the notice), so the screen above
the panel shows it. Closing the panel keeps the shown state; End (in the panel) returns to
the latest entry.
"""

from __future__ import annotations

import curses
from typing import Any, List, Protocol

import cinematic
from cinematic import wire
from cinematic.timetravel import TimeTravel, entry_line

from .common import Glyphs

#: History entries the runtime keeps per store (runtime config ``history``).
HISTORY = 200
ESC = "\x1b"
#: The panel's own keys (the keymap's F12 opens and closes it, anywhere).
HEADER_KEYS = "[ ] step  Home/End oldest/latest  Esc closes, keeps state"
FOOTER_KEYS = "[ ] Up/Dn step  Home/End  Esc/F12 close  Ctrl-Q quit"


class Host(Protocol):
    """What the panel needs of the app (the app imports this module, not the other way)."""

    app: cinematic.AppStore
    dirty: bool
    prompt: str
    glyphs: Glyphs

    def put(self, y: int, x: int, text: str, attr: int = 0) -> None: ...

    def clip(self, text: str, width: int) -> str: ...


class DebugPanel:
    """The panel's state (open, the entry shown), its keys and its drawing."""

    def __init__(self, app: Host) -> None:
        self.app = app
        self.open = False
        self.travel = TimeTravel(app.app)   # the app store: one store for every screen

    def toggle(self) -> None:
        self.open = not self.open
        self.app.dirty = True

    def step(self, delta: int) -> None:
        """Moves ``delta`` entries back (negative) or forward from the shown one: the app store
        delivers that state like any other."""
        if self.travel.step(delta) is None:
            self.app.prompt = "no intents to step through yet"
        self.app.dirty = True

    # ------------------------------------------------------------------ keys

    def key(self, key: Any) -> None:
        """A key while the panel is open (it takes every key but the keymap's F12 and Ctrl-Q)."""
        if key == ESC:
            self.toggle()
        elif key in ("[", curses.KEY_LEFT, curses.KEY_UP):
            self.step(-1)
        elif key in ("]", curses.KEY_RIGHT, curses.KEY_DOWN):
            self.step(1)
        elif key == curses.KEY_HOME:
            self.step(-HISTORY)
        elif key == curses.KEY_END:
            self.step(HISTORY)
        elif key != curses.KEY_RESIZE:
            self.app.prompt = "debug panel: [ ] step, Esc or F12 closes"

    # ------------------------------------------------------------------ drawing

    @staticmethod
    def top(rows: int) -> int:
        """The panel's first row: the lower half of the screen, above the notice line."""
        return rows // 2

    def draw(self, rows: int, cols: int) -> None:
        """Draws the panel from ``top(rows)`` to the notice line (rows - 2, exclusive)."""
        top, bottom = self.top(rows), rows - 2
        for y in range(top, bottom):
            self.app.put(y, 0, " " * cols)  # over whatever the view drew there
        entries = self.travel.entries()
        index = self.travel.selected(entries)
        self.draw_header(top, cols, entries, index)
        self.app.put(top + 1, 1, HEADER_KEYS, curses.A_DIM)
        self.draw_entries(top + 2, bottom - top - 2, cols, entries, index)

    def draw_header(self, y: int, cols: int, entries: List[wire.HistoryEntry], index: int) -> None:
        line = self.app.glyphs.line
        # The latest: the newest entry that changed the state (re-reads after a revert that
        # changed nothing come after it and are not the present).
        shown = f"#{entries[index]['seq']} (time travel)" if self.travel.in_the_past else "the latest"
        count = f"{len(entries)} intent{'s' if len(entries) != 1 else ''}"
        title = f"Debug: {self.app.app.feature} store, {count}, showing {shown}"
        self.app.put(y, 0, f"{line * 2} {title} ".ljust(cols, line), curses.A_BOLD)

    def draw_entries(self, y: int, height: int, cols: int, entries: List[wire.HistoryEntry], index: int) -> None:
        if not entries:
            self.app.put(y, 2, "No intents yet (the runtime keeps the last "
                         f"{HISTORY} of each store).")
            return
        height = max(1, height)
        first = min(max(0, len(entries) - height), max(0, index))  # newest at the bottom, the selected in view
        for row, entry in enumerate(entries[first:first + height]):
            selected = first + row == index
            text = ("> " if selected else "  ") + entry_line(entry)
            self.app.put(y + row, 1, self.app.clip(text, cols - 2).ljust(cols - 2),
                         curses.A_REVERSE if selected else 0)
