"use strict";
// Draws the app state's `view` (schema appView): the screen, its rows or message and status
// line, or the Detail's heading, facts, heart and histogram, and where it came from. Every
// sentence is the core's, as it is; the page adds only its buttons. Clicks send app intents.

/** An element with attributes (on* are listeners) and children (strings become text). */
function h(tag, props, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(props || {})) {
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (v !== null && v !== false && v !== undefined) el.setAttribute(k, v);
  }
  for (const c of children.flat(Infinity)) if (c !== null && c !== undefined && c !== false && c !== "") el.append(c);
  return el;
}

/** A button sending `intent`, disabled unless `enabled`. */
function action(label, intent, enabled, id) {
  return h("button", { id, disabled: enabled ? null : "", onclick: () => send(intent) }, label);
}

/** The message shown instead of content (idle, loading, empty, failed), with a retry. */
function message(m, actions) {
  if (!m) return null;
  return h("div", { class: `message ${m.kind}`, id: "message" },
    h("p", { class: "heading" }, m.heading), m.body ? h("p", { class: "body" }, m.body) : null,
    m.kind === "failed" && actions.retried ? action("Try again", { type: "retried" }, true, "retry") : null);
}

/** A row: its film's words as the core gives them. A click keeps the position and opens it. */
function row(list, r, index, removable) {
  const meta = [r.rating ? `★ ${r.rating}` : "", r.genres].filter(Boolean).join(" · ");
  return h("li", {
    class: r.selected ? "selected" : null, "data-id": r.id,
    onclick: () => {
      send({ type: "moved", list: list.list, selection: list.firstVisible + index, firstVisible: list.firstVisible });
      send({ type: "opened", movieId: r.id });
    },
  }, h("span", { class: "title" }, r.title), r.year ? h("span", { class: "year" }, ` (${r.year})`) : null,
  meta ? h("span", { class: "meta" }, " ", meta) : null,
  removable ? h("button", { class: "remove", onclick: (e) => { e.stopPropagation(); send({ type: "removed", movieId: r.id }); } }, "Remove") : null);
}

/** A tab's screen: title, its list's rows in view (or the message), status line, paging. */
function listScreen(view) {
  const list = view.list, actions = view.actions;
  const sections = view.screen === "discover" ? h("nav", { class: "sections", id: "sections" }, view.sections.map((s) =>
    h("button", { "data-section": s.id, class: s.chosen ? "active" : "", onclick: () => send({ type: "sectionSelected", section: s.id }) }, s.title))) : null;
  return h("section", { id: `screen-${view.screen}` }, sections,
    h("div", { class: "bar-line" }, h("h2", { id: "title" }, view.title),
      h("button", { id: "sort", title: `Sort (${keysFor({ type: "sortNext" }, "browser")})`, onclick: () => send({ type: "sortNext" }) }, view.sortLabel)),
    list ? [
      message(list.message, actions),
      list.hint ? h("p", { class: "note", id: "hint" }, list.hint) : null,
      list.rows.length ? h("ol", { class: "movies", "data-list": list.list, start: list.firstVisible + 1 },
        list.rows.map((r, i) => row(list, r, i, view.screen === "favorites"))) : null,
      list.status || list.rows.length ? h("div", { class: "bar-line" },
        h("p", { class: "status", id: "list-status" }, list.status),
        list.count > list.rows.length ? [
          h("button", { id: "page-up", title: `Previous page (${keysFor({ type: "pageBy", delta: -1 }, "browser")})`, onclick: () => send({ type: "pageBy", delta: -1 }) }, "▲"),
          h("button", { id: "page-down", title: `Next page (${keysFor({ type: "pageBy", delta: 1 }, "browser")})`, onclick: () => send({ type: "pageBy", delta: 1 }) }, "▼")] : null,
        actions.loadMore ? action("More", { type: "loadMore" }, true, "more") : null) : null,
    ] : null);
}

/** The votes per star: each bar as long as its share (the core's 0-100% scale). */
function histogram(hist) {
  if (!hist) return null;
  return h("figure", { class: "histogram", id: "histogram" },
    h("figcaption", {}, hist.heading),
    hist.bars.map((b) => {
      const bar = h("span", { class: "fill" });
      bar.style.width = `${Math.max(0, Math.min(1, b.fraction)) * 100}%`;
      return h("div", { class: "hist-row" }, h("span", { class: "stars" }, b.starsLabel),
        h("span", { class: "track" }, bar), h("span", { class: "share" }, b.label));
    }),
    h("p", { class: "note" }, hist.note));
}

/** The Detail: back, heading, heart, the message while loading or failed, facts, histogram. */
function detailScreen(view) {
  const d = view.detail;
  return h("section", { id: "screen-detail" },
    h("p", {}, action("← Back", { type: "back" }, view.actions.back, "back")),
    h("h2", { id: "title" }, d.heading),
    h("p", {}, h("button", { id: "heart", class: d.isFavorite ? "on" : null,
      onclick: () => send({ type: "detail", intent: { type: "favoriteToggled" } }) }, `${d.isFavorite ? "♥" : "♡"} ${d.heart}`)),
    message(d.message, view.actions),
    d.facts.length ? h("dl", { class: "facts", id: "facts" }, d.facts.map((f) => [h("dt", {}, f.label), h("dd", {}, f.value)])) : null,
    histogram(d.histogram));
}

/** The notice (state.notice): its words, Undo when it offers undo, Dismiss. */
function renderNotice(notice) {
  const box = $("notice");
  box.hidden = !notice;
  box.replaceChildren(...(notice ? [h("span", {}, notice.text),
    notice.offersUndo ? h("button", { id: "undo", onclick: () => send({ type: "undo" }) }, "Undo") : "",
    h("button", { id: "dismiss", onclick: () => send({ type: "noticeDismissed", id: notice.id }) }, "Dismiss")] : []));
}

function render() {
  const view = state.view;
  for (const tab of view.tabs) {
    const button = $(`tab-${tab.id}`);
    button.textContent = tab.title;
    button.className = tab.chosen && view.screen !== "detail" ? "active" : "";
  }
  renderNotice(state.notice);
  const query = $("query");
  query.hidden = view.screen !== "search";
  // The field holds what was typed; a whole state (a reload, a reconnect) sets it too, and so
  // do a query the app shortened (a long paste: its notice says so) and a URL's (urls.js).
  const shortened = state.notice && state.notice.kind === "queryShortened" && query.value.length > view.query.length
    && query.value.startsWith(view.query);
  if (document.activeElement !== query || whole || shortened || target) query.value = view.query;
  const screen = view.detail ? detailScreen(view) : listScreen(view);
  $("main").replaceChildren(screen, view.source ? h("p", { class: "source", id: "source" }, view.source) : "");
  document.title = `${view.title} · Cinematic`;
  if (!query.hidden && (!document.activeElement || document.activeElement === document.body)) query.focus();
  followUrl();
  keepSelectionInView();
  document.body.dataset.seq = seq;        // the browser test waits on it
  document.body.dataset.screen = view.screen;
  whole = false;
}

let selectedShown = null;   // the selected row last brought into view: "list/index"

/** Scrolls the selected row into view when it changed (a key moved it) or a whole state came
 * (a reload, a reconnect: the same place, scrolled to again); never on other deliveries. */
function keepSelectionInView() {
  const list = state.view.list, row = document.querySelector("ol.movies li.selected");
  const key = list && list.selection !== null ? `${list.list}/${list.selection}` : null;
  if (row && (key !== selectedShown || whole)) row.scrollIntoView({ block: "nearest" });
  selectedShown = key;
}
