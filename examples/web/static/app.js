"use strict";
// The movie app's page: it renders the app state the server streams (docs/wire.md, "app")
// and turns clicks and keys into app intents. First a whole state ({"seq":1,"state":...}),
// then RFC 6902 patches ({"seq":n,"patch":[...]}) applied in order. No logic of the app here.

let state = null, seq = 0, socket = null, retry = 500, pending = false;
const $ = (id) => document.getElementById(id);

/** An element with attributes (on* are listeners) and children (strings become text). */
function h(tag, props, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(props || {})) {
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (v !== null && v !== false) el.setAttribute(k, v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) el.append(c);
  return el;
}

/** Sends one app intent (dropped while disconnected: the server's state is the truth). */
function send(intent) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(intent));
}

/** Applies an RFC 6902 patch of add/remove/replace (what the library sends) to doc. */
function applyPatch(doc, patch) {
  for (const op of patch) {
    const keys = op.path.split("/").slice(1).map((k) => k.replace(/~1/g, "/").replace(/~0/g, "~"));
    if (keys.length === 0) { doc = op.value; continue; }
    let parent = doc;
    for (const k of keys.slice(0, -1)) parent = parent[k];
    const last = keys[keys.length - 1];
    if (Array.isArray(parent)) {
      const i = last === "-" ? parent.length : Number(last);
      if (op.op === "add") parent.splice(i, 0, op.value);
      else if (op.op === "remove") parent.splice(i, 1);
      else parent[i] = op.value;
    } else if (op.op === "remove") delete parent[last];
    else parent[last] = op.value;
  }
  return doc;
}

function connect() {
  socket = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws");
  socket.onopen = () => { retry = 500; $("status").textContent = ""; };
  socket.onmessage = (event) => {
    const m = JSON.parse(event.data);
    if (m.error) { $("status").textContent = m.error.message; return; }
    if (m.state !== undefined) { state = m.state; seq = m.seq; }
    else if (m.seq === seq + 1) { state = applyPatch(state, m.patch); seq = m.seq; }
    else { socket.close(); return; }  // a delivery went missing: reconnect for a whole state
    if (!pending) { pending = true; requestAnimationFrame(render); }
  };
  socket.onclose = (event) => {
    socket = null;
    if (event.code === 4001) { $("status").textContent = "Opened in another tab."; return; }
    $("status").textContent = event.code === 4408 ? "Closed while idle: reconnecting…" : "Reconnecting…";
    if (retry > 1000) fetch("/", { cache: "no-store" }).catch(() => {});  // refused twice: a new cookie if ours is no longer good
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 8000);
  };
}

function phaseMessage(phase, what) {
  if (phase.phase === "loading") return h("p", { class: "note" }, "Loading…");
  if (phase.phase === "failed") {
    return h("p", { class: "note" }, `${what} failed: ${phase.error.message} `,
      h("button", { onclick: () => send({ type: "retried" }) }, "Try again"));
  }
  return null;
}

/** A list of films; a click keeps the position and opens the film. */
function movieList(list, movies, removable) {
  const pos = state.positions[list];
  return h("ol", { class: "movies", "data-list": list }, movies.map((m, i) => h("li", {
    class: pos && pos.selection === i ? "selected" : null, "data-id": m.id,
    onclick: () => {
      send({ type: "moved", list, selection: i, firstVisible: pos ? Math.min(pos.firstVisible, i) : 0 });
      send({ type: "opened", movieId: m.id });
    },
  }, h("span", { class: "title" }, m.title), ` (${m.year}) `,
  h("span", { class: "meta" }, [`★ ${m.rating.toFixed(1)}`, `${m.runtime} min`, m.genres.join(", ")].filter(Boolean).join(" · ")),
  removable ? [" ", h("button", { class: "remove", onclick: (e) => { e.stopPropagation(); send({ type: "removed", movieId: m.id }); } }, "Remove")] : null)));
}

/** "More": a selection past the last row loads the next page (the app decides). */
function more(list, count, owner) {
  if (owner.isExhausted) return null;
  if (owner.loadMoreError) return h("p", { class: "note" }, `More failed: ${owner.loadMoreError.message}`);
  return h("button", { id: "more", disabled: owner.isLoadingMore ? "" : null,
    onclick: () => send({ type: "moved", list, selection: count, firstVisible: Math.max(0, count - 10) }) },
  owner.isLoadingMore ? "Loading…" : "More");
}

