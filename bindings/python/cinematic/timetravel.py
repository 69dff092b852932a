"""Stepping through a store's history: the model of a debug panel's time travel, the same in
every host (the terminal app's panel, the desktop app's dock).

    travel = TimeTravel(app)          # app: a store opened with history (runtime config "history")
    travel.step(-1)                   # one intent back: the store takes that state (one revert)
    travel.selected()                 # the index of the entry shown, in travel.entries()
    travel.caption()                  # "app store, 5 intents, showing #4 (time travel)"
    travel.step(+1)                   # forward again; the newest entry un-pins the view
    travel.step(STEPS[binding.host])  # a key of the panel (the keymap's "debug" screen)
"""

from __future__ import annotations

import json
import sys
from typing import Any, Dict, List, Mapping, Optional, Tuple

from . import wire
from .errors import ClosedError, InvalidError
from .store import Store

__all__ = ["HISTORY", "STEPS", "TimeTravel", "entry_line", "summarize"]

#: The history a debug panel asks the runtime to keep per store (runtime config ``history``).
HISTORY = 200
#: How far each of the debug panel's keys travels (the keymap's host bindings on its "debug"
#: screen): one entry back or forward, or to either end of the history.
STEPS: Dict[str, int] = {"stepBack": -1, "stepForward": 1, "oldest": -sys.maxsize, "latest": sys.maxsize}


class TimeTravel:
    """Where a person is in ``store``'s history: the entry shown (the newest, or one they
    travelled back to, which stays shown until a newer intent arrives) and the steps to
    another."""

    def __init__(self, store: "Store[Any]") -> None:
        self.store = store
        #: The entry travelled to and the newest entry at that moment; None: the newest.
        self._pin: Optional[Tuple[int, int]] = None

    @staticmethod
    def _newest(entries: List[wire.HistoryEntry]) -> int:
        """The seq of the newest entry that changed the state: an intent that changed nothing
        (the favorites read again after a revert, and found as they were) is not a newer
        present."""
        for entry in reversed(entries):
            if entry.get("changed"):
                return int(entry["seq"])
        return int(entries[-1]["seq"]) if entries else 0

    @property
    def in_the_past(self) -> bool:
        """True while an entry older than the newest is shown (until a newer intent that
        changes the state arrives, or the newest is travelled to)."""
        entries = self.entries()
        return self._pin is not None and bool(entries) and self._pin[1] == self._newest(entries)

    def entries(self) -> List[wire.HistoryEntry]:
        """The store's history, oldest first (empty once the store is closed)."""
        try:
            return list(self.store.history)
        except ClosedError:
            return []

    def selected(self, entries: Optional[List[wire.HistoryEntry]] = None) -> int:
        """The index of the entry shown: the one travelled to while no newer intent changed the
        state, else the newest that changed it (-1 when the history is empty)."""
        entries = self.entries() if entries is None else entries
        newest = self._newest(entries)
        shown = self._pin[0] if self._pin is not None and entries and self._pin[1] == newest else newest
        for index, entry in enumerate(entries):
            if entry["seq"] == shown:
                return index
        return len(entries) - 1

    def caption(self, entries: Optional[List[wire.HistoryEntry]] = None) -> str:
        """What a debug panel's title says, the same words in every host: ``app store, 5
        intents, showing the latest`` or ``..., showing #3 (time travel)``."""
        entries = self.entries() if entries is None else entries
        shown = f"#{entries[self.selected(entries)]['seq']} (time travel)" if self.in_the_past else "the latest"
        return f"{self.store.feature} store, {len(entries)} intent{'' if len(entries) == 1 else 's'}, showing {shown}"

    def step(self, delta: int) -> Optional[wire.HistoryEntry]:
        """Travels ``delta`` entries back (negative) or forward from the one shown; the entry
        now shown, or None when there is nothing to step through."""
        entries = self.entries()
        if not entries:
            return None
        return self.go(max(0, min(len(entries) - 1, self.selected(entries) + delta)), entries)

    def go(self, index: int, entries: Optional[List[wire.HistoryEntry]] = None) -> Optional[wire.HistoryEntry]:
        """Time travel: the store takes the state after ``entries[index]`` (one revert); the
        entry, or None when it is no longer in the history (nothing changes)."""
        entries = self.entries() if entries is None else entries
        if not 0 <= index < len(entries):
            return None
        entry, latest = entries[index], self._newest(entries)
        if entry["seq"] > latest:   # past the newest change (a read that changed nothing): the present itself
            entry = next(e for e in entries if e["seq"] == latest)
        try:
            self.store.revert(entry["seq"])
        except InvalidError:
            return None
        self._pin = None if entry["seq"] == latest else (entry["seq"], latest)
        return entry


def summarize(intent: "Mapping[str, object]") -> str:
    """An intent's arguments in short: ``query="dune" page=1 movies=[20]``."""
    parts = []
    for name, value in intent.items():
        if name == "type":
            continue
        if isinstance(value, str):
            shown = json.dumps(value, ensure_ascii=False)
        elif isinstance(value, list):
            shown = f"[{len(value)}]"
        elif isinstance(value, dict):
            shown = "{...}"
        else:
            shown = json.dumps(value)
        parts.append(f"{name}={shown}")
    return " ".join(parts)


def entry_line(entry: wire.HistoryEntry) -> str:
    """``#seq type changed: a, b  arguments`` for one history entry, the same words in every
    host; an intent for a part of the app shows as ``part.type`` with the part's intent's
    arguments (``#5 searchResult.resultsLoaded changed: search  query="dune" page=1 movies=[20]``)."""
    intent: Mapping[str, object] = entry["intent"]
    name = str(intent.get("type", "?"))
    inner = intent.get("intent")
    if isinstance(inner, dict):
        name += f".{inner.get('type', '?')}"
        intent = {**{k: v for k, v in intent.items() if k != "intent"}, **inner}
    changed = ", ".join(entry["changed"]) or "nothing"
    line = f"#{entry['seq']} {name} changed: {changed}"
    arguments = summarize(intent)
    return f"{line}  {arguments}" if arguments else line
