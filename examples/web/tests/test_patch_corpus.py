"""The page's RFC 6902 applier (static/patch.js), run in Debian's chromium, passes every case of
the corpus all four hosts' appliers share (schema/golden/patches.json): each good patch gives
exactly the case's result, each bad one throws (the page then reconnects for a whole state)."""

from __future__ import annotations

import json

from conftest import REPO
from test_browser import browser  # noqa: F401  (the fixture: a headless chromium)

RUN_CORPUS = """
const cases = arguments[0], failures = [];
function same(a, b) {
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => same(x, b[i]));
  if (typeof a === "object" && a !== null) {
    if (typeof b !== "object" || b === null || Array.isArray(b)) return false;
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => Object.prototype.hasOwnProperty.call(b, k) && same(a[k], b[k]));
  }
  return a === b;
}
for (const c of cases) {
  let result, error = null;
  try { result = applyPatch(JSON.parse(JSON.stringify(c.doc)), c.patch); } catch (e) { error = e; }
  if ("result" in c && (error || !same(result, c.result))) failures.push(c.name + ": " + (error ? "threw " + error.message : "a different document"));
  if (!("result" in c) && !error) failures.push(c.name + ": applied, but the corpus says it must be refused");
}
return failures;
"""


def test_the_pages_applier_passes_the_shared_corpus(browser):  # noqa: F811
    cases = json.loads((REPO / "schema/golden/patches.json").read_text(encoding="utf-8"))["cases"]
    patch_js = (REPO / "examples/web/static/patch.js").read_text(encoding="utf-8")
    browser.get("about:blank")
    browser.execute_script(patch_js + "\nwindow.applyPatch = applyPatch;")
    failures = browser.execute_script(RUN_CORPUS, cases)
    assert failures == [], failures
    assert len(cases) >= 30
