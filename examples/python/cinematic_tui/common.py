"""What every part of the terminal app shares: layout constants and glyphs."""

from __future__ import annotations

MIN_COLS, MIN_ROWS = 60, 18
#: Discover's section list, left of its rows.
SIDE = 14


class Glyphs:
    """Characters for the terminal's encoding (UTF-8 or plain ASCII)."""

    def __init__(self, utf8: bool) -> None:
        self.utf8 = utf8
        self.star = "★" if utf8 else "*"
        self.hollow = "☆" if utf8 else "o"
        self.bar = "█" if utf8 else "#"
        self.half = "▌" if utf8 else "|"
        self.ellipsis = "…" if utf8 else "..."
        self.line = "─" if utf8 else "-"
        self.shade = "░" if utf8 else "."      # a skeleton's placeholder
        self.track = "·" if utf8 else "."      # the rest of a histogram bar's 0–100% track
        self.pointer = "▶" if utf8 else ">"    # the selected row (visible without colour)
