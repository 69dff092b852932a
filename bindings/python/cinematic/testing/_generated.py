"""The pieces of a test :mod:`cinematic.testing.from_recording` writes: recorded values as
Python literals (``repr`` of JSON values :mod:`cinematic.testing._recording` checked: never
a name, a comment or docstring text), the states a test expects, a canned answer."""

from __future__ import annotations

import json
from typing import Any, Dict, List, Optional

from ._store import DERIVED_MEMBERS

__all__ = ["literal", "host_state", "changes_between", "canned", "RecordedStore"]


def literal(value: Any, indent: int, lead: int = 0, width: int = 150) -> str:
    """``value`` (a JSON value, checked) as a Python literal on a line indented ``indent``
    (``lead`` characters already before it on that line): on one line when it fits, else one
    member (one movie) per line. ``repr`` never writes a raw line break: every line break in
    the result is the layout's."""
    flat = repr(value)
    if indent + lead + len(flat) <= width or not isinstance(value, (dict, list)) or not value:
        return flat
    inner = indent + 4
    pad = " " * inner
    if isinstance(value, dict):
        items = [f"{key!r}: {literal(member, inner, len(repr(key)) + 2, width)}" for key, member in value.items()]
        opening, closing = "{", "}"
    else:
        items = [literal(member, inner, 0, width) for member in value]
        opening, closing = "[", "]"
    return opening + "\n" + ",\n".join(pad + item for item in items) + ",\n" + " " * indent + closing


def host_state(feature: str, state: Dict[str, Any]) -> Dict[str, Any]:
    """A state of a recording made on another catalog, as the test's host catalog shows it:
    loaded catalog phases say ``"source": "live"``."""
    def live(phase: Any) -> Any:
        if isinstance(phase, dict) and phase.get("phase") == "loaded":
            phase = {k: v for k, v in phase.items() if k != "cachedAt"}
            phase["source"] = "live"
        return phase

    state = json.loads(json.dumps(state))
    if feature == "search" and "results" in state:
        state["results"] = live(state["results"])
    elif feature == "discover" and isinstance(state.get("sections"), list):
        for section in state["sections"]:
            if isinstance(section, dict):
                section["movies"] = live(section.get("movies"))
    elif feature == "detail" and "detail" in state:
        state["detail"] = live(state["detail"])
    elif feature == "app":   # its parts, as their own stores show them; each open Detail
        for part in ("search", "discover"):
            if isinstance(state.get(part), dict):
                state[part] = host_state(part, state[part])
        for index, detail in enumerate(state.get("details") or []):
            if isinstance(detail, dict):
                state["details"][index] = host_state("detail", detail)
    return state


def changes_between(before: Dict[str, Any], after: Dict[str, Any]) -> Optional[Dict[str, Any]]:
    """The members of ``after`` that differ from ``before`` (None when none does)."""
    changed = {k: v for k, v in after.items() if before.get(k) != v and k not in DERIVED_MEMBERS}
    return changed or None


def canned(request: Dict[str, Any], answer: Dict[str, Any], delay: int) -> str:
    """The statement giving ``answer`` to ``request`` ``delay`` milliseconds after it arrives."""
    options = f", delay_ms={delay}" if delay > 0 else ""
    return f"rt.catalog.answer({literal(request, 0, 18)},\n                  {literal(answer, 18)}{options}, times=1)"


class RecordedStore:
    """A store of the recording: its handle number there, its feature, the variable the test
    names it by, and the state the test expects of it so far."""

    def __init__(self, number: int, feature: str, args: Any, name: str) -> None:
        self.number = number
        self.feature = feature
        self.args = args
        self.name = name
        self.state: Optional[Dict[str, Any]] = None  # the expected state so far
        self.had_task = False
        self.closed = False
        #: An app's open Details, by the key each was opened under (1, 2, ...: its effects are
        #: named "detail#<key>/..."), oldest first, and the key the next one gets.
        self.details: List[int] = []
        self.next_detail = 1

    def app_intent(self, intent: Dict[str, Any], after: Optional[Dict[str, Any]] = None) -> None:
        """Follows an app's Detail stack through a host intent (docs/wire.md, "app"): from the
        state it left when recorded (any intent may open or close Details: opened, activate,
        back, a tab change), else from the intent's type."""
        if after is not None and isinstance(after.get("details"), list):
            shown = [detail.get("movieId") for detail in after["details"]]
            if len(shown) > len(self.details):      # pushed (the oldest dropped past 16 by the app)
                for _ in range(len(shown) - len(self.details)):
                    self.details.append(self.next_detail)
                    self.next_detail += 1
            elif not shown:
                self.details = []
            else:
                del self.details[len(shown):]
            self.details = self.details[-16:]
            return
        kind = intent.get("type")
        if kind == "opened":
            self.details = (self.details + [self.next_detail])[-16:]
            self.next_detail += 1
        elif kind == "back" and self.details:
            self.details.pop()
        elif kind in ("tabSelected", "tabBy"):
            self.details = []

    def running_at_close(self, observations: Dict[str, str]) -> List[str]:
        """The long-lived effects running when the store closes (named in ``finish``): the
        observation ``task`` started (``observations`` by feature), and an app's open Details'."""
        if not self.had_task:
            return []
        if self.feature == "app":
            return [observations["favorites"]] + [f"detail#{key}/{observations['detail']}" for key in self.details]
        return [observations[self.feature]] if self.feature in observations else []
