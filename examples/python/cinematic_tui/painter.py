"""Drawing primitives and the parts every screen shares: the tab bar, the notice and status
lines, the help, movie rows and phase messages."""

from __future__ import annotations

import curses
from typing import List

from cinematic import wire

from .common import TABS
from .debug import FOOTER_KEYS, TOGGLE_KEYS
from .model import Model


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

    def draw_tabs(self, cols: int) -> None:
        x = 1
        self.put(0, x, "Cinematic", curses.A_BOLD)
        x += 11
        for i, name in enumerate(TABS):
            label = f" {name} "
            if name == "Favorites":
                favorites = self.state["favorites"]["favorites"]
                label = f" {name} ({len(favorites['value']) if favorites['phase'] == 'loaded' else 0}) "
            self.put(0, x, label, curses.A_REVERSE | curses.A_BOLD if i == self.tab else 0)
            x += len(label) + 1
        self.put(1, 0, self.glyphs.line * cols)

    def notice_line(self) -> str:
        """The line above the footer: the screen's own question or hint, else the app's
        notice (its words, with the key that acts on it)."""
        notice = self.state["notice"]
        if self.prompt or notice is None:
            return self.prompt
        undo = "Ctrl-Z" if self.state["tab"] == "search" and self.detail() is None else "u"
        hint = f"{undo} undoes" if notice["offersUndo"] else "" if notice["expires"] else "Ctrl-X hides this"
        return f"{notice['text']}  ({hint})" if hint else notice["text"]

    def draw_status(self, rows: int, cols: int) -> None:
        """The footer lists the keys of the screen; a notice shows on the line above it."""
        if self.debug.open:
            keys = FOOTER_KEYS
        elif self.detail() is not None:
            keys = "f favorite  q/Esc back  r retry  u undo  Tab tabs  ? help  Ctrl-Q quit"
        elif self.state["tab"] == "search":
            # "?" is a character of a query: it opens the help only when the box is empty.
            help_key = "? help when empty" if self.query else "? help"
            keys = f"Type  Enter search/open  Up/Dn move  Tab tabs  {help_key}  Ctrl-Q quit"
        elif self.state["tab"] == "discover":
            keys = "[ ] section  m more  r retry  Enter open  Tab tabs  ? help  q quit"
        else:
            keys = "Enter open  d remove (y confirms)  u undo  Tab tabs  ? help  q quit"
        notice = self.notice_line()
        if notice:   # above the footer, on as many lines as it takes (at most 4)
            import textwrap
            lines = textwrap.wrap(notice, cols - 1, break_on_hyphens=False)[:4]
            for i, line in enumerate(lines):
                self.put(rows - 1 - len(lines) + i, 0, line.ljust(cols), curses.A_BOLD)
        self.put(rows - 1, 0, keys.ljust(cols), curses.A_REVERSE)

    def draw_help(self, rows: int, cols: int) -> None:
        lines = [
            "Keys", "",
            "Tab, Shift-Tab, Left, Right   switch tabs (Search, Discover, Favorites)",
            "Up, Down, PgUp, PgDn, Home, End   move; Down at the end loads more",
            "Enter                          open the selected film; Search: search now",
            "                               when the results are not the query's",
            "typing, Backspace, Ctrl-U      edit the query (Search)",
            "[ ]  1-9  m  r                 Discover: section, more, retry",
            "d or Delete then y             Favorites: remove (y confirms)",
            "u (Ctrl-Z in Search)           undo the last removal, then the one before",
            "f, r                           Detail: toggle the favorite, retry",
            "q, Esc, Backspace              Detail: back",
            "Ctrl-X                         hide the notice",
            "F1 or ?                        this help (any key closes it); ? in Search only",
            "F2                             sort the rows: title, year, rating, votes, then back",
            "                               when the query is empty (else ? is typed)",
            f"{TOGGLE_KEYS + '  ':<31}debug panel: intents, [ ] step through them",
            "Ctrl-Q, or Esc then q          quit",
        ]
        for i, line in enumerate(lines):
            self.put(3 + i, 2, line, curses.A_BOLD if i == 0 else 0)

    def movie_row(self, movie: wire.Movie, cols: int) -> str:
        year = str(movie["year"] or "")
        rating = movie["rating"]
        minutes = movie["runtime"]
        genre_width = 20 if cols >= 76 else 12
        genres = self.clip(", ".join(movie["genres"]), genre_width)
        right = f"{year:>4}  {rating:4.1f}{self.glyphs.star}  {minutes:>3}m  {genres}"
        title_width = max(10, cols - 2 - 22 - genre_width)
        title = self.clip(movie["title"], title_width)
        return f" {title:<{title_width}} {right}"

    def clip(self, text: str, width: int) -> str:
        """``text`` cut to ``width`` characters, with an ellipsis when cut."""
        if len(text) <= width:
            return text
        return text[: max(0, width - len(self.glyphs.ellipsis))] + self.glyphs.ellipsis

    def draw_movies(self, top: int, height: int, cols: int, movies: List[wire.Movie], x: int = 0) -> None:
        """The tab's list, from its position in the state (scrolled as little as needed to
        show the selection on a screen smaller than the one that chose it), in the order F2
        chose (the selection is the app's index, wherever that row is shown)."""
        selection, first = self.position()
        height = max(1, height)
        order = self.shown_order(movies)
        shown = order.index(selection) if 0 <= selection < len(order) else min(selection, len(movies) - 1)
        if self.sort is not None:
            first = shown - height + 1   # the app's first row means nothing in another order
        first = min(max(first, shown - height + 1), max(0, shown), max(0, len(movies) - height))
        width = cols - x
        for row in range(height):
            i = max(0, first) + row
            if i >= len(movies):
                break
            line = self.movie_row(movies[order[i]], width).ljust(width)
            chosen = order[i] == selection
            if chosen:   # the selected row: reversed, and a pointer (visible without colour)
                line = self.glyphs.pointer + line[len(self.glyphs.pointer):]
            self.put(top + row, x, line, curses.A_REVERSE if chosen else 0)
