"""The conformance script: the same actions, pressed as each UI's keys (the keymap's keys on that
UI's platform), and what each step waits for and compares. Every UI must reach the same
projection of the app state after every step: the screen, tab, section, selection, the film
opened, its heart, the sort, the favorites, and the notice where a step names it.

    for step in STEPS: driver.press(step) ...; state = driver.wait(step.done); project(state, step)
"""
from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any, Callable, Dict, List, NamedTuple, Optional

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "bindings" / "python"))
from cinematic import keymap  # noqa: E402

State = Dict[str, Any]


class Step(NamedTuple):
    """What a person does (an action of the keymap, by its intent type and arguments, or text
    typed), the screen it is pressed on, what the app state shows once it is done, and
    whether the notice is compared after it."""

    name: str
    action: Optional[Dict[str, Any]]
    screen: str
    done: Callable[[State], bool]
    text: str = ""
    notice: bool = False


def key_for(step: Step, platform: str = "") -> str:
    """The key that sends ``step.action`` on ``step.screen`` on ``platform``: from the keymap."""
    for binding in keymap.KEYMAP:
        if binding.action == step.action and step.screen in binding.screens:
            return binding.keys_on(platform)[0]
    raise AssertionError(f"the keymap binds no key to {step.action} on {step.screen}")


def shown(state: State) -> Dict[str, Any]:
    return state["view"]["list"] or {}


def favorites(state: State) -> List[int]:
    phase = state["favorites"]["favorites"]
    return [movie["id"] for movie in phase.get("value", [])] if phase["phase"] == "loaded" else []


def detail_settled(state: State) -> bool:
    return bool(state["details"]) and state["details"][-1]["detail"]["phase"] == "loaded" and not state["details"][-1]["isSaving"]


STEPS: List[Step] = [
    Step("type alien", None, "search", lambda s: shown(s).get("count", 0) >= 20 and s["search"]["results"].get("query") == "alien",
         text="alien"),
    Step("Down", {"type": "moveBy", "delta": 1}, "search", lambda s: shown(s).get("selection") == 1),
    Step("Down again", {"type": "moveBy", "delta": 1}, "search", lambda s: shown(s).get("selection") == 2),
    Step("Enter opens the third film", {"type": "activate"}, "search", lambda s: s["view"]["screen"] == "detail" and detail_settled(s)),
    Step("the heart", {"type": "detail", "intent": {"type": "favoriteToggled"}}, "detail",
         lambda s: detail_settled(s) and s["details"][-1]["isFavorite"] and len(favorites(s)) == 1),
    Step("Back", {"type": "back"}, "detail", lambda s: s["view"]["screen"] == "search"),
    Step("the next tab: Discover", {"type": "tabBy", "delta": 1}, "search",
         lambda s: s["view"]["screen"] == "discover" and shown(s).get("count", 0) >= 20),
    Step("End", {"type": "moveToEnd"}, "discover", lambda s: shown(s).get("selection") == shown(s).get("count", 0) - 1),
    Step("Down past the last row loads more", {"type": "moveBy", "delta": 1}, "discover",
         lambda s: shown(s).get("count") == 40 and shown(s).get("selection") == 20),
    Step("sort", {"type": "sortNext"}, "discover", lambda s: s["view"]["sort"] == "title" and shown(s).get("selection") == 0),
    Step("the next tab: Favorites", {"type": "tabBy", "delta": 1}, "discover",
         lambda s: s["view"]["screen"] == "favorites" and shown(s).get("count") == 1),
    Step("Delete removes the favorite", {"type": "removeSelected"}, "favorites",
         lambda s: favorites(s) == [] and (s["notice"] or {}).get("kind") == "removed", notice=True),
    Step("Undo puts it back", {"type": "undo"}, "favorites",
         lambda s: len(favorites(s)) == 1 and (s["notice"] or {}).get("kind") == "restored", notice=True),
]


def project(state: State, step: Step) -> Dict[str, Any]:
    """What every UI must agree on after ``step``."""
    details = state["details"]
    seen = {"screen": state["view"]["screen"], "tab": state["tab"], "section": state["section"],
            "selection": shown(state).get("selection"), "count": shown(state).get("count"),
            "opened": details[-1]["movieId"] if details else None, "favorite": details[-1]["isFavorite"] if details else None,
            "sort": state["view"]["sort"], "favorites": favorites(state)}
    if step.notice:
        seen["notice"] = (state["notice"] or {}).get("kind")
    return seen


def wait(read: Callable[[], Optional[State]], done: Callable[[State], bool], what: str, timeout: float = 60) -> State:
    """Reads the app state until ``done`` holds (bounded); the state then."""
    deadline, last = time.monotonic() + timeout, None
    while time.monotonic() < deadline:
        last = read()
        if last is not None and done(last):
            return last
        time.sleep(0.05)
    raise AssertionError(f"{what}: not reached in {timeout:.0f} s; last state's view: {(last or {}).get('view')}")
