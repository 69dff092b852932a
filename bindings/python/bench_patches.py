"""`make bench`: what a Python host pays to keep a store's state current, whole states against
patches (``Runtime(patches=False)`` vs the default).

For Discover's Comedy section paged past page 100 on the embedded catalog: the time from
``load_more`` to the subscriber holding the new page (intent sent → host's state up to date,
medians of the load_mores from the 5 pages around pages 1, 10 and 100, over 3 runs of each
mode, interleaved), and, at page 100, what updating the host's
state costs by itself: ``json.loads`` of the whole state against applying the last patch.
Then Favorites at 0, 100 and 1,000 films: what one heart tap sends the Favorites subscriber
and the time from the tap to the subscriber holding the new list, in both modes.
Target: at page 100 the patch update is at least 10x faster than parsing the whole state.
Medians from one run.
"""

from __future__ import annotations

import json
import os
import statistics
import tempfile
import threading
import time
from typing import Any, Dict, List

import cinematic
from cinematic._patch import apply_patch

PAGES = 100
AROUND = (1, 10, PAGES)
RUNS = 3


def page_times(patches: bool) -> Dict[int, float]:
    """Seconds from load_more to the subscriber's state having the next page, per page it
    started from."""
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
        for page in range(1, PAGES + 3):
            start = time.perf_counter()
            discover.load_more("comedy")
            with seen:
                if not seen.wait_for(lambda: latest["pages"] > page, timeout=30):
                    raise SystemExit(f"page {page + 1} never reached the subscriber")
            times[page] = time.perf_counter() - start
    return times


def median_around(runs: List[Dict[int, float]], page: int) -> float:
    """The median over every run of the load_mores from the 5 pages around `page`."""
    low = max(1, page - 2)
    return statistics.median(times[p] for times in runs for p in range(low, low + 5))


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


def favorites_taps(patches: bool, directory: str) -> Dict[int, tuple[float, int]]:
    """At 0, 100 and 1,000 favorites: (seconds from a heart tap in Detail to the Favorites
    subscriber holding the new list, bytes that delivery carried), medians of 5 taps."""
    results: Dict[int, tuple[float, int]] = {}
    path = os.path.join(directory, f"favorites-{'patches' if patches else 'states'}.sqlite")
    with cinematic.Runtime(favorites=path, patches=patches) as runtime, runtime.favorites() as favorites:
        seen = threading.Condition()
        count = {"films": -1}
        delivered: List[bytes] = []
        original = favorites._deliver

        def record(raw: bytes) -> None:
            delivered.append(raw)
            original(raw)

        def received(state: Any) -> None:
            with seen:
                count["films"] = len(state["favorites"].get("value", []))
                seen.notify_all()

        favorites._deliver = record  # type: ignore[method-assign]
        favorites.subscribe(received)
        favorites.task()

        def tap(movie_id: int) -> float:
            with runtime.detail(movie_id) as detail:
                loaded = threading.Event()
                detail.subscribe(lambda state: loaded.set() if state["detail"]["phase"] == "loaded" else None)
                detail.task()  # (it keeps watching the favorites: it never settles)
                if not loaded.wait(30):
                    raise SystemExit(f"film {movie_id} never loaded")
                with seen:
                    before = count["films"]
                start = time.perf_counter()
                detail.favorite_toggled()
                with seen:
                    if not seen.wait_for(lambda: count["films"] == before + 1, timeout=30):
                        raise SystemExit(f"favorite {movie_id} never reached the subscriber")
                return time.perf_counter() - start  # saved: the Favorites store has read it back

        next_id = 1
        for size in (0, 100, 1_000):
            while next_id <= size:
                tap(next_id)
                next_id += 1
            times, sizes = [], []
            for _ in range(5):
                times.append(tap(next_id))
                sizes.append(len(delivered[-1]))
                next_id += 1
            results[size] = (statistics.median(times), int(statistics.median(sizes)))
            next_id = max(next_id, size + 1)
    return results


def _size(count: int) -> str:
    return f"{count // 1024} KB" if count >= 10_240 else f"{count} B"


def _timed(body: Any) -> float:
    start = time.perf_counter()
    body()
    return time.perf_counter() - start


def main() -> None:
    print(f"python host: Discover's Comedy section paged to page {PAGES}, load_more to the subscriber's state updated")
    whole: List[Dict[int, float]] = []
    patched: List[Dict[int, float]] = []
    for _ in range(RUNS):
        whole.append(page_times(patches=False))
        patched.append(page_times(patches=True))
    print("  load_more from   " + "".join(f"page {page:<4} " for page in AROUND) + " 100 vs 1")
    for name, runs in (("whole states", whole), ("patches", patched)):
        cells = "".join(f"{median_around(runs, page) * 1e3:7.2f} ms " for page in AROUND)
        print(f"  {name:<16} {cells} {median_around(runs, PAGES) / median_around(runs, 1):.2f}x")
    loads, apply, whole_bytes, patch_bytes = update_costs()
    print(f"  at page {PAGES}: json.loads of the whole state ({whole_bytes // 1024} KB) {loads * 1e6:.0f} µs; "
          f"parsing and applying the patch ({patch_bytes} B) {apply * 1e6:.0f} µs: {loads / apply:.1f}x faster")
    print("  target: the patch update at least 10x faster than parsing the whole state: "
          + ("met" if loads >= 10 * apply else "NOT met"))
    print("python host: one heart tap, to the Favorites subscriber holding the new list (medians of 5 taps)")
    with tempfile.TemporaryDirectory() as directory:
        taps = {patches: favorites_taps(patches, directory) for patches in (False, True)}
    for size in (0, 100, 1_000):
        (whole_time, whole_size), (patch_time, patch_size) = taps[False][size], taps[True][size]
        print(f"  at {size:<5} favorites: whole states {_size(whole_size):>7} {whole_time * 1e3:6.2f} ms;"
              f" patches {_size(patch_size):>7} {patch_time * 1e3:6.2f} ms")


if __name__ == "__main__":
    main()
