"""Saving the app's snapshot (mixed into :class:`.resume.Session`): debounced after each
settled change, and once more on every way out.

After a change, the snapshot is saved once nothing changed for ``QUIET`` seconds and Search
and Discover have settled (no effect running), or at the latest ``MAX_DELAY`` seconds after
the first unsaved change. The select loop waits on :meth:`Autosave.timeout`, so nothing polls.
``CINEMATIC_TUI_SAVE_QUIET_MS`` sets ``QUIET`` (``MAX_DELAY`` is then at least 8 times it).
"""

from __future__ import annotations

import os
import time
from typing import TYPE_CHECKING, Optional

import cinematic

from .saved import Foreign, StateFile

if TYPE_CHECKING:
    from .model import Model

#: Seconds without a change before a change is saved, and the longest a change waits.
QUIET, MAX_DELAY = 0.25, 2.0


class Autosave:
    """The saves of one run (the state file's writer)."""

    file: StateFile
    app: Optional["Model"]
    note: Optional[str]
    writable: bool

    def init_autosave(self) -> None:
        self.last_text: Optional[str] = None      # what the file holds (as far as we wrote it)
        self.first_change: Optional[float] = None
        self.last_change = 0.0
        self.pending_text: Optional[str] = None
        self.saves = 0
        self.quiet, self.max_delay = QUIET, MAX_DELAY
        quiet_ms = os.environ.get("CINEMATIC_TUI_SAVE_QUIET_MS", "")
        if quiet_ms.isdigit():
            self.quiet = int(quiet_ms) / 1000
            self.max_delay = max(MAX_DELAY, 8 * self.quiet)

    def capture(self) -> Optional[str]:
        raise NotImplementedError

    def hold_positions(self) -> None:
        raise NotImplementedError

    def settled(self) -> bool:
        """True when neither Search nor Discover runs an effect (Favorites and Detail keep
        observing: they never settle)."""
        app = self.app
        stores = [app.search, app.discover] if app is not None else []
        try:
            return all(store.pending_effects == 0 for store in stores if store is not None)
        except cinematic.CinematicError:
            return True

    def tick(self, now: Optional[float] = None) -> None:
        """After the loop handled something: notes a change, saves once it is due."""
        if not self.writable or self.app is None:
            return
        now = time.monotonic() if now is None else now
        self.hold_positions()
        try:
            text = self.capture()
        except cinematic.CinematicError:
            return  # a store closing under us: the next tick sees the app as it is then
        if text == self.last_text:
            self.first_change = None
            return
        if self.first_change is None:
            self.first_change = now
            self.last_change = now
            self.pending_text = text
        elif text != self.pending_text:
            self.last_change = now
            self.pending_text = text
        # Saved once settled and quiet, or at the latest MAX_DELAY after the first change.
        if (now - self.last_change >= self.quiet and self.settled()) or now - self.first_change >= self.max_delay:
            self.save(text)

    def timeout(self, now: Optional[float] = None) -> Optional[float]:
        """Seconds until an unsaved change is due (the loop's select timeout), else None."""
        if self.first_change is None or not self.writable:
            return None
        now = time.monotonic() if now is None else now
        latest = self.first_change + self.max_delay
        quiet = self.last_change + self.quiet
        # Quiet but not settled: the states that settle it wake the loop; MAX_DELAY bounds it.
        due = latest if quiet <= now and not self.settled() else min(quiet, latest)
        return max(0.0, due - now)

    def save(self, text: Optional[str] = None) -> None:
        """Writes ``text`` (default: the app as it is now) when it differs from the file."""
        if not self.writable:
            return
        text = self.capture() if text is None else text
        if text is None or text == self.last_text:
            return
        try:
            self.file.write(text)
        except Foreign as foreign:
            self.writable = False
            self.note = f"State file left untouched, not saving: {foreign}"
            if self.app is not None:
                self.app.notice, self.app.dirty = self.note, True
            return
        except OSError as error:
            self.note = f"Could not save the state file: {error.strerror or error}"
            if self.app is not None:
                self.app.notice, self.app.dirty = self.note, True
            self.first_change = None  # tried; the next change tries again
            return
        self.last_text, self.first_change, self.pending_text = text, None, None
        self.saves += 1

    def save_final(self) -> None:
        """On the way out (every way: quit keys, stop signals, an exception): the last save."""
        try:
            self.save()
        except cinematic.CinematicError as error:  # the runtime already failed: keep the old file
            self.note = f"could not save on exit: {error.message}"
