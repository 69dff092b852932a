"""The screens: the shown list (Search, Discover, Favorites) and the Detail, and the frame
that chooses between them. Everything drawn is the state's ``view``: the rows in view, the
selection, the status line, the message instead of rows, the Detail's facts, heart and
histogram (each bar the share's fraction of a fixed 0–100% track)."""

from __future__ import annotations

import curses

from cinematic import wire

from .common import MIN_COLS, MIN_ROWS, SIDE
from .painter import Painter


class Screens(Painter):
    """Renders the screen: the frame, then the view the app shows."""

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
        self.fit_list(rows, cols)
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
        """The view on the screen's first ``rows`` rows (the last two: notice and footer)."""
        self.draw_header(cols)
        top = self.list_top(cols)
        shown = self.view["list"]
        if self.view["detail"] is not None:
            self.draw_detail(top, rows, cols, self.view["detail"])
        elif shown is not None:
            x = SIDE if self.view["screen"] == "discover" else 0
            if x:
                self.draw_sections(top, rows)
            if shown["message"] is not None:
                self.draw_message(top, x + 2, cols, rows - top - 2, shown["message"])
            else:
                self.draw_rows(top, rows - top - 2, x, cols, shown["rows"])

    def draw_sections(self, top: int, rows: int) -> None:
        """Discover's sections, the shown one reversed (Left and Right switch)."""
        for i, section in enumerate(self.view["sections"][:max(0, rows - top - 2)]):
            attr = curses.A_REVERSE if section["chosen"] else 0
            self.put(top + i, 1, self.clip(section["title"], SIDE - 2).ljust(SIDE - 2), attr)

    def draw_detail(self, top: int, rows: int, cols: int, detail: wire.AppDetailView) -> None:
        """The facts, two to a row; the message while loading or failed; the histogram."""
        half = (cols - 4) // 2
        facts = detail["facts"]
        for i, fact in enumerate(facts):
            self.put(top + i // 2, 2 + (i % 2) * half, self.clip(f"{fact['label']:<9}{fact['value']}", half - 2))
        y = top + (len(facts) + 1) // 2 + (1 if facts else 0)
        if detail["message"] is not None:
            self.draw_message(y, 2, cols, rows - y - 2, detail["message"])
            return
        histogram = detail["histogram"]
        if histogram is not None:
            self.draw_histogram(y, rows, cols, histogram)

    def draw_histogram(self, y: int, rows: int, cols: int, histogram: wire.AppHistogram) -> None:
        """The heading, a bar per star rating (its fraction of a fixed track), its label, and
        the note on what the figures mean, in the rows left above the notice line."""
        self.put(y, 2, self.clip(histogram["heading"], cols - 4), curses.A_BOLD)
        track = max(10, cols - 16)
        bars = histogram["bars"][:max(0, rows - 3 - y)]
        for i, bar in enumerate(bars):
            cells = bar["fraction"] * track
            filled = self.glyphs.bar * int(cells) + (self.glyphs.half if cells - int(cells) >= 0.5 else "")
            row = y + 1 + i
            self.put(row, 2, f"{bar['starsLabel']:>3} ")
            self.put(row, 7, filled)
            self.put(row, 7 + len(filled), self.glyphs.track * (track - len(filled)), curses.A_DIM)
            self.put(row, 8 + track, f"{bar['label']:>6}")
        below = y + 1 + len(bars)
        self.draw_wrapped(below, 2, histogram["note"], cols - 4, rows - 2 - below)
