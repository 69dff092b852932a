"""The debug panel: the last intents of the app store, and time travel through them.

It reads ``store.history`` (the runtime keeps ``HISTORY`` entries per store) and shows one
line per reduced intent, newest at the bottom: ``#6 searchResult.resultsLoaded changed:
search`` and a short summary of the intent's arguments. Stepping calls ``store.revert(seq)``:
the app store delivers that past state like any other, and one step brings back every part
at once (the tab, the query, the lists, the open Details, the notice), so the screen above
the panel shows it. Closing the panel keeps the shown state; End (in the panel) returns to
the latest entry. The panel's keys are the keymap's "debug" screen ([ and ] step, Home and
End go to the oldest and the latest, Escape closes): its second line and the footer list them.
"""

from __future__ import annotations

import curses
from typing import TYPE_CHECKING, List

from cinematic import keymap, wire
from cinematic.timetravel import HISTORY, STEPS, TimeTravel, entry_line

if TYPE_CHECKING:
    from .painter import Painter


class DebugPanel:
    """The panel's state (open, the entry shown), its steps and its drawing. Its keys are the
    keymap's "debug" screen (the app's key handling looks them up while the panel is open)."""

    def __init__(self, app: "Painter") -> None:
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
        self.draw_header(top, cols, entries)
        steps = "   ".join(f"{b.keys[0]} {b.help}" for b in keymap.KEYMAP if b.host in STEPS)
        self.app.put(top + 1, 1, self.app.clip(steps, cols - 2), curses.A_DIM)
        self.draw_entries(top + 2, bottom - top - 2, cols, entries, index)

    def draw_header(self, y: int, cols: int, entries: List[wire.HistoryEntry]) -> None:
        """The panel's title line: the store, its intents and the one shown (``TimeTravel.caption``)."""
        line = self.app.glyphs.line
        self.app.put(y, 0, f"{line * 2} Debug: {self.travel.caption(entries)} ".ljust(cols, line), curses.A_BOLD)

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
