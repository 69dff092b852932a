"""The app's keymap: the ```json keymap``` block of Sources/CinematicFeatures/App/app.wire.md,
checked against the app's intents and written for the hosts that draw the app:

    bindings/python/cinematic/keymap.py     KEYMAP, binding_for(key, screen), help_lines(), action_for(kind),
                                            curses_key_name(key), qt_key_name(key, modifiers)
    examples/web/static/keymap.js           the same table and lookups for the browser app, keyName(event)

A binding: `keys` (key names), `help` (what it does, for help screens), `screens` (where it
acts: the app's screens, all when absent, or the host's debug panel, "debug"), and either
`action` (an app intent, sent as it is) or `host` ("help", "debug", "quit": a host's own
screens; "stepBack", "stepForward", "oldest", "latest": the debug panel's steps); `platforms`
gives a platform's keys in place of `keys`.
Key names, and how each platform spells them: key_spellings.py.
"""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Dict, List

from .key_spellings import KEY_NAME, javascript_names, python_spellings
from .schema import ROOT

APP_WIRE = ROOT / "Sources" / "CinematicFeatures" / "App" / "app.wire.md"
BLOCK = re.compile(r"^```json keymap\n(.*?)^```\n?", re.S | re.M)
SCREENS = ("search", "discover", "favorites", "detail")
#: The host's debug panel: a screen of the keymap (its keys while it holds them), not the app's.
DEBUG_SCREEN = "debug"


class KeymapError(SystemExit):
    """A keymap that cannot be generated (the message says which binding and why)."""


def keymap(defs: Dict[str, Any]) -> List[Dict[str, Any]]:
    """The keymap's bindings, checked: key names, screens, and each action an app host intent
    whose members are the intent's (its type known, no member missing or unknown)."""
    blocks = BLOCK.findall(APP_WIRE.read_text())
    if len(blocks) != 1:
        raise KeymapError(f"{APP_WIRE.relative_to(ROOT)}: needs exactly one ```json keymap``` block (found {len(blocks)})")
    try:
        bindings = json.loads(blocks[0])
    except ValueError as error:
        raise KeymapError(f"{APP_WIRE.relative_to(ROOT)}: the keymap block is not JSON: {error}")
    intents = {ref["$ref"].rsplit("/", 1)[1] for ref in defs["appIntent"]["oneOf"]}
    members = defs["keymap"]["items"]["properties"]     # schema/core/keymap.json: the screens and hosts there are
    known_screens, hosts = members["screens"]["items"]["enum"], members["host"]["enum"]
    seen: Dict[tuple, int] = {}
    for number, binding in enumerate(bindings, 1):
        where = f"{APP_WIRE.relative_to(ROOT)}: keymap binding {number} ({binding.get('keys')})"
        unknown = set(binding) - {"keys", "help", "screens", "action", "host", "platforms"}
        if unknown or not binding.get("keys") or not isinstance(binding.get("help"), str) or ("action" in binding) == ("host" in binding):
            raise KeymapError(f"{where}: needs keys, help and one of action or host (unknown: {sorted(unknown)})")
        names = binding["keys"] + [key for keys in binding.get("platforms", {}).values() for key in keys]
        for key in names:
            if not KEY_NAME.match(key):
                raise KeymapError(f"{where}: {key!r} is not a key name")
        screens = binding.get("screens", list(SCREENS))
        if not set(screens) <= set(known_screens):
            raise KeymapError(f"{where}: screens are {known_screens}")
        if DEBUG_SCREEN in screens and "action" in binding:
            raise KeymapError(f"{where}: the debug panel's keys are the host's (host), never an app intent")
        for platform in ["", *binding.get("platforms", {})]:
            for key in binding.get("platforms", {}).get(platform, binding["keys"]):
                for screen in screens:
                    if (platform, key, screen) in seen:
                        raise KeymapError(f"{where}: {key} on {screen} is binding {seen[(platform, key, screen)]}'s already")
                    seen[(platform, key, screen)] = number
        if "host" in binding and binding["host"] not in hosts:
            raise KeymapError(f"{where}: host is one of {hosts}")
        if "action" in binding:
            check_action(binding["action"], defs, intents, where)
    return bindings


