"""The screens: Search, Discover and Favorites (the tabs) and Detail, and the frame that
chooses between them."""

from __future__ import annotations

import curses
from typing import cast

from cinematic import wire
from cinematic import wording

from .common import MIN_COLS, MIN_ROWS, money, movies_of, phase_of
from .states import StatePainter


class Screens(StatePainter):
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
        """The shown Detail, or the current tab, on the screen's first ``rows`` rows."""
        if self.detail() is not None:
            self.draw_detail(rows, cols)
        elif self.state["tab"] == "search":
            self.draw_search(rows, cols)
        elif self.state["tab"] == "discover":
            self.draw_discover(rows, cols)
        else:
            self.draw_favorites(rows, cols)

    def draw_search(self, rows: int, cols: int) -> None:
        search = self.state["search"]
        results = search["results"]
        phase = phase_of(results)
        searchable = len(self.query.strip()) >= 2
        # Results of another query than the box's: typed since, so a search is coming (every
        # query typed is searched after the debounce), unless time travel shows a past state.
        stale = searchable and phase not in ("loading", "failed") and not self.results_are_current()
        self.put(2, 1, "Search: ", curses.A_BOLD)
        room = max(10, cols - 9 - 24)  # the status on the right keeps its place
        shown = self.query + "_"
        if len(shown) > room:
            shown = self.glyphs.ellipsis + shown[-(room - len(self.glyphs.ellipsis)):]
        self.put(2, 9, shown)
        status = ""
        if phase == "loading" or (stale and not self.showing_past):
            status = f"searching{self.glyphs.ellipsis}"
        elif stale:
            status = "Enter searches"
        elif phase == "loaded":
            status = wording.count_text(len(movies_of(results)), search)
            if search["isLoadingMore"]:
                status = f"{len(movies_of(results))} shown, loading{self.glyphs.ellipsis}"
            elif search["loadMoreError"]:
                status += ", more failed (Enter tries again)"
        elif phase == "failed":
            status = f"failed: {cast(wire.FailedPhase, results)['error']['code']}"
        self.put(2, cols - len(status) - 2, status, curses.A_DIM if status.startswith("searching") else 0)
        note = self.offline_or_live(results)
        if note:
            self.put(3, 2, self.clip(note, cols - 4), self.note_attr(note))
        top = 3 + (1 if note else 0)
        for i, line in enumerate(self.hint_lines(cols)):
            self.put(top + i, 2, line, curses.A_BOLD)
        top = self.list_top()
        movies = movies_of(results)
        if movies:
            self.draw_movies(top, rows - top - 1, cols, movies)
        elif phase == "failed":
            self.draw_failure(top, 2, cols, "Search failed", cast(wire.FailedPhase, results)["error"], "Enter")
        elif phase == "loading":
            self.draw_skeleton(top, 2, cols, rows - top - 2, f"results for “{self.query.strip()}”")
        elif phase == "loaded":
            self.empty(top, 2, cols, wording.search_empty(cast(wire.ResultsLoaded, results)["query"]))
        elif not searchable:
            self.empty(top, 2, cols, wording.SEARCH_IDLE)

    def draw_discover(self, rows: int, cols: int) -> None:
        sections = self.state["discover"]["sections"]
        side = 14
        for i, entry in enumerate(sections):
            label = f"{i + 1} {entry['title']}"
            busy = phase_of(entry["movies"]) == "loading" or entry["isLoadingMore"]
            if busy:
                label += self.glyphs.ellipsis
            chosen = entry["section"] == self.state["section"]
            self.put(3 + i, 1, label[: side - 1].ljust(side - 1), curses.A_REVERSE if chosen else 0)
        section = self.current_section()
        if section is None:
            return
        movies_phase = section["movies"]
        title = section["title"]
        phase = phase_of(movies_phase)
        if phase == "failed":
            info = f"{title}: could not load"
        elif phase != "loaded":
            info = f"{title}: loading{self.glyphs.ellipsis}"
        else:
            info = f"{title}: {wording.count_text(len(movies_of(movies_phase)), section)}"
        if section["isLoadingMore"]:
            info += f", loading more{self.glyphs.ellipsis}"
        error = section["loadMoreError"]
        if error:
            info += f", more failed: {error['code']} (r tries again)"
        note = self.offline_or_live(movies_phase)
        if note and "offline" in note:
            info += f" ({note})"
        # From the left edge (the section list starts a row lower): room for the offline note.
        self.put(2, 1, self.clip(info, cols - 2), curses.A_BOLD)
        if not self.draw_phase(4, side + 2, cols, rows - 6, movies_phase, title, f"Could not load {title}", "r"):
            movies = movies_of(movies_phase)
            if movies:
                self.draw_movies(3, rows - 4, cols, movies, x=side)
            else:
                self.empty(4, side + 2, cols, wording.section_empty(title))

    def draw_favorites(self, rows: int, cols: int) -> None:
        favorites = self.state["favorites"]["favorites"]
        error = self.state["favorites"]["removalError"]
        if error:
            self.put(2, 1, self.clip(f"Could not remove: {error['code']}: {error['message']}", cols - 2), curses.A_BOLD)
        else:
            self.put(2, 1, "Your favorites", curses.A_BOLD)
        if self.draw_phase(4, 2, cols, rows - 6, favorites, "favorites", "Could not load the favorites"):
            return
        movies = self.current_list()
        if movies:
            self.draw_movies(4, rows - 5, cols, movies)
        else:
            self.empty(4, 2, cols, wording.favorites_empty("f"))

    def draw_detail(self, rows: int, cols: int) -> None:
        state = self.detail()
        if state is None:
            return
        detail = state["detail"]
        loaded = cast(wire.DetailLoaded, detail)["value"] if phase_of(detail) == "loaded" else None
        heart = (f"{self.glyphs.star} Favorite" if state["isFavorite"]
                 else f"{self.glyphs.hollow} Not a favorite (f to add)")
        if state["isSaving"]:
            heart = f"saving{self.glyphs.ellipsis} {heart}"
        shown = loaded or state["listing"]
        # The full title, wrapped (the heart keeps the right of the first line).
        top = 2
        if shown:
            top += self.wrapped(2, 1, f"{shown['title']} ({shown['year']})", cols - len(heart) - 5, 3, curses.A_BOLD) - 1
        else:
            self.put(2, 1, f"Film #{state['movieId']}", curses.A_BOLD)
        self.put(2, cols - len(heart) - 2, heart, curses.A_BOLD if state["isFavorite"] else 0)
        note = self.offline_or_live(detail)
        if note and "offline" in note:
            top += 1
            self.put(top, 1, self.clip(note, cols - 2), curses.A_BOLD)
        error = state["favoriteError"]
        if error:
            top += 1
            self.put(top, 1, self.clip(f"Could not save the favorite: {error['code']}: {error['message']}", cols - 2))
        if loaded is None and state["listing"] is not None and phase_of(detail) == "failed":
            # The row the film was opened from, and the heart still works (f).
            listing = state["listing"]
            self.put(top + 2, 2, f"Rating   {listing['rating']:.1f}/10 from {listing['votes']:,} votes")
            top += 2
        if self.draw_phase(top + 2, 2, cols, rows - top - 4, detail, "the detail", "Could not load the detail", "r"):
            return
        if loaded is None:
            return
        movie = loaded
        genres = ", ".join(movie["genres"]) or "none listed"
        mpaa = movie["mpaa"] or "unknown"   # the catalog does not know it (not "not rated")
        base = top + 2
        self.put(base, 2, self.clip(f"Runtime  {movie['runtime']} min    Genres  {genres}    MPAA  {mpaa}", cols - 4))
        self.put(base + 1, 2, f"Budget   {money(movie['budget'])}")
        self.put(base + 2, 2, f"Rating   {movie['rating']:.1f}/10 from {movie['votes']:,} votes")
        self.draw_histogram(base + 4, cols, rows, [float(x) for x in movie["ratingDistribution"]])
