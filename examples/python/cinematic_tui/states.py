"""How each state of a list or a Detail is drawn: a skeleton while loading (rows shaped like
the films to come), what failed and what to do (with the key that tries again), a sentence
for an empty list, the search's hint, and the rating histogram on a fixed 0–100% scale. The
words are the ones the desktop app shows too (:mod:`cinematic.wording`)."""

from __future__ import annotations

import curses
import textwrap
from typing import List, Mapping, cast

from cinematic import wire, wording

from .common import phase_of
from .painter import Painter

#: Rows a skeleton shows at most.
SKELETON_ROWS = 6


class StatePainter(Painter):
    """Draws the states every screen shares."""

    def wrapped(self, y: int, x: int, text: str, width: int, most: int, attr: int = 0) -> int:
        """``text`` wrapped to ``width`` on at most ``most`` lines from row ``y``; the rows used."""
        if most <= 0:
            return 0
        lines = textwrap.wrap(self.text(text), max(10, width), break_on_hyphens=False)[:most]
        for i, line in enumerate(lines):
            self.put(y + i, x, line, attr)
        return len(lines)

    def draw_skeleton(self, y: int, x: int, cols: int, rows: int, what: str) -> None:
        """"Loading what…", then grey rows shaped like movie rows (title, year, rating)."""
        self.put(y, x, f"Loading {what}{self.glyphs.ellipsis}", curses.A_BOLD)
        width = max(10, cols - x - 2)
        for i in range(min(SKELETON_ROWS, max(0, rows - 1))):
            title = self.glyphs.shade * max(4, width // 2 - (i * 7) % 13)
            row = f"{title:<{width // 2 + 1}} {self.glyphs.shade * 4}  {self.glyphs.shade * 4}"
            self.put(y + 1 + i, x, row[:width], curses.A_DIM)

    def draw_failure(self, y: int, x: int, cols: int, prefix: str, error: Mapping[str, object],
                     retry_key: str) -> int:
        """What failed (``prefix``: "Search failed"), what the person can do, and the key that
        tries again on a line of its own; the rows used."""
        said, advice = wording.failure(prefix, error, retry_key, self.live_url)
        used = self.wrapped(y, x, said, cols - x - 1, 2)
        used += self.wrapped(y + used, x, advice.rsplit(";", 1)[0] + ".", cols - x - 1, 2)
        self.put(y + used, x, f"{retry_key} tries again", curses.A_BOLD)
        return used + 1

    def draw_phase(self, y: int, x: int, cols: int, rows: int, phase: Mapping[str, object], what: str,
                   prefix: str, retry_key: str = "") -> bool:
        """A loading (skeleton) or failed phase; True when it drew one."""
        name = phase_of(phase)
        if name in ("loading", "idle"):
            self.draw_skeleton(y, x, cols, rows, what)
        elif name == "failed":
            error = cast(wire.FailedPhase, phase)["error"]
            if retry_key:
                self.draw_failure(y, x, cols, prefix, error, retry_key)
            else:
                self.wrapped(y, x, wording.failure(prefix, error, "", self.live_url)[0], cols - x - 1, 2)
        else:
            return False
        return True

    def draw_histogram(self, y: int, cols: int, rows: int, distribution: List[float]) -> None:
        """Ten bars, 10 stars on top, each the share's part of a fixed 0–100% track (a 14.5%
        share fills 14.5% of it), the percentage after it, then the note on the figures."""
        self.put(y, 2, wording.HISTOGRAM_HEADING, curses.A_BOLD)
        shares = wording.histogram(distribution)
        if not shares:
            self.put(y + 1, 2, "no votes")
            return
        track = max(10, cols - 16)
        for i, (stars, share) in enumerate(shares):
            row = y + 1 + i
            cells = wording.bar_fraction(share) * track
            bar = self.glyphs.bar * int(cells) + (self.glyphs.half if cells - int(cells) >= 0.5 else "")
            self.put(row, 2, f"{stars:>2}{self.glyphs.star} ")
            self.put(row, 7, bar)
            self.put(row, 7 + len(bar), self.glyphs.track * (track - len(bar)), curses.A_DIM)
            self.put(row, 8 + track, f"{share:5.1f}%")
        self.wrapped(y + 1 + len(shares), 2, wording.HISTOGRAM_NOTE, cols - 4, max(0, rows - 2 - (y + 1 + len(shares))))

    def histogram_fits(self, y: int, rows: int) -> bool:
        """True when heading, ten bars and one line of the note fit above the notice and footer."""
        return y + 12 <= rows - 2

    def empty(self, y: int, x: int, cols: int, text: str, attr: int = 0) -> None:
        self.wrapped(y, x, text, cols - x - 2, 3, attr)

    def offline_or_live(self, phase: Mapping[str, object]) -> str:
        """The source note of a loaded value (source and time when offline)."""
        return wording.source_note(phase, self.live_url)

    def note_attr(self, note: str) -> int:
        return curses.A_BOLD if note.startswith("offline") else curses.A_DIM
