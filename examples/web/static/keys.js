"use strict";
// Keys: the app's one keymap (keymap.js, generated from app.wire.md). A key's name
// (keyName) and the screen shown give its binding (bindingFor): an `action` is sent to the
// app as it is; a `host` binding is the page's own: "help" opens the list of keys, the
// others ("debug", "quit") mean nothing in a browser and are left to it.

/** The keymap's platforms for this browser: its own keys, then the Mac's on a Mac. */
const PLATFORMS = /Mac|iPhone|iPad/.test(navigator.platform || "") ? ["browser", "mac"] : ["browser"];

/** Keys the search field keeps while it has focus: they edit the text typed (which is the
 * query, never a key of the keymap). Down, Up, PageDown, PageUp, Enter, Tab and the F keys
 * go to the keymap from the field too. */
const FIELD_KEYS = new Set(["Backspace", "Delete", "Left", "Right", "Home", "End", "Space",
  "Shift+Left", "Shift+Right", "Shift+Home", "Shift+End", "Escape"]);
const FIELD_SHORTCUTS = new Set(["A", "C", "V", "X", "Y", "Z"]);   // with Ctrl or Cmd: select, copy, paste, cut, redo, undo

/** True when the search field, focused, takes the key itself. */
function fieldKeeps(event, name) {
  if (event.target !== $("query")) return false;
  if (event.key.length === 1) return !(event.ctrlKey || event.metaKey || event.altKey) || FIELD_SHORTCUTS.has(event.key.toUpperCase());
  return FIELD_KEYS.has(name);
}

/** The binding of the key on the screen shown, trying this browser's platforms in turn. */
function bindingOf(name, screen) {
  for (const platform of PLATFORMS) {
    const binding = bindingFor(name, screen, platform);
    if (binding) return binding;
  }
  return null;
}

/** Shows (or hides) the list of keys: every binding of the keymap, as helpLines gives it. */
function showHelp(open) {
  const box = $("help");
  if (open) {
    box.replaceChildren(h("div", { class: "help-box", role: "dialog", "aria-label": "Keys" },
      h("h2", {}, "Keys"),
      h("table", {}, helpLines(null, "browser", ["help"]).map(([keys, what]) => h("tr", {}, h("th", {}, keys), h("td", {}, what)))),
      h("p", { class: "note" }, "F1 or Escape closes this list.")));
  }
  box.hidden = !open;
}

function onKey(event) {
  if (event.isComposing || !state) return;                 // an input method is composing text
  const name = keyName(event);
  if (!$("help").hidden) {                                  // the list of keys is open: it takes the keys
    if (name === "Escape" || name === "F1") { event.preventDefault(); showHelp(false); }
    return;
  }
  if (fieldKeeps(event, name)) return;
  const binding = bindingOf(name, state.view.screen);
  if (!binding) return;
  if (binding.action) {
    event.preventDefault();
    send(binding.action);
  } else if (binding.host === "help") {
    event.preventDefault();
    showHelp(true);
  }                                                         // "debug", "quit": the browser's own keys
}