def check_action(action: Any, defs: Dict[str, Any], intents: set, where: str) -> None:
    """`action` is an app host intent: a known type with exactly its members."""
    kind = action.get("type") if isinstance(action, dict) else None
    name = next((name for name in intents if defs[name]["properties"]["type"].get("const") == kind), None)
    if name is None:
        raise KeymapError(f"{where}: {kind!r} is not an app intent")
    members = set(defs[name]["properties"]) - {"type"}
    if set(action) - {"type"} != members:
        raise KeymapError(f"{where}: {kind} takes {sorted(members)}, not {sorted(set(action) - {'type'})}")


def python_keymap(bindings: List[Dict[str, Any]]) -> str:
    table = ",\n".join(f"    Binding({tuple(b['keys'])!r}, {b['help']!r}, {tuple(b.get('screens', SCREENS))!r}, "
                       f"{b.get('action')!r}, {b.get('host')!r}, {b.get('platforms', {})!r})" for b in bindings)
    return f'''"""The app's keymap, the same in every UI (generated by tools/wiregen.py from the keymap of
Sources/CinematicFeatures/App/app.wire.md; do not edit): what each key does on each screen::

    from cinematic import keymap
    binding = keymap.binding_for("Down", view["screen"])   # the view's screen
    if binding and binding.action: app.send(binding.action)

A host names its platform's key with ``curses_key_name(key)`` or ``qt_key_name(key, modifiers)``
(the browser's keymap.js has ``keyName(event)``). Text typed in Search's field is the query,
never a key of this table.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Dict, List, NamedTuple, Optional, Tuple, Union

__all__ = ["Binding", "DEBUG_SCREEN", "KEYMAP", "SCREENS", "action_for", "binding_for", "curses_key_name", "help_lines",
           "keys_for", "qt_key_name"]

#: The app's screens a binding may act on (an app view's ``screen``).
SCREENS = {SCREENS!r}
#: The host's debug panel, a screen of the keymap's own: its keys while the panel holds them
#: (host bindings: "stepBack", "stepForward", "oldest", "latest", and "debug" closes it).
DEBUG_SCREEN = {DEBUG_SCREEN!r}


class Binding(NamedTuple):
    """Keys, what they do (``help``), where (``screens``), and the app intent they send
    (``action``) or what the host does itself (``host``: "help", "debug", "quit", or a step of
    the debug panel: "stepBack", "stepForward", "oldest", "latest")."""

    keys: Tuple[str, ...]
    help: str
    screens: Tuple[str, ...]
    action: Optional[Dict[str, Any]]
    host: Optional[str]
    platforms: Dict[str, List[str]]

    def keys_on(self, platform: str = "") -> Tuple[str, ...]:
        """The keys on ``platform`` ("browser", "mac"; "" for the keymap's own)."""
        return tuple(self.platforms.get(platform, self.keys))


#: Every binding, in the keymap's order.
KEYMAP: Tuple[Binding, ...] = (
{table},
)


def binding_for(key: Optional[str], screen: str, platform: str = "") -> Optional[Binding]:
    """The binding of ``key`` (a key name: "Down", "Ctrl+Z", "F"; None, a key no name fits,
    binds nothing) on ``screen`` and ``platform`` ("mac", "browser": its keys in place of the
    keymap's); None when the key does nothing there."""
    for binding in KEYMAP:
        if screen in binding.screens and key in binding.keys_on(platform):
            return binding
    return None


def help_lines(screen: Optional[str] = None, platform: str = "", hosts: Optional[Tuple[str, ...]] = None) -> List[Tuple[str, str]]:
    """(keys, what they do) for a help screen: every binding (or those acting on ``screen``)
    on ``platform``, host bindings only for the ``hosts`` this host has (None: all of them)."""
    return [(", ".join(b.keys_on(platform)), b.help) for b in KEYMAP
            if (screen is None or screen in b.screens) and (b.host is None or hosts is None or b.host in hosts)]


def action_for(kind: str) -> Dict[str, Any]:
    """A copy of the keymap's action whose intent type is ``kind`` ("undo", "retried",
    "dismissNotice"): what a button sends, the same as its key. KeyError when no key sends it."""
    return dict(_sending(kind).action or {{}})


def keys_for(action: Union[str, Dict[str, Any]], platform: str = "") -> str:
    """The keys on ``platform`` of the keymap's action ``action``: an intent type ("undo"), a
    whole action (every member equal: ``{{"type": "pageBy", "delta": 1}}``) or a host's
    ("stepBack"), for a tooltip ("Ctrl+Z"); KeyError when no key does it."""
    return ", ".join(_sending(action).keys_on(platform))


def _sending(action: Union[str, Dict[str, Any]]) -> Binding:
    """The first binding whose action is ``action`` (a whole action, or its intent type), or
    whose host is ``action``."""
    for binding in KEYMAP:
        if binding.action is not None and (binding.action == action or binding.action["type"] == action):
            return binding
        if binding.host is not None and binding.host == action:
            return binding
    raise KeyError(f"the keymap has no action {{action}}")
''' + python_spellings() + "\n"


