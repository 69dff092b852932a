"use strict";
// The movie app's page: the connection. The server streams the app state (docs/wire.md, "app"):
// first a whole state ({"seq":1,"state":...}), then RFC 6902 patches ({"seq":n,"patch":[...]})
// applied in order; render.js draws the state's `view`, keys.js turns keys into the keymap's
// actions. No logic of the app here: what a screen says and what a key does are the core's.

let state = null, seq = 0, socket = null, retry = 500, pending = false;
let whole = false;   // a whole state came since the last render (a load, a reconnect): the field follows it
const $ = (id) => document.getElementById(id);
const SHOWN_ROWS = 20;   // the rows of a list the page shows (told to the app: "resized")
/** The characters of a typed or pasted query the page sends at most: an intent's frame holds
 * 4,096 bytes (the server's bound) and a character takes at most 6 of them in JSON. The app
 * keeps a search's own bound of them (256) and its notice says the query was shortened. */
const QUERY_SENT = 600;

/** Sends one app intent the person asked for (a key, a click, typing): the page no longer
 * heads for a URL of its own (urls.js). */
function send(intent) {
  target = null;
  transmit(intent);
}

/** Sends one app intent (dropped while disconnected: the server's state is the truth). */
function transmit(intent) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(intent));
}

/** Renders the state at the next frame (once, however many deliveries came meanwhile). */
function schedule() {
  if (!pending) { pending = true; requestAnimationFrame(() => { pending = false; render(); }); }
}

/** A query as the page sends it: at most QUERY_SENT characters. */
function sendable(query) {
  return Array.from(query).slice(0, QUERY_SENT).join("");
}

/** Offline, the page says so and takes no input (the field is read-only, the buttons and
 * keys do nothing): what was shown stays, and nothing typed is lost silently. */
function online(yes, status) {
  document.body.classList.toggle("offline", !yes);
  $("query").readOnly = !yes;
  $("status").textContent = status;
}

function connect() {
  socket = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws");
  socket.onopen = () => {
    retry = 500;
    online(true, "");
    target = null;                       // a Back taken offline: the state's URL wins
    transmit({ type: "resized", rows: SHOWN_ROWS });
  };
  socket.onmessage = (event) => {
    const m = JSON.parse(event.data);
    if (m.error) { $("status").textContent = m.error.message; return; }
    if (m.state !== undefined) { state = m.state; seq = m.seq; whole = true; }
    else if (m.seq === seq + 1) {
      try { state = applyPatch(state, m.patch); seq = m.seq; }
      catch (error) { socket.close(); return; }   // a patch that does not apply: reconnect for a whole state
    } else { socket.close(); return; }  // a delivery went missing: reconnect for a whole state
    schedule();
  };
  socket.onclose = (event) => {
    socket = null;
    if (event.code === 4001) { online(false, "Opened in another tab."); return; }
    online(false, (event.code === 4408 ? "Closed while idle: reconnecting…" : "Reconnecting…") + " Nothing you do is sent until then.");
    if (retry > 1000) fetch("/", { cache: "no-store" }).catch(() => {});  // refused twice: a new cookie if ours is no longer good
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 8000);
  };
}

document.querySelectorAll("[data-tab]").forEach((b) => b.addEventListener("click", () => send({ type: "tabSelected", tab: b.dataset.tab })));
online(false, "connecting…");
$("query").addEventListener("input", (e) => send({ type: "queryChanged", query: sendable(e.target.value) }));
document.addEventListener("keydown", onKey);
$("help").addEventListener("click", () => showHelp(false));
connect();
