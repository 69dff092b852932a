"use strict";
// Every screen has a URL (the History API): /search?q=QUERY, /film/ID, /favorites and
// /discover/SECTION. The state gives the URL (urlOf): a new screen pushes a history entry, a
// new query replaces the current one. Back, Forward and a link opened anew go the other way:
// the page sends the app the intents that reach the URL's screen (intentsFor), and the app's
// state, as always, says what is shown.

let target = null;      // the URL Back, Forward or a link is taking the app to, until it is there
let linked = false;     // the first whole state since the page loaded has been compared with its URL

/** The URL of what `state` shows. */
function urlOf(state) {
  const view = state.view;
  if (state.details.length) return `/film/${state.details[state.details.length - 1].movieId}`;
  if (view.screen === "search") return view.query ? `/search?q=${encodeURIComponent(view.query)}` : "/search";
  if (view.screen === "discover") return `/discover/${state.section}`;
  return `/${view.screen}`;
}

/** The app intents that take `state` to the screen of `url` (a path and query); [] when the
 * URL names no screen. */
function intentsFor(url, state) {
  const link = new URL(url, location.origin), parts = link.pathname.split("/").filter(Boolean);
  const ids = state.details.map((d) => d.movieId), backs = (n) => Array.from({ length: n }, () => ({ type: "back" }));
  if (parts[0] === "film" && /^\d{1,15}$/.test(parts[1] || "")) {
    const id = Number(parts[1]), at = ids.lastIndexOf(id);
    return at >= 0 ? backs(ids.length - 1 - at) : [{ type: "opened", movieId: id }];
  }
  const tab = state.view.tabs.some((t) => t.id === parts[0]) ? parts[0] : null;   // the app's tabs, as the view names them
  if (!tab) return [];
  const intents = [...backs(ids.length), { type: "tabSelected", tab }];
  const query = link.searchParams.get("q");
  if (tab === "search" && query !== null && query !== state.view.query) intents.push({ type: "queryChanged", query: sendable(query) });
  if (tab === "discover" && state.view.sections.some((s) => s.id === parts[1])) intents.push({ type: "sectionSelected", section: parts[1] });
  return intents;
}

/** Sends the intents that take the app to `url`; the history follows once it is there. */
function goTo(url) {
  const intents = intentsFor(url, state);
  target = intents.length ? url : null;
  for (const intent of intents) transmit(intent);
}

/** After each render: the first whole state goes to the URL the page was opened at (a link),
 * then the address bar follows the screen shown. */
function followUrl() {
  const here = location.pathname + location.search, url = urlOf(state);
  if (!linked) {
    linked = true;
    if (location.pathname !== "/" && here !== url) return goTo(here);
  }
  if (url === here) { target = null; return; }
  if (target) return;                                    // on the way to Back's or a link's screen
  const screen = (u) => u.split("?")[0];
  if (screen(url) === screen(here) || location.pathname === "/") history.replaceState(null, "", url);
  else history.pushState(null, "", url);
}

window.addEventListener("popstate", () => { if (state) goTo(location.pathname + location.search); });
