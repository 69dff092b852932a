"""Schema-driven property tests of restores (issue #22, item 5): random valid snapshots of
all four features, generated from the schema's ``storeSnapshot`` and ``runtimeSnapshot``
defs (hypothesis-jsonschema), are restored in a runtime whose host catalog always has another
full page. Nothing crashes, every state validates against the schema (the conftest checks
each one delivered or read), the work a restore does is bounded (Search at most 25 pages,
Discover at most 10 per section, Detail one movie), and the restored store's own snapshot is
valid and carries the view through.
"""

from __future__ import annotations

import json
import sys
import threading
from collections import Counter
from typing import Any, Dict, List, Tuple

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from hypothesis_jsonschema import from_schema

import cinematic

from conftest import REPO

sys.path.insert(0, str(REPO / "tools"))
import wirecheck  # noqa: E402

SCHEMA: Dict[str, Any] = json.loads((REPO / "schema" / "cinematic.schema.json").read_text())
FEATURES: List[str] = [f["name"] for f in SCHEMA["x-cinematic"]["features"]]
PAGE = 20
#: The caps of include/cinematic/snapshot.h, SNAPSHOTS.
SEARCH_PAGES, DISCOVER_PAGES = 25, 10

# Restores reload through the catalog: fewer examples than the intent properties.
SETTINGS = settings(max_examples=20, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                                           HealthCheck.filter_too_much, HealthCheck.data_too_large])


def store_snapshots(feature: str) -> st.SearchStrategy[Any]:
    """Valid ``storeSnapshot``s of ``feature`` (the def, with its feature fixed)."""
    return from_schema({"$defs": SCHEMA["$defs"],
                        "allOf": [{"$ref": "#/$defs/storeSnapshot"}, {"properties": {"feature": {"const": feature}}}]})


ANY_STORE = st.one_of(*[store_snapshots(feature) for feature in FEATURES])
RUNTIME = from_schema({"$defs": SCHEMA["$defs"], "allOf": [
    {"$ref": "#/$defs/runtimeSnapshot"},
    {"properties": {"stores": {"maxItems": 6, "items": {"properties": {"feature": {"enum": FEATURES}}}}}}]})


class CountingCatalog:
    """A host catalog that always has one more full page; counts requests per store kind."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.requests: Counter[Tuple[str, str]] = Counter()

    def __call__(self, request_id: int, request: Dict[str, Any]) -> Dict[str, Any]:
        with self.lock:
            self.requests[(request["op"], str(request.get("section", request.get("query", request.get("id")))))] += 1
        if request["op"] == "movie":
            return {"movie": {"id": request["id"], "title": f"Movie {request['id']}", "budget": None,
                              "ratingDistribution": [10.0] * 10}}
        base = int(request.get("page", 1)) * 1000
        return {"movies": [{"id": base + i, "title": f"Movie {base + i}"} for i in range(PAGE)]}


def depth(value: Any) -> int:
    if isinstance(value, dict):
        return 1 + max((depth(v) for v in value.values()), default=0)
    if isinstance(value, list):
        return 1 + max((depth(v) for v in value), default=0)
    return 0


def beyond_json_rules(value: Any) -> bool:
    """An integer beyond 64 bits (CINEMATIC_ERR_INVALID) or a NUL in a string, key or value
    (CINEMATIC_ERR_JSON): refused by the library's JSON reader (jansson)."""
    if isinstance(value, dict):
        return any("\x00" in k or beyond_json_rules(v) for k, v in value.items())
    if isinstance(value, list):
        return any(beyond_json_rules(v) for v in value)
    if isinstance(value, str):
        return "\x00" in value
    return isinstance(value, int) and not isinstance(value, bool) and not -2**63 <= value < 2**63


def as_encoded(value: Any) -> Any:
    """``value`` as the library writes it back: reals with 15 significant digits (every
    number the library encodes, JSON_REAL_PRECISION(15): 6.3 stays 6.3)."""
    if isinstance(value, dict):
        return {k: as_encoded(v) for k, v in value.items()}
    if isinstance(value, list):
        return [as_encoded(v) for v in value]
    if isinstance(value, float):
        return float(f"{value:.15g}")
    return value


def refusable(snapshot: Dict[str, Any]) -> bool:
    """True for a schema-valid snapshot the library may refuse for limits the schema does not
    spell out: a view over 4096 bytes or 8 levels, a query over 1024 UTF-8 bytes, the JSON
    rules (CINEMATIC_ERR_JSON), a ``library`` over 64 UTF-8 bytes (the schema counts 64
    characters); an app's query like a search's. A runtime snapshot: its own members (its
    stores are checked one by one)."""
    if beyond_json_rules(snapshot):
        return True
    library = snapshot.get("library")
    if isinstance(library, str) and len(library.encode("utf-8", "surrogatepass")) > 64:
        return True
    if "feature" not in snapshot:
        return False
    view = snapshot.get("view")
    if view is not None and (len(json.dumps(view, separators=(",", ":"), ensure_ascii=False).encode("utf-8", "surrogatepass")) > 3500
                             or depth(view) >= 7):
        return True
    query = snapshot["data"].get("query") if snapshot["feature"] in ("search", "app") else None
    return isinstance(query, str) and len(query.encode("utf-8", "surrogatepass")) > 1024


