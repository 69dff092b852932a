"""The Discover screen: its sections on the left, each section's own list (own scroll, own
paging) on the right. The sections load the first time the tab is shown."""

from __future__ import annotations

from typing import Callable, Dict, Optional, cast

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QHBoxLayout, QLabel, QListWidget, QStackedWidget, QVBoxLayout, QWidget

import cinematic
from cinematic import wire
from cinematic_tui.app import movies_of, phase_of

from .movies import MovieList, Shell, error_text, source_note


class DiscoverPage(QWidget):
    def __init__(self, shell: Shell, store: cinematic.DiscoverStore, live_url: Optional[str]) -> None:
        super().__init__()
        self.setObjectName("discoverPage")
        self.shell = shell
        self.store = store
        self.live_url = live_url
        self.state: Optional[wire.DiscoverState] = None
        self.started = False
        columns = QHBoxLayout(self)
        self.sections = QListWidget()
        self.sections.setObjectName("discoverSections")
        self.sections.setMaximumWidth(200)
        self.sections.currentRowChanged.connect(self._section_chosen)
        columns.addWidget(self.sections)
        right = QVBoxLayout()
        self.info = QLabel()
        self.info.setObjectName("sectionInfo")
        right.addWidget(self.info)
        self.stack = QStackedWidget()
        right.addWidget(self.stack, 1)
        columns.addLayout(right, 1)
        self.lists: Dict[str, MovieList] = {}
        refresh = QShortcut(QKeySequence("F5"), self)
        refresh.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        refresh.activated.connect(self.refresh)
        store.subscribe(self.on_state)

    def start(self) -> None:
        """The first time the tab shows: load the sections."""
        if not self.started:
            self.started = True
            self.store.task()
        self.update_info()

    def refresh(self) -> None:
        self.store.refresh()

    def focus_target(self) -> QWidget:
        return self.stack.currentWidget() or self.sections

    def more(self, name: str) -> None:
        sections = self.state["sections"] if self.state else []
        for section in sections:
            if section["section"] == name and not section["isExhausted"] and not section["isLoadingMore"] \
                    and phase_of(section["movies"]) == "loaded":
                self.store.load_more(name)

    def _more_of(self, name: str) -> Callable[[], None]:
        return lambda: self.more(name)

    def current_section(self) -> Optional[wire.DiscoverSection]:
        sections = self.state["sections"] if self.state else []
        row = self.sections.currentRow()
        return sections[row] if 0 <= row < len(sections) else None

    def _section_chosen(self, row: int) -> None:
        section = self.current_section()
        if section is not None:
            self.stack.setCurrentWidget(self.lists[section["section"]])
        self.update_info()

    # ------------------------------------------------------------------ states (GUI thread)

    def on_state(self, raw: wire.DiscoverState) -> None:
        self.state = raw
        sections = self.state["sections"]
        for i, section in enumerate(sections):
            name = section["section"]
            busy = phase_of(section["movies"]) == "loading" or section["isLoadingMore"]
            label = f"{section['title']}{' …' if busy else ''}"
            if i >= self.sections.count():
                self.sections.addItem(label)
            elif self.sections.item(i).text() != label:
                self.sections.item(i).setText(label)
            if name not in self.lists:
                movie_list = MovieList(f"discover-{name}", self.shell.open_detail, self._more_of(name))
                self.lists[name] = movie_list
                self.stack.addWidget(movie_list)
            self.lists[name].set_movies(movies_of(section["movies"]))
        if self.sections.currentRow() < 0 and sections:
            self.sections.setCurrentRow(0)
        self.update_info()
        self.shell.state_changed()

    def update_info(self) -> None:
        section = self.current_section()
        if section is None:
            self.info.setText("Loading…" if self.started else "")
            return
        phase = section["movies"]
        if phase_of(phase) == "failed":
            info = (f"{section['title']}: could not load: {error_text(cast(wire.FailedPhase, phase)['error'])}. "
                    "Press F5 to try again.")
        elif phase_of(phase) == "loading":
            info = f"{section['title']}: loading…"
        else:
            info = f"{section['title']}: {len(movies_of(phase))} movies"
            if section["isLoadingMore"]:
                info += ", loading more…"
            elif section["isExhausted"]:
                info += ", all loaded"
            else:
                info += ", scroll for more"
        if section["loadMoreError"]:
            info += f" (more failed: {section['loadMoreError']['code']})"
        note = source_note(phase, self.live_url)
        if note:
            info += f" ({note})"
        self.info.setText(info)
