"""`make bench`: what a Python host pays to keep a store's state current, whole states against
patches (``Runtime(patches=False)`` vs the default).

For Discover's Comedy section paged to page 100 on the embedded catalog: the time from
``load_more`` to the subscriber holding the new page (intent sent → host's state up to date,
medians of 5 pages around pages 2, 10 and 100), and, at page 100, what updating the host's
state costs by itself: ``json.loads`` of the whole state against applying the last patch.
Target: at page 100 the patch update is at least 10x faster than parsing the whole state.
Medians from one run.
"""

from __future__ import annotations

import json
import statistics
import threading
import time
from typing import Any, Dict, List

import cinematic
from cinematic._patch import apply_patch

PAGES = 100
AROUND = (2, 10, PAGES)


def page_times(patches: bool) -> Dict[int, float]:
    """Seconds from load_more to the subscriber's state having the page, per page."""
    times: Dict[int, float] = {}
    with cinematic.Runtime(patches=patches) as runtime, runtime.discover() as discover:
        seen = threading.Condition()
        latest: Dict[str, Any] = {"pages": 0}

        def received(state: Any) -> None:
            comedy = state["sections"][4]
            with seen:
                latest["pages"] = comedy["pagesLoaded"] if not comedy["isLoadingMore"] else latest["pages"]
                seen.notify_all()

        discover.subscribe(received)
        discover.task()
        discover.settle(30)
        for page in range(2, PAGES + 1):
            start = time.perf_counter()
            discover.load_more("comedy")
            with seen:
                if not seen.wait_for(lambda: latest["pages"] >= page, timeout=30):
                    raise SystemExit(f"page {page} never reached the subscriber")
            times[page] = time.perf_counter() - start
    return times


def median_around(times: Dict[int, float], page: int) -> float:
    low = max(2, page - 2)
    return statistics.median(times[p] for p in range(low, min(PAGES, low + 4) + 1))


def update_costs() -> tuple[float, float, int, int]:
    """At page 100: (json.loads of the whole state, applying the last patch), in seconds,
    and the sizes of the two."""
    envelopes: List[bytes] = []
    with cinematic.Runtime() as runtime, runtime.discover() as discover:
        original = discover._deliver

        def record(raw: bytes) -> None:
            envelopes.append(raw)
            original(raw)

        discover._deliver = record  # type: ignore[method-assign]
        discover.subscribe(lambda state: None)
        discover.task()
        discover.settle(30)
        for _ in range(2, PAGES + 1):
            discover.load_more("comedy")
            discover.settle(30)
        whole = discover.state_json.encode()
        previous = discover.delivered_state
        last_patch = next(raw for raw in reversed(envelopes) if b'"add"' in raw)
    loads = min(_timed(lambda: json.loads(whole)) for _ in range(20))
    base = json.loads(whole)
    patch = json.loads(last_patch)["patch"]
    # Apply to a state in the shape of the one before that delivery (same sizes; the cost is
    # copying the touched containers and inserting the new films).
    comedy = base["sections"][4]["movies"]["value"]
    del comedy[len(comedy) - sum(1 for op in patch if op["op"] == "add"):]
    apply = min(_timed(lambda: apply_patch(base, json.loads(last_patch)["patch"])) for _ in range(20))
    assert previous is not None
    return loads, apply, len(whole), len(last_patch)


def _timed(body: Any) -> float:
    start = time.perf_counter()
    body()
    return time.perf_counter() - start


def main() -> None:
    print(f"python host: Discover's Comedy section paged to page {PAGES}, load_more to the subscriber's state updated")
    whole, patched = page_times(patches=False), page_times(patches=True)
    print("  mode             " + "".join(f"page {page:<4} " for page in AROUND) + " 100 vs 2")
    for name, times in (("whole states", whole), ("patches", patched)):
        cells = "".join(f"{median_around(times, page) * 1e3:7.2f} ms " for page in AROUND)
        print(f"  {name:<16} {cells} {median_around(times, PAGES) / median_around(times, 2):.2f}x")
    loads, apply, whole_bytes, patch_bytes = update_costs()
    print(f"  at page {PAGES}: json.loads of the whole state ({whole_bytes // 1024} KB) {loads * 1e6:.0f} µs; "
          f"parsing and applying the patch ({patch_bytes} B) {apply * 1e6:.0f} µs: {loads / apply:.1f}x faster")
    print("  target: the patch update at least 10x faster than parsing the whole state")


if __name__ == "__main__":
    main()