function searchView() {
  const search = state.search, results = search.results;
  const movies = results.phase === "loaded" ? results.value : [];
  let note = null;
  if (search.query.trim().length < 2) note = "Type at least two characters to search.";
  else if (results.phase !== "failed" && (results.phase !== "loaded" || results.query !== search.query.trim())) note = "Searching…";
  else if (results.phase === "loaded" && movies.length === 0) note = "No movies match.";
  else if (results.phase === "loaded") note = `${movies.length} shown${search.isExhausted ? "" : ", more match"}`;
  return h("section", { id: "screen-search" },
    search.hint ? h("p", { class: "note hint" }, search.hint.text) : null,
    note ? h("p", { class: "note", id: "count" }, note) : phaseMessage(results, "Search"),
    movieList("search", movies, false), movies.length ? more("search", movies.length, search) : null);
}

function discoverView() {
  const sections = state.discover.sections;
  const chosen = sections.find((s) => s.section === state.section) || sections[0];
  const movies = chosen && chosen.movies.phase === "loaded" ? chosen.movies.value : [];
  return h("section", { id: "screen-discover" },
    h("div", { class: "sections" }, sections.map((s) => h("button", {
      class: s === chosen ? "active" : null, "data-section": s.section,
      onclick: () => send({ type: "sectionSelected", section: s.section }),
    }, s.title))),
    chosen ? [phaseMessage(chosen.movies, chosen.title), movieList(chosen.section, movies, false),
      movies.length ? more(chosen.section, movies.length, chosen) : null] : null);
}

function favoritesView() {
  const favorites = state.favorites.favorites;
  const movies = favorites.phase === "loaded" ? favorites.value : [];
  return h("section", { id: "screen-favorites" },
    state.favorites.removalError ? h("p", { class: "note" }, `Could not remove: ${state.favorites.removalError.message}`) : null,
    phaseMessage(favorites, "Favorites"),
    favorites.phase === "loaded" && !movies.length ? h("p", { class: "note" }, "No favorites yet: open a film and press ♡.") : null,
    movieList("favorites", movies, true));
}

function detailView(shown) {
  const d = shown.detail.phase === "loaded" ? shown.detail.value : null, movie = d || shown.listing;
  const heart = h("button", { id: "heart", disabled: shown.isSaving ? "" : null,
    onclick: () => send({ type: "detail", intent: { type: "favoriteToggled" } }) },
  shown.isFavorite ? "♥ Favorite" : "♡ Add to favorites");
  const peak = d && d.ratingDistribution.length ? Math.max(...d.ratingDistribution) || 1 : 1;
  return h("section", { id: "screen-detail", "data-id": shown.movieId },
    h("p", {}, h("button", { id: "back", onclick: () => send({ type: "back" }) }, "← Back")),
    movie ? h("h2", {}, `${movie.title} (${movie.year})`) : null, heart,
    shown.favoriteError ? h("p", { class: "note" }, `Could not save: ${shown.favoriteError.message}`) : null,
    phaseMessage(shown.detail, "The detail"),
    d ? h("dl", {}, [["Runtime", `${d.runtime} min`], ["Genres", d.genres.join(", ") || "none listed"],
      ["MPAA", d.mpaa || "unknown"], ["Budget", d.budget ? `$${d.budget.toLocaleString("en-US")}` : "unknown"],
      ["Rating", `${d.rating.toFixed(1)}/10 from ${d.votes.toLocaleString("en-US")} votes`]].map(([k, v]) => [h("dt", {}, k), h("dd", {}, v)]),
      h("dt", {}, "Votes per star"), h("dd", {}, d.ratingDistribution.map((share, i) => h("div", {},
        `${i + 1}★ `, h("span", { class: "bar", style: `width:${Math.round(share / peak * 300)}px` }),
        `${(share * (peak <= 1 ? 100 : 1)).toFixed(1)}%`)).reverse())) : null);
}

function render() {
  pending = false;
  const shown = state.details.length ? state.details[state.details.length - 1] : null;
  for (const tab of ["search", "discover", "favorites"]) $(`tab-${tab}`).className = state.tab === tab && !shown ? "active" : "";
  const notice = state.notice, box = $("notice");
  box.hidden = !notice;
  box.replaceChildren(...(notice ? [h("span", {}, notice.text),
    notice.offersUndo ? h("button", { id: "undo", onclick: () => send({ type: "undo" }) }, "Undo") : "",
    h("button", { onclick: () => send({ type: "noticeDismissed", id: notice.id }) }, "Dismiss")] : []));
  const query = $("query");
  query.hidden = state.tab !== "search" || !!shown;
  if (document.activeElement !== query || seq === 1) query.value = state.search.query;  // a whole state: the box too
  const view = shown ? detailView(shown) : state.tab === "search" ? searchView()
    : state.tab === "discover" ? discoverView() : favoritesView();
  $("main").replaceChildren(view);
  document.body.dataset.seq = seq;  // the browser test waits on it
}

document.querySelectorAll("[data-tab]").forEach((b) => b.addEventListener("click", () => send({ type: "tabSelected", tab: b.dataset.tab })));
$("query").addEventListener("input", (e) => send({ type: "queryChanged", query: e.target.value }));
connect();
