"""The Discover screen: its sections on the left, the chosen section's own list (own scroll,
own paging) on the right; drawn from the app state's ``discover`` part and ``section``."""

from __future__ import annotations

from typing import Dict, Optional, cast

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QHBoxLayout, QLabel, QListWidget, QStackedWidget, QVBoxLayout, QWidget

from cinematic import wire, wording

from .movies import MovieList, Shell, movies_of, phase_of, position_of
from .states import StateView, wrapping


class SectionList(QListWidget):
    """The sections; Right or Enter moves into the chosen section's films."""

    def __init__(self, page: "DiscoverPage") -> None:
        super().__init__()
        self.page = page

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() in (Qt.Key.Key_Right, Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.page.stack.currentWidget().setFocus()
            return
        super().keyPressEvent(event)


class DiscoverPage(QWidget):
    def __init__(self, shell: Shell, live_url: Optional[str]) -> None:
        super().__init__()
        self.setObjectName("discoverPage")
        self.shell = shell
        self.live_url = live_url
        self.state: Optional[wire.DiscoverState] = None
        self.rendering = False
        columns = QHBoxLayout(self)
        self.sections = SectionList(self)
        self.sections.setObjectName("discoverSections")
        self.sections.setMaximumWidth(170)
        self.sections.currentRowChanged.connect(self._section_chosen)
        columns.addWidget(self.sections)
        right = QVBoxLayout()
        self.info = wrapping(QLabel())
        self.info.setObjectName("sectionInfo")
        right.addWidget(self.info)
        self.stack = QStackedWidget()
        self.view = StateView("discover", self.stack, lambda: shell.send({"type": "retried"}))
        right.addWidget(self.view, 1)
        columns.addLayout(right, 1)
        self.lists: Dict[str, MovieList] = {}

    def _section_chosen(self, row: int) -> None:
        sections = self.state["sections"] if self.state else []
        if not self.rendering and 0 <= row < len(sections):
            self.shell.send({"type": "sectionSelected", "section": sections[row]["section"]})

    # ------------------------------------------------------------------ drawing

    def draw(self, app: wire.AppState) -> None:
        self.state = app["discover"]
        sections = self.state["sections"]
        self.rendering = True
        try:
            for i, section in enumerate(sections):
                name = section["section"]
                busy = phase_of(section["movies"]) == "loading" or section["isLoadingMore"]
                label = f"{section['title']}{' …' if busy else ''}"
                if i >= self.sections.count():
                    self.sections.addItem(label)
                elif self.sections.item(i).text() != label:
                    self.sections.item(i).setText(label)
                if name not in self.lists:
                    more = {"type": "discover", "intent": {"type": "loadMore", "section": name}}
                    self.lists[name] = MovieList(f"discover-{name}", name, self.shell, more)
                    self.stack.addWidget(self.lists[name])
                self.lists[name].show_movies(movies_of(section["movies"]), position_of(app, name))
            shown = next((i for i, section in enumerate(sections) if section["section"] == app["section"]), -1)
            if shown >= 0:
                self.sections.setCurrentRow(shown)
                self.stack.setCurrentWidget(self.lists[app["section"]])
            self.info.setText(self._info(sections[shown] if shown >= 0 else None))
            self._show_state(sections[shown] if shown >= 0 else None)
        finally:
            self.rendering = False

    def _show_state(self, section: Optional[wire.DiscoverSection]) -> None:
        """The section's films, its skeleton while loading, or a panel (failed, empty)."""
        phase = section["movies"] if section is not None else None
        name = phase_of(phase)
        if section is None or name in ("idle", "loading"):
            self.view.show_loading(f"Loading {section['title'] if section else 'the sections'}…")
        elif name == "failed":
            said, advice = wording.failure(f"Could not load {section['title']}",
                                           cast(wire.FailedPhase, phase)["error"], "F5", self.live_url)
            self.view.show_message(said, advice, failed=True)
        elif not movies_of(phase):
            self.view.show_message(wording.section_empty(section["title"]))
        else:
            self.view.show_content()

    def _info(self, section: Optional[wire.DiscoverSection]) -> str:
        if section is None:
            return ""
        phase = section["movies"]
        if phase_of(phase) == "failed":
            code = cast(wire.FailedPhase, phase)["error"]["code"]   # the panel below says the rest
            return f"{section['title']}: could not load: {code}. Press F5 to try again."
        if phase_of(phase) == "idle":
            return f"{section['title']}"
        if phase_of(phase) == "loading":
            return f"{section['title']}: loading…"
        info = f"{section['title']}: {len(movies_of(phase))} movies"
        if section["isLoadingMore"]:
            info += ", loading more…"
        elif section["isExhausted"]:
            info += ", all loaded"
        else:
            info += ", scroll for more"
        if section["loadMoreError"]:
            info += f" (more failed: {section['loadMoreError']['code']}; F5 tries again)"
        note = wording.source_note(phase, self.live_url)
        return f"{info} ({note})" if note else info
