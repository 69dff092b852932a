"""How each platform spells the keymap's key names, so a host only looks a key up: the browser's
``KeyboardEvent.key`` (keymap.js ``keyName``), curses' ``get_wch()`` keys and Qt's key codes
(keymap.py ``curses_key_name`` and ``qt_key_name``). The key names a keymap may use are these
named keys, a letter, a digit or F1-F12, with Ctrl+, Alt+, Shift+ or Cmd+ before them; a
letter, a digit and an F key follow one rule per platform, written in the helpers.

    SPELLINGS["Down"] == ("ArrowDown", ("KEY_DOWN",), (0x01000015,))
"""
from __future__ import annotations

import json
import re
from typing import Dict, Tuple

#: name: (the browser's KeyboardEvent.key, curses' characters and KEY_ constants, Qt's
#: Qt::Key codes). Qt's codes are Qt's ABI (qnamespace.h), the same in Qt 5 and 6; curses'
#: constants are named, their numbers are the curses library's.
SPELLINGS: Dict[str, Tuple[str, Tuple[str, ...], Tuple[int, ...]]] = {
    "Down": ("ArrowDown", ("KEY_DOWN",), (0x01000015,)),
    "Up": ("ArrowUp", ("KEY_UP",), (0x01000013,)),
    "Left": ("ArrowLeft", ("KEY_LEFT",), (0x01000012,)),
    "Right": ("ArrowRight", ("KEY_RIGHT",), (0x01000014,)),
    "PageDown": ("PageDown", ("KEY_NPAGE",), (0x01000017,)),
    "PageUp": ("PageUp", ("KEY_PPAGE",), (0x01000016,)),
    "Home": ("Home", ("KEY_HOME",), (0x01000010,)),
    "End": ("End", ("KEY_END",), (0x01000011,)),
    "Enter": ("Enter", ("KEY_ENTER", "\n", "\r"), (0x01000004, 0x01000005)),   # Qt: Return, and Enter on the keypad
    "Escape": ("Escape", ("\x1b",), (0x01000000,)),
    "Delete": ("Delete", ("KEY_DC",), (0x01000007,)),
    "Backspace": ("Backspace", ("KEY_BACKSPACE", "\x7f", "\b"), (0x01000003,)),
    "Tab": ("Tab", ("\t",), (0x01000001,)),
    "Shift+Tab": ("", ("KEY_BTAB",), (0x01000002,)),   # the browser: Tab with shiftKey; Qt: Backtab
    "Space": (" ", (" ",), (0x20,)),
    "[": ("[", (), (0x5B,)),                  # curses: the character itself
    "]": ("]", (), (0x5D,)),
}
#: The names a key name may have in front of it.
MODIFIERS = ("Ctrl", "Alt", "Shift", "Cmd")
NAMED = sorted({name.rsplit("+", 1)[-1] for name in SPELLINGS}, key=len, reverse=True)
KEY_NAME = re.compile(rf"^(({'|'.join(MODIFIERS)})\+)*([A-Z]|[0-9]|F[1-9]|F1[0-2]|{'|'.join(map(re.escape, NAMED))})$")


def browser_names() -> Dict[str, str]:
    """The browser's ``KeyboardEvent.key`` values that are not the key's name: {"ArrowDown": "Down"}."""
    return {browser: name for name, (browser, _, _) in SPELLINGS.items() if browser and browser != name}


def curses_names() -> Dict[str, str]:
    """curses' spellings (a character, or a KEY_ constant's name) by the key's name."""
    return {spelled: name for name, (_, curses, _) in SPELLINGS.items() for spelled in curses}


def qt_names() -> Dict[int, str]:
    """Qt's key codes by the key's name."""
    return {code: name for name, (_, _, qt) in SPELLINGS.items() for code in qt}


def python_spellings() -> str:
    """The part of keymap.py that names a curses or a Qt key (data, then the two helpers)."""
    curses = "\n".join(f"    {spelled!r}: {name!r}," for spelled, name in curses_names().items())
    qt = "\n".join(f"    0x{code:08X}: {name!r}," for code, name in qt_names().items())
    return f'''

#: The keymap's names of curses' keys: get_wch()'s characters, and its KEY_ codes by their
#: constant's name (a control character is Ctrl+ and its letter; a letter is itself, either case).
CURSES_KEYS: Dict[str, str] = {{
{curses}
}}
#: The keymap's names of Qt's key codes (Qt::Key, qnamespace.h); A-Z, 0-9 and F1-F12 follow rules.
QT_KEYS: Dict[int, str] = {{
{qt}
}}
#: Qt's modifier flags (Qt::KeyboardModifier) as a key name spells them, in that order.
QT_MODIFIERS = ((0x04000000, "Ctrl"), (0x08000000, "Alt"), (0x10000000, "Meta"), (0x02000000, "Shift"))
#: Ctrl, Alt or Meta held: a letter or a digit is a key of the keymap, not text typed.
QT_COMMAND = 0x04000000 | 0x08000000 | 0x10000000
QT_F1, QT_F12 = 0x01000030, 0x0100003B


def curses_key_name(key: Union[int, str]) -> Optional[str]:
    """The keymap's name of a key as curses' ``get_wch()`` returns it (a character or a KEY_
    code): "Down", "Shift+Tab", "Ctrl+Z", "F" (a letter, either case), "F5"; None for a key the
    keymap cannot name (a curses host's only lookup: ``binding_for(curses_key_name(key), screen)``)."""
    if isinstance(key, int):
        return _curses_codes().get(key)
    if key in CURSES_KEYS:
        return CURSES_KEYS[key]
    if len(key) == 1 and 1 <= ord(key) <= 26:
        return f"Ctrl+{{chr(64 + ord(key))}}"
    return key.upper() if len(key) == 1 and key.isprintable() else None


@lru_cache(maxsize=1)
def _curses_codes() -> Dict[int, str]:
    """curses' KEY_ codes by the keymap's names (read from the curses module of the host that asks)."""
    import curses
    codes = {{getattr(curses, spelled): name for spelled, name in CURSES_KEYS.items() if spelled.startswith("KEY_")}}
    codes.update({{curses.KEY_F0 + number: f"F{{number}}" for number in range(1, 13)}})
    return codes


def qt_key_name(key: int, modifiers: int = 0) -> Optional[str]:
    """The keymap's name of a Qt key press (``QKeyEvent.key()`` and ``modifiers().value``):
    "Down", "Shift+Tab", "Ctrl+Z", "F" (a letter, with or without Shift), "F5"; None for a key
    the keymap cannot name (a modifier alone, a character)."""
    if key in QT_KEYS:
        base = QT_KEYS[key]
    elif QT_F1 <= key <= QT_F12:
        base = f"F{{key - QT_F1 + 1}}"
    elif 0x41 <= key <= 0x5A or 0x30 <= key <= 0x39:
        base = chr(key)
        if not modifiers & QT_COMMAND:
            return base                             # typed with or without Shift
    else:
        return None
    held = [name for flag, name in QT_MODIFIERS if modifiers & flag and not base.startswith(name + "+")]
    return "+".join([*held, base])'''


def javascript_names() -> str:
    """keymap.js's table of the browser's keys that are not spelled as their name."""
    return json.dumps(browser_names())
