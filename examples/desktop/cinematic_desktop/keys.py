"""Keys: a Qt key event becomes a key name of the app's one keymap (:mod:`cinematic.keymap`:
"Down", "Enter", "Shift+Tab", "Ctrl+Z", "F"), looked up for the screen shown. A binding's
``action`` goes to the app store as it is; its ``host`` is the window's own (the help, the
debug panel, quitting). The window's buttons send the keymap's actions too (``keymap.action_for``)."""

from __future__ import annotations

from typing import Dict, Optional

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeyEvent

from cinematic import keymap

Key = Qt.Key
Mod = Qt.KeyboardModifier

#: Qt's keys by the keymap's names (letters and F keys are spelled alike).
NAMES: Dict[int, str] = {
    Key.Key_Down: "Down", Key.Key_Up: "Up", Key.Key_PageDown: "PageDown", Key.Key_PageUp: "PageUp",
    Key.Key_Home: "Home", Key.Key_End: "End", Key.Key_Return: "Enter", Key.Key_Enter: "Enter",
    Key.Key_Escape: "Escape", Key.Key_Delete: "Delete", Key.Key_Tab: "Tab", Key.Key_Backtab: "Tab",
    Key.Key_Left: "Left", Key.Key_Right: "Right",
    **{getattr(Key, f"Key_F{number}"): f"F{number}" for number in range(1, 13)},
}
#: The modifiers a key name spells, in the keymap's order.
MODIFIERS = ((Mod.ControlModifier, "Ctrl"), (Mod.AltModifier, "Alt"), (Mod.MetaModifier, "Meta"),
             (Mod.ShiftModifier, "Shift"))


def key_name(event: QKeyEvent) -> Optional[str]:
    """The keymap's name of a key press: "Down", "Shift+Tab", "Ctrl+Z", "F" (a letter, either
    case); None for a key the keymap cannot name (a modifier alone, a character)."""
    key, modifiers = int(event.key()), event.modifiers()
    if key in NAMES:
        base = NAMES[key]
        if key == Key.Key_Backtab:
            modifiers |= Mod.ShiftModifier
    elif Key.Key_A <= key <= Key.Key_Z:
        base = chr(key)
        if not modifiers & (Mod.ControlModifier | Mod.AltModifier | Mod.MetaModifier):
            return base                       # a letter, typed with or without Shift
    else:
        return None
    held = [name for flag, name in MODIFIERS if modifiers & flag]
    return "+".join([*held, base])


def binding_of(event: QKeyEvent, screen: str) -> Optional[keymap.Binding]:
    """The keymap's binding of ``event`` on ``screen`` (the view's), or None."""
    name = key_name(event)
    return keymap.binding_for(name, screen) if name is not None else None

