"""What every part of the terminal app shares: layout constants, glyphs, list cursors and
small readers of the schema's phases."""

from __future__ import annotations

import os
from pathlib import Path
from typing import List, Mapping, Optional

from cinematic import wire

TABS = ("Search", "Discover", "Favorites")
MIN_COLS, MIN_ROWS = 60, 18
CTRL_Q, CTRL_C, CTRL_U, ESC = 17, 3, 21, 27
#: The longest query the library searches (include/cinematic.h: 256 characters and 1024
#: UTF-8 bytes; a longer one is CINEMATIC_ERR_INVALID). The search box stops there.
MAX_QUERY_CHARACTERS, MAX_QUERY_BYTES = 256, 1024


def query_fits(query: str) -> bool:
    """True when the library accepts ``query``: at most 256 characters (code points, which
    are never fewer than the library's grapheme count) and 1024 UTF-8 bytes."""
    return len(query) <= MAX_QUERY_CHARACTERS and len(query.encode("utf-8", "surrogatepass")) <= MAX_QUERY_BYTES


def favorites_path() -> Path:
    """$XDG_DATA_HOME/cinematic/favorites.sqlite, else ~/.local/share/cinematic/."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "cinematic" / "favorites.sqlite"


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
        self.dot = "·" if utf8 else "|"


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


class ListCursor:
    """A selection and scroll offset over a list of some length."""

    def __init__(self) -> None:
        self.index = 0
        self.offset = 0

    def clamp(self, length: int, height: int) -> None:
        self.index = max(0, min(self.index, length - 1)) if length else 0
        height = max(1, height)
        if self.index < self.offset:
            self.offset = self.index
        elif self.index >= self.offset + height:
            self.offset = self.index - height + 1
        self.offset = max(0, min(self.offset, max(0, length - height)))

    def move(self, delta: int, length: int) -> None:
        if length:
            self.index = max(0, min(length - 1, self.index + delta))
