"""Pick up where you left off: the app's runtime snapshot, saved to the state file
(:mod:`.saved`) on every way out and soon after each change, and reopened on the next start.

What is saved is a runtime snapshot (schema ``runtimeSnapshot``; docs/wire.md, "Snapshots")
of the app's own stores: Search, Discover, Favorites and an open Detail (an undo re-adding a
favorite is not saved: it is dropped if the app dies first). What the screen shows that no
state knows rides in each store's ``view``:

- Search: ``tab`` (the tab shown), ``selected`` and ``firstVisibleIndex`` (the list's
  selection and scroll; the library loads the pages that show the first visible film);
- Discover: ``section`` (the section shown), ``selected`` (the selection per section);
- Favorites: ``selected``.

A restore reopens every store with ``runtime.restore_all`` (the library reloads results
through the catalog: nothing stale is shown). Views are read defensively (wrong types are
ignored, numbers clamped). A file that is not a snapshot of ours, or one the library refuses
(another format, bad data, a feature this app does not show), gives a one-line note; the app
starts fresh and leaves that file untouched for the whole session.

Saving (debounced, and on every way out) is :mod:`.autosave`'s. A restored Search or
Discover keeps its saved page counts until its reload has ended.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any, Dict, List, Mapping, Optional, Tuple, cast

import cinematic
from cinematic import wire

from .autosave import Autosave
from .common import TABS, movies_of
from .saved import StateFile, read_state

if TYPE_CHECKING:
    from .model import Model

#: The features the app shows, each restored at most once.
FEATURES = ("search", "discover", "favorites", "detail")
#: No list of the app is longer than this (Search: 25 pages of 20).
MAX_INDEX = 10_000


def _index(value: Any) -> int:
    """A list position from a view: an int clamped to [0, MAX_INDEX], else 0."""
    if isinstance(value, bool) or not isinstance(value, int):
        return 0
    return max(0, min(value, MAX_INDEX))


def _position(view: Mapping[str, Any]) -> Tuple[int, int]:
    """(selection, first visible row) from a view."""
    index = _index(view.get("selected"))
    return index, min(_index(view.get("firstVisibleIndex")), index)


class Session(Autosave):
    """The state file of one run: what was restored, and the saves."""

    def __init__(self, path: Path, fresh: bool = False) -> None:
        self.file = StateFile(path)
        self.note: Optional[str] = None          # one line, shown at start (and on exit)
        self.writable = True                      # False: the file is not ours, never written
        self.saved: Optional[Dict[str, Any]] = None
        self.stores: Dict[str, "cinematic.Store[Any]"] = {}
        self.views: Dict[str, Mapping[str, Any]] = {}
        self.app: Optional["Model"] = None
        # Search and Discover as saved, while their restore reloads (see reloading_data).
        self.reloading: Dict[str, Dict[str, Any]] = {}
        # Restored list positions (cursor key: (selection, first visible row)), held while
        # their store reloads: drawing a list clamps its cursor to the rows loaded so far.
        self.positions: Dict[str, Tuple[int, int]] = {}
        self.init_autosave()
        if fresh:
            return
        self.saved, note = read_state(path)
        if note is not None:
            self.refuse(note)

    def refuse(self, why: str) -> None:
        self.note = f"State file left untouched, started fresh: {why}"
        self.writable = False
        self.saved = None

    # ------------------------------------------------------------------ restoring

    def restore(self, runtime: cinematic.Runtime) -> None:
        """Reopens the saved stores in ``runtime`` (all or none)."""
        document = self.saved
        if document is None:
            return
        stores = document["stores"]
        features = [entry.get("feature") if isinstance(entry, dict) else None for entry in stores]
        unknown = [str(f) for f in features if f not in FEATURES]
        if unknown or len(set(features)) != len(features):
            self.refuse(f"not a snapshot of this app (stores: {', '.join(map(str, features))[:80]})")
            return
        try:
            opened = runtime.restore_all(document)
        except cinematic.CinematicError as error:
            self.refuse(f"the library refused it: {error.message}")
            return
        for entry, store in zip(stores, opened):
            self.stores[store.feature] = store
            view = entry.get("view")
            self.views[store.feature] = view if isinstance(view, dict) else {}
            if store.feature in ("search", "discover"):
                self.reloading[store.feature] = entry["data"]
        self.last_text = json.dumps(document, separators=(",", ":"), ensure_ascii=False)

    def apply(self, app: "Model") -> None:
        """Puts the app where it was: the tab, the query, the selections, an open Detail."""
        self.app = app
        if not self.stores:
            if self.note:
                app.notice = self.note
            return
        search = self.views.get("search", {})
        app.query = app.search.state["query"]
        self.positions["search"] = _position(search)
        tab = search.get("tab")
        app.tab = TABS.index(tab) if tab in TABS else 0
        discover = self.views.get("discover", {})
        section = discover.get("section")
        app.section = _index(section) if section is not None else 0
        selected = discover.get("selected")
        if isinstance(selected, dict):
            for name in wire.SECTION_ID_VALUES:
                if name in selected:
                    self.positions["discover:" + name] = _position({"selected": selected[name]})
        self.positions["favorites"] = _position(self.views.get("favorites", {}))
        self.hold_positions()
        if TABS[app.tab] == "Discover" and app.discover is not None:
            app.discover.task()  # loads any section the snapshot did not list
            app.discover_started = True
        detail = self.stores.get("detail")
        if isinstance(detail, cinematic.DetailStore):
            app.detail = detail
            app.detail_state = detail.state
            detail.subscribe(app._on_detail)
        app.notice = self.note or "Restored where you left off (--fresh starts clean)"
        app.dirty = True

    # ------------------------------------------------------------------ saving

    def reloading_data(self, store: "cinematic.Store[Any]", data: Dict[str, Any]) -> Dict[str, Any]:
        """A restored Search or Discover counts only the pages reloaded so far until its
        reload ends (a page loading is not in a snapshot): until then, what was saved is kept
        (pages: the larger of the two), so a save, or a kill, in the middle of a restore does
        not lose pages. Once the store settles (no effect running) its own data counts."""
        saved = self.reloading.get(store.feature)
        if saved is None:
            return data
        if store.pending_effects == 0:
            del self.reloading[store.feature]
            return data
        if store.feature == "search":
            if data.get("query") != saved.get("query"):
                del self.reloading[store.feature]  # typed meanwhile: a new search
                return data
            return {**data, "pagesLoaded": max(int(data.get("pagesLoaded", 0)), int(saved.get("pagesLoaded", 0)))}
        pages = {s["section"]: int(s.get("pagesLoaded", 0)) for s in saved.get("sections", []) if isinstance(s, dict)}
        live = {s["section"]: int(s.get("pagesLoaded", 0)) for s in data.get("sections", [])}
        merged = [{"section": name, "pagesLoaded": max(pages.get(name, 0), live.get(name, 0))}
                  for name in wire.SECTION_ID_VALUES if name in pages or name in live]
        return {**data, "sections": merged}

    def hold_positions(self) -> None:
        """Puts the restored list positions back while their lists are still too short to
        show them (drawing a list clamps its cursor to the rows loaded so far), until the
        rows are there, the reload ended, or the user moved the selection."""
        app = self.app
        if app is None:
            return
        for key, (index, offset) in list(self.positions.items()):
            feature, _, section = key.partition(":")
            movies: List[wire.Movie] = []
            if feature == "search" and app.search_state is not None:
                movies = movies_of(app.search_state["results"])
            elif feature == "favorites" and app.favorites_state is not None:
                movies = movies_of(cast(wire.MoviesPhase, app.favorites_state["favorites"]))
            elif feature == "discover" and app.discover_state is not None:
                movies = next((movies_of(entry["movies"]) for entry in app.discover_state["sections"]
                               if entry["section"] == section), [])
            cursor = app.cursor(key)
            if len(movies) > index and (cursor.index, cursor.offset) != (index, offset):
                del self.positions[key]  # the rows are there and the user moved: theirs now
                continue
            cursor.index, cursor.offset = index, offset
            loaded = (app.favorites_state is not None and app.favorites_state["favorites"]["phase"] == "loaded"
                      if feature == "favorites" else feature not in self.reloading)
            if len(movies) > index or loaded:
                del self.positions[key]

    def capture(self) -> Optional[str]:
        """The app's snapshot as the text the file would hold (None before the app exists)."""
        app = self.app
        if app is None:
            return None
        entries: List[Dict[str, Any]] = []
        search: Dict[str, Any] = dict(app.search.snapshot())
        search["data"] = self.reloading_data(app.search, search["data"])
        cursor = app.cursor("search")
        search["view"] = {"tab": TABS[app.tab], "selected": cursor.index, "firstVisibleIndex": cursor.offset}
        entries.append(search)
        if app.discover is not None:
            discover: Dict[str, Any] = dict(app.discover.snapshot())
            discover["data"] = self.reloading_data(app.discover, discover["data"])
            chosen = {key.split(":", 1)[1]: cursor.index for key, cursor in app.cursors.items()
                      if key.startswith("discover:") and key != "discover:" and cursor.index}
            discover["view"] = {"section": app.section, "selected": chosen}
            entries.append(discover)
        if app.favorites is not None:
            favorites: Dict[str, Any] = dict(app.favorites.snapshot())
            favorites["view"] = {"selected": app.cursor("favorites").index}
            entries.append(favorites)
        if app.detail is not None:
            entries.append(dict(app.detail.snapshot()))
        document = {"format": search["format"], "library": search.get("library", cinematic.library_version()),
                    "stores": entries}
        return json.dumps(document, separators=(",", ":"), ensure_ascii=False)
