"""The debug panel: the last intents of the app store, and time travel through them.

It reads ``store.history`` (the runtime keeps ``HISTORY`` entries per store) and shows one
line per reduced intent, newest at the bottom: ``#6 searchResult.resultsLoaded changed:
search`` and a short summary of the intent's arguments. Stepping calls ``store.revert(seq)``:
the app store delivers that past state like any other, and one step brings back every part
at once (the tab, the query, the lists, the open Details, the notice), so the screen above
the panel shows it. Closing the panel keeps the shown state; End (in the panel) returns to
the latest entry.
"""

from __future__ import annotations

import curses
import json
from typing import Any, List, Mapping, NamedTuple, Optional, Protocol

import cinematic
from cinematic import wire

from .common import Glyphs

#: History entries the runtime keeps per store (runtime config ``history``).
HISTORY = 200
CTRL_D, ESC = 4, 27
#: The keys that open and close the panel (anywhere, the Search field included).
TOGGLE_KEYS = "Ctrl-D or F12"
HEADER_KEYS = "[ ] step  Home/End oldest/latest  Esc closes, keeps state"
FOOTER_KEYS = "[ ] Up/Dn step  Home/End  Esc/Ctrl-D close  Ctrl-Q quit"


def is_toggle(key: Any, code: int) -> bool:
    """True for the keys that open or close the panel: Ctrl-D and F12."""
    return code == CTRL_D or key == curses.KEY_F12


def summarize(intent: Mapping[str, object]) -> str:
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
    """``#seq type changed: a, b  arguments`` for one history entry; an intent for a part of
    the app shows as ``part.type`` with the part's intent's arguments
    (``#5 searchResult.resultsLoaded changed: search  query="dune" page=1 movies=[20]``)."""
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


class Pin(NamedTuple):
    """A time-travel step: ``store`` shows the state after ``seq``; ``latest`` was the newest
    entry then (a newer intent makes the pin stale: the store has moved on)."""

    store: cinematic.Store[Any]
    seq: int
    latest: int


class Host(Protocol):
    """What the panel needs of the app (the app imports this module, not the other way)."""

    dirty: bool
    prompt: str
    glyphs: Glyphs

    def debug_store(self) -> Optional[cinematic.Store[Any]]: ...

    def reverted(self, store: cinematic.Store[Any], entry: wire.HistoryEntry) -> None: ...

    def put(self, y: int, x: int, text: str, attr: int = 0) -> None: ...

    def clip(self, text: str, width: int) -> str: ...


class DebugPanel:
    """The panel's state (open, the entry shown), its keys and its drawing."""

    def __init__(self, app: Host) -> None:
        self.app = app
        self.open = False
        self.pin: Optional[Pin] = None

    # ------------------------------------------------------------------ model

    def toggle(self) -> None:
        self.open = not self.open
        self.app.dirty = True

    def store(self) -> Optional[cinematic.Store[Any]]:
        """The store of the screen the app shows (Detail, else the current tab's)."""
        return self.app.debug_store()

    def entries(self, store: cinematic.Store[Any]) -> List[wire.HistoryEntry]:
        """The store's history, oldest first (empty once the store is closed)."""
        try:
            return store.history
        except cinematic.ClosedError:
            return []

    def selected(self, store: cinematic.Store[Any], entries: List[wire.HistoryEntry]) -> int:
        """The index of the entry the screen shows: the pinned one, else the latest."""
        pin = self.pin
        if pin is not None and pin.store is store and entries and pin.latest == entries[-1]["seq"]:
            for index, entry in enumerate(entries):
                if entry["seq"] == pin.seq:
                    return index
        return len(entries) - 1

    def step(self, delta: int) -> None:
        """Moves ``delta`` entries back (negative) or forward from the shown one."""
        store = self.store()
        entries = self.entries(store) if store is not None else []
        if store is None or not entries:
            self.app.prompt = "no intents to step through yet"
            return
        index = max(0, min(len(entries) - 1, self.selected(store, entries) + delta))
        self.go(store, entries, index)

    def go(self, store: cinematic.Store[Any], entries: List[wire.HistoryEntry], index: int) -> None:
        """Time travel: the store takes the state after ``entries[index]``."""
        entry = entries[index]
        try:
            store.revert(entry["seq"])
        except cinematic.InvalidError:
            self.app.prompt = f"#{entry['seq']} is no longer in the history"
            return
        latest = entries[-1]["seq"]
        self.pin = None if entry["seq"] == latest else Pin(store, entry["seq"], latest)
        self.app.reverted(store, entry)

    # ------------------------------------------------------------------ keys

    def key(self, key: Any, code: int) -> None:
        """A key while the panel is open (it takes every key but Ctrl-Q)."""
        if is_toggle(key, code) or code == ESC:
            self.toggle()
        elif key in ("[", curses.KEY_LEFT, curses.KEY_UP):
            self.step(-1)
        elif key in ("]", curses.KEY_RIGHT, curses.KEY_DOWN):
            self.step(1)
        elif key == curses.KEY_HOME:
            self.step(-HISTORY)
        elif key == curses.KEY_END:
            self.step(HISTORY)
        elif key != curses.KEY_RESIZE:
            self.app.prompt = f"debug panel: [ ] step, Esc or {TOGGLE_KEYS} closes"

    # ------------------------------------------------------------------ drawing

    @staticmethod
    def top(rows: int) -> int:
        """The panel's first row: the lower half of the screen, above the notice line."""
        return rows // 2

    def draw(self, rows: int, cols: int) -> None:
        """Draws the panel from ``top(rows)`` to the notice line (rows - 2, exclusive)."""
        top, bottom = self.top(rows), rows - 2
        for y in range(top, bottom):
            self.app.put(y, 0, " " * cols)  # over whatever the view drew there
        store = self.store()
        entries = self.entries(store) if store is not None else []
        index = self.selected(store, entries) if store is not None else -1
        self.draw_header(top, cols, store, entries, index)
        self.app.put(top + 1, 1, HEADER_KEYS, curses.A_DIM)
        self.draw_entries(top + 2, bottom - top - 2, cols, entries, index)

    def draw_header(self, y: int, cols: int, store: Optional[cinematic.Store[Any]],
                    entries: List[wire.HistoryEntry], index: int) -> None:
        line = self.app.glyphs.line
        if store is None:
            title = "Debug: no store on this screen"
        else:
            shown = "the latest" if index == len(entries) - 1 else f"#{entries[index]['seq']} (time travel)"
            count = f"{len(entries)} intent{'s' if len(entries) != 1 else ''}"
            title = f"Debug: {store.feature} store, {count}, showing {shown}"
        self.app.put(y, 0, f"{line * 2} {title} ".ljust(cols, line), curses.A_BOLD)

    def draw_entries(self, y: int, height: int, cols: int, entries: List[wire.HistoryEntry], index: int) -> None:
        if not entries:
            self.app.put(y, 2, "No intents yet (the runtime keeps the last "
                         f"{HISTORY} of each store).")
            return
        height = max(1, height)
        first = min(max(0, len(entries) - height), max(0, index))  # newest at the bottom, the selected in view
        for row, entry in enumerate(entries[first:first + height]):
            selected = first + row == index
            text = ("> " if selected else "  ") + entry_line(entry)
            self.app.put(y + row, 1, self.app.clip(text, cols - 2).ljust(cols - 2),
                         curses.A_REVERSE if selected else 0)
