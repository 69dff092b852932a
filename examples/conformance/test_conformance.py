"""One behaviour in every UI (issue "One behaviour in every UI"): the terminal app (tmux), the
browser app (chromium) and the desktop app (Xvfb) are driven through the same script of
actions, each with its own platform's keys from the one keymap; after every step each UI's
app store must show the same projection (script.project): screen, tab, section, selection,
the film opened and its heart, the sort, the favorites, and the notice where a step names it.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Dict, List

import pytest

from script import STEPS, project

DRIVERS = [name for name in os.environ.get("CONFORMANCE_UIS", "terminal,web,desktop").split(",") if name]


def run(name: str, folder: Path) -> List[Dict[str, Any]]:
    """Drives the UI `name` through the script; its projection after each step."""
    if name == "terminal":
        from terminal import TerminalDriver as Driver
    elif name == "web":
        from web import WebDriver as Driver
    else:
        from desktop import DesktopDriver as Driver
    driver = Driver(folder)
    seen = []
    try:
        driver.wait(STEPS[0]._replace(done=lambda state: state["view"]["screen"] == "search", name="the app's first state"))
        for step in STEPS:
            driver.press(step)
            try:
                seen.append(project(driver.wait(step), step))
            except AssertionError as failure:
                raise AssertionError(f"{failure}\n--- {name} shows ---\n{driver.screen()}") from None
    finally:
        driver.close()
    return seen


def test_every_ui_reaches_the_same_states_by_the_same_keys(tmp_path: Path) -> None:
    runs = {name: run(name, tmp_path / name) for name in DRIVERS if (tmp_path / name).mkdir() is None}
    first, *others = DRIVERS
    for other in others:
        for step, mine, theirs in zip(STEPS, runs[first], runs[other]):
            assert mine == theirs, f"after '{step.name}': {first} shows {mine}, {other} shows {theirs}"
    # The script is about something: the third film opened and hearted, 40 rows paged, sorted.
    assert runs[first][3]["screen"] == "detail" and runs[first][4]["favorite"] is True
    assert runs[first][8]["count"] == 40 and runs[first][9]["sort"] == "title"
