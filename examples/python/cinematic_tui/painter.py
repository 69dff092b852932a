"""Drawing primitives and the parts every screen shares: the tab bar, the header, the notice
and footer lines, the help, the list's rows and the message shown instead of them. Every word
comes from the state's ``view`` (the library's), the notice, or the keymap."""

from __future__ import annotations

import curses
import textwrap
from typing import Dict, List, Optional

from cinematic import keymap, wire
from cinematic.timetravel import STEPS

from .model import Model

#: Rows a skeleton shows at most.
SKELETON_ROWS = 6


class Painter(Model):
    """Puts text on the curses screen; draws what every screen shares."""

    def put(self, y: int, x: int, text: str, attr: int = 0) -> None:
        rows, cols = self.screen.getmaxyx()
        if y < 0 or y >= rows or x >= cols:
            return
        text = self.text(text)[: max(0, cols - x - (1 if y == rows - 1 else 0))]
        try:
            self.screen.addstr(y, x, text, attr)
        except curses.error:
            pass

    def clip(self, text: str, width: int) -> str:
        """``text`` cut to ``width`` characters, with an ellipsis when cut."""
        if len(text) <= width:
            return text
        return text[: max(0, width - len(self.glyphs.ellipsis))] + self.glyphs.ellipsis

    def draw_wrapped(self, y: int, x: int, text: str, width: int, most: int, attr: int = 0) -> int:
        """``text`` wrapped to ``width`` on at most ``most`` lines from row ``y``; the rows used."""
        lines = textwrap.wrap(self.text(text), max(10, width), break_on_hyphens=False)[:max(0, most)]
        for i, line in enumerate(lines):
            self.put(y + i, x, line, attr)
        return len(lines)

    def draw_tabs(self, cols: int) -> None:
        """The tab bar (the view's tabs, the chosen one reversed) and how rows are sorted."""
        x = 1
        self.put(0, x, "Cinematic", curses.A_BOLD)
        x += 11
        for tab in self.view["tabs"]:
            label = f" {tab['title']} "
            self.put(0, x, label, curses.A_REVERSE | curses.A_BOLD if tab["chosen"] else 0)
            x += len(label) + 1
        if self.view["sort"] != "default":
            self.put(0, x + 1, self.clip(self.view["sortLabel"], cols - x - 2), curses.A_DIM)
        self.put(1, 0, self.glyphs.line * cols)

    def draw_header(self, cols: int) -> None:
        """Row 2: the Search field or the view's title, its status (or the heart) on the right;
        under it the source note and the search's hint."""
        view = self.view
        right = view["list"]["status"] if view["list"] is not None else ""
        if view["detail"] is not None:
            right = f"{self.glyphs.star if view['detail']['isFavorite'] else self.glyphs.hollow} {view['detail']['heart']}"
        self.put(2, cols - len(right) - 2, right, curses.A_BOLD if view["detail"] is not None else 0)
        room = max(10, cols - len(right) - 6)
        if view["screen"] == "search":
            shown = view["query"] + "_"
            if len(shown) > room - 8:
                shown = self.glyphs.ellipsis + shown[-(room - 8 - len(self.glyphs.ellipsis)):]
            self.put(2, 1, "Search: ", curses.A_BOLD)
            self.put(2, 9, shown)
        else:
            self.put(2, 1, self.clip(view["title"], room), curses.A_BOLD)
        y = 3
        if view["source"]:
            self.put(y, 2, self.clip(view["source"], cols - 4), curses.A_BOLD)
            y += 1
        for line in self.hint_lines(cols):
            self.put(y, 2, line, curses.A_BOLD)
            y += 1

    def draw_status(self, rows: int, cols: int) -> None:
        """The footer: the host's own keys on the keys' screen, from the keymap (each host's
        first; the help lists the rest); the notice (or the screen's own line) above it, on as
        many lines as it takes (at most 4)."""
        hosts: Dict[str, str] = {}
        for b in keymap.KEYMAP:
            if b.host is not None and b.host not in STEPS and self.keys_screen in b.screens:
                hosts.setdefault(b.host, f"{b.keys[0]} {b.help}")
        keys = "   ".join(hosts.values())
        notice: Optional[wire.AppNotice] = self.state["notice"]
        said = self.prompt or (notice["text"] if notice is not None else "")
        lines = textwrap.wrap(self.text(said), cols - 1, break_on_hyphens=False)[:4]
        for i, line in enumerate(lines):
            self.put(rows - 1 - len(lines) + i, 0, line.ljust(cols), curses.A_BOLD)
        self.put(rows - 1, 0, keys.ljust(cols), curses.A_REVERSE)

    def draw_help(self, rows: int, cols: int) -> None:
        """The keymap's keys for the screen shown, or the debug panel's (any key closes the help)."""
        self.put(3, 2, f"Keys: {'the debug panel' if self.debug.open else self.view['title']}", curses.A_BOLD)
        for i, (keys, what) in enumerate(keymap.help_lines(self.keys_screen)):
            self.put(5 + i, 2, self.clip(f"{keys:<12}{what}", cols - 4))

    def draw_rows(self, top: int, height: int, x: int, cols: int, rows: List[wire.AppRowView]) -> None:
        """The rows in view (the library chose them and the selection); the selected one is
        reversed and starts with a pointer (visible without colour)."""
        width = cols - x
        genre_width = 20 if width >= 76 else 12
        title_width = max(10, width - 15 - genre_width)
        for i, row in enumerate(rows[:max(0, height)]):
            title = self.clip(row["title"], title_width)
            genres = self.clip(row["genres"], genre_width)
            line = f" {title:<{title_width}} {row['year']:>4}  {row['rating']:>4}{self.glyphs.star}  {genres}".ljust(width)
            if row["selected"]:
                line = self.glyphs.pointer + line[len(self.glyphs.pointer):]
            self.put(top + i, x, line, curses.A_REVERSE if row["selected"] else 0)

    def draw_message(self, y: int, x: int, cols: int, height: int, message: wire.AppMessage) -> None:
        """What is shown instead of rows or facts: its heading, what to do, and grey rows
        shaped like films while loading."""
        used = self.draw_wrapped(y, x, message["heading"], cols - x - 2, 2, curses.A_BOLD)
        used += self.draw_wrapped(y + used, x, message["body"], cols - x - 2, 3)
        if message["kind"] != "loading":
            return
        width = max(10, cols - x - 2)
        for i in range(min(SKELETON_ROWS, max(0, height - used))):
            title = self.glyphs.shade * max(4, width // 2 - (i * 7) % 13)
            row = f"{title:<{width // 2 + 1}} {self.glyphs.shade * 4}  {self.glyphs.shade * 4}"
            self.put(y + used + i, x, row[:width], curses.A_DIM)
