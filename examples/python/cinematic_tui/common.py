"""What every part of the terminal app shares: layout constants, glyphs, the tabs, default
paths and small readers of the schema's phases."""

from __future__ import annotations

from typing import List, Mapping, Optional, Tuple

from cinematic import wire

#: The tabs as the app state names them (wire ``appTab``), and as the tab bar shows them.
TAB_IDS: Tuple[wire.AppTab, ...] = ("search", "discover", "favorites")
TABS = ("Search", "Discover", "Favorites")
MIN_COLS, MIN_ROWS = 60, 18
CTRL_Q, CTRL_C, CTRL_U, CTRL_X, CTRL_Z, ESC = 17, 3, 21, 24, 26, 27


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


def phase_of(value: Optional[Mapping[str, object]]) -> str:
    phase = value.get("phase", "idle") if value is not None else "idle"
    return phase if isinstance(phase, str) else "idle"


def movies_of(value: Optional[wire.MoviesPhase]) -> List[wire.Movie]:
    """The movies of a loaded phase (the schema's moviesPhase), else none."""
    if value is not None and value["phase"] == "loaded":
        return value["value"]
    return []


def money(amount: Optional[int]) -> str:
    return "unknown" if amount is None else f"${amount:,}"