def valid(kind: str, value: Any) -> None:
    problem = wirecheck.validate(kind, value, None)
    assert problem is None, f"{kind}: {problem}: {str(value)[:300]}"


def check_restored(store: "cinematic.Store[Any]", snapshot: Dict[str, Any], catalog: CountingCatalog) -> None:
    feature = snapshot["feature"]
    if feature in ("search", "discover"):
        store.settle(20)
    else:
        store.wait_for(lambda state: "detail" not in state or state["detail"]["phase"] != "loading", 20)
    state = store.state  # validated by the conftest
    if feature == "search":
        query = snapshot["data"]["query"]
        pages = sum(n for (op, key), n in catalog.requests.items() if op == "search")
        assert pages <= SEARCH_PAGES, (snapshot, pages)
        if query.strip() and len(query.strip()) >= 2:
            assert state["pagesLoaded"] == pages <= SEARCH_PAGES
    elif feature == "discover":
        per_section = Counter(key for (op, key), n in catalog.requests.items() for _ in range(n) if op == "discover")
        assert all(n <= DISCOVER_PAGES for n in per_section.values()), per_section
        listed = {entry["section"] for entry in snapshot["data"]["sections"]}
        assert set(per_section) == listed
    elif feature == "detail":
        assert sum(n for (op, _), n in catalog.requests.items() if op == "movie") == 1
        assert state["movieId"] == snapshot["data"]["movieId"]
    again = store.snapshot()
    valid("snapshot", again)
    assert again["feature"] == feature and again.get("view") == as_encoded(snapshot.get("view"))


@SETTINGS
@given(snapshot=ANY_STORE)
def test_random_store_snapshots_restore_sanely(runtimes, snapshot: Dict[str, Any]) -> None:
    runtime = runtimes({"clock": "manual", "catalog": "host", "offlineCache": {"path": ":memory:"}})
    catalog = CountingCatalog()
    runtime.set_provider(catalog)
    try:
        store = runtime.restore(snapshot)
    except (cinematic.InvalidError, cinematic.JSONError):
        assert refusable(snapshot), f"refused a valid snapshot: {str(snapshot)[:300]}"
        return
    assert store.feature == snapshot["feature"]
    check_restored(store, snapshot, catalog)
    runtime.close()


@SETTINGS
@given(snapshot=RUNTIME)
def test_random_runtime_snapshots_restore_all_or_nothing(runtimes, snapshot: Dict[str, Any]) -> None:
    runtime = runtimes({"clock": "manual", "catalog": "host", "offlineCache": {"path": ":memory:"}})
    catalog = CountingCatalog()
    runtime.set_provider(catalog)
    try:
        stores = runtime.restore_all(snapshot)
    except (cinematic.InvalidError, cinematic.JSONError):
        assert refusable(snapshot) or any(refusable(entry) for entry in snapshot["stores"]), \
            f"refused: {str(snapshot)[:300]}"
        assert runtime.stores == []  # all or nothing
        return
    assert [store.feature for store in stores] == [entry["feature"] for entry in snapshot["stores"]]
    for store in stores:
        if store.feature in ("search", "discover"):
            store.settle(20)
    # Bounded work over all the stores at once.
    # An app restores a Search of its own and its open Details (each loads its film once).
    searches = sum(1 for entry in snapshot["stores"] if entry["feature"] in ("search", "app"))
    assert sum(n for (op, _), n in catalog.requests.items() if op == "search") <= SEARCH_PAGES * searches
    details = sum(1 if entry["feature"] == "detail" else len(entry["data"]["details"]) if entry["feature"] == "app"
                  else 0 for entry in snapshot["stores"])
    for store in stores:
        if store.feature == "detail":
            store.wait_for(lambda state: state["detail"]["phase"] != "loading", 20)
    assert sum(n for (op, _), n in catalog.requests.items() if op == "movie") <= details
    again = runtime.snapshot()
    valid("runtimeSnapshot", again)
    assert [entry.get("view") for entry in again["stores"]] == [as_encoded(entry.get("view")) for entry in snapshot["stores"]]
    runtime.close()


@pytest.mark.parametrize("feature", FEATURES)
def test_the_property_strategies_cover_every_feature(feature: str) -> None:
    # Each feature's strategy on its own (ANY_STORE is one_of all of them): drawing from
    # ANY_STORE and hoping every branch comes up was flaky on a fresh clone.
    seen: List[str] = []

    @settings(max_examples=5, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @given(store_snapshots(feature))
    def collect(snapshot: Dict[str, Any]) -> None:
        valid("snapshot", snapshot)
        seen.append(snapshot["feature"])

    collect()
    assert seen and set(seen) == {feature}


def test_the_validity_check_refuses_a_wrong_snapshot() -> None:
    with pytest.raises(AssertionError):
        valid("snapshot", {"format": 1, "feature": "search", "data": {"query": 1, "pagesLoaded": 1}})
