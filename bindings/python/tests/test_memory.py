"""No memory growth over many open/close cycles (RSS from /proc/self/statm)."""

from __future__ import annotations

import gc
import os
import time

import cinematic
from conftest import HOST_CONFIG

PAGE = os.sysconf("SC_PAGE_SIZE")
BOUND = 4 * 1024 * 1024  # bytes


def rss() -> int:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * PAGE


def test_no_growth_over_10000_store_open_close_cycles():
    with cinematic.Runtime(HOST_CONFIG) as runtime:
        def cycles(count: int) -> None:
            for i in range(count):
                store = runtime.search()
                unsubscribe = store.subscribe(lambda state: None)
                store.query_changed("dune" if i % 2 else "alien")  # starts a debounce effect
                assert store.state["results"]["phase"] == "idle"
                unsubscribe()
                store.close()  # cancels the effect

        started = time.monotonic()
        cycles(1000)  # warm-up: caches, allocator arenas, lazily created objects
        gc.collect()
        before = rss()
        cycles(10_000)
        gc.collect()
        growth = rss() - before
        assert runtime.stores == []
        assert growth < BOUND, f"RSS grew by {growth / 1024:.0f} KiB over 10,000 cycles"
        assert time.monotonic() - started < 60


def test_no_growth_over_runtime_open_close_cycles():
    def cycles(count: int) -> None:
        for _ in range(count):
            with cinematic.Runtime(dict(HOST_CONFIG, delivery="queued")) as runtime:
                runtime.fileno()
                with runtime.search() as store:
                    store.query_changed("dune")
                runtime.dispatch()

    cycles(300)
    gc.collect()
    before = rss()
    cycles(3000)
    gc.collect()
    growth = rss() - before
    assert growth < BOUND, f"RSS grew by {growth / 1024:.0f} KiB over 3,000 runtimes"