def javascript_keymap(bindings: List[Dict[str, Any]]) -> str:
    rows = [json.dumps({**b, "screens": b.get("screens", list(SCREENS)), "platforms": b.get("platforms", {})}, ensure_ascii=False)
            for b in bindings]
    table = "[\n  " + ",\n  ".join(rows) + "\n]"
    return f'''"use strict";
// The app's keymap, the same in every UI (generated by tools/wiregen.py from the keymap of
// Sources/CinematicFeatures/App/app.wire.md; do not edit). A binding sends its `action` (an
// app intent) or opens a host screen (`host`); text typed in Search's field is the query.

const KEYMAP = {table};

/** A binding's keys on `platform` ("browser", "mac": its keys in place of the keymap's). */
function keysOn(binding, platform) {{
  return binding.platforms[platform] || binding.keys;
}}

/** The binding of `key` (a key name: "Down", "Ctrl+Z", "F") on `screen` and `platform`;
 * null when the key does nothing there. */
function bindingFor(key, screen, platform) {{
  for (const binding of KEYMAP) {{
    if (binding.screens.includes(screen) && keysOn(binding, platform).includes(key)) return binding;
  }}
  return null;
}}

/** A keyboard event's key name as the keymap spells it ("Ctrl+Z", "Down", "F"). */
function keyName(event) {{
  const names = {javascript_names()};
  let key = names[event.key] || (event.key.length === 1 ? event.key.toUpperCase() : event.key);
  if (event.shiftKey && key.length > 1) key = "Shift+" + key;
  if (event.altKey) key = "Alt+" + key;
  if (event.metaKey) key = "Cmd+" + key;
  if (event.ctrlKey) key = "Ctrl+" + key;
  return key;
}}

/** (keys, what they do) for a help screen: every binding (or those acting on `screen`) on
 * `platform`, host bindings only for the `hosts` screens this host has (["help"]). */
function helpLines(screen, platform, hosts) {{
  return KEYMAP.filter((b) => (!screen || b.screens.includes(screen)) && (!b.host || (hosts || []).includes(b.host)))
    .map((b) => [keysOn(b, platform).join(", "), b.help]);
}}

/** The keys on `platform` of the binding whose action is `action` (every member equal:
 * {{type: "pageBy", delta: 1}}), for a button's tooltip ("PageDown"); "" when no key sends it. */
function keysFor(action, platform) {{
  const same = (a) => a && Object.keys(a).length === Object.keys(action).length && Object.keys(action).every((k) => a[k] === action[k]);
  const binding = KEYMAP.find((b) => same(b.action));
  return binding ? keysOn(binding, platform).join(", ") : "";
}}
'''
