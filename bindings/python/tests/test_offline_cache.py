"""A live catalog over HTTP (examples/catalog-server) with the library's offline cache:
answers served from the cache when the server fails, is too slow or is gone, and kept per
source. The HTTP provider itself: test_http_provider.py; the terminal app (``--live``):
test_terminal_offline.py.

Waits are on conditions (settle, the provider's answers): no sleeps."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Dict, Iterator, List, Tuple

import pytest

import cinematic
from catalog_server import CatalogServer, server  # noqa: F401
from cinematic.http_provider import HttpCatalogProvider, catalog_config


@pytest.fixture
def live(server: CatalogServer, tmp_path: Path, runtimes) -> Iterator[Tuple[cinematic.Runtime, HttpCatalogProvider]]:
    runtime = runtimes({"catalog": "host", "offlineCache": {"path": str(tmp_path / "cache.sqlite")}})
    provider = HttpCatalogProvider(runtime, server.url)
    runtime.set_provider(provider)
    yield runtime, provider
    provider.close()


def search(store: cinematic.SearchStore, query: str) -> Dict[str, Any]:
    store.query_changed(query)
    store.submitted()
    store.settle(15)
    return store.state["results"]


def test_live_answers_then_saved_ones_when_the_server_fails(live, server: CatalogServer) -> None:
    runtime, provider = live
    with runtime.search() as store:
        results = search(store, "dune")
        assert results["source"] == "live" and "cachedAt" not in results
        assert results["value"][0]["title"] == "Dune"
        assert provider.online is True

        server.control(fail=True)                      # 503: the provider answers "network"
        results = search(store, "Dune")
        assert results["phase"] == "loaded" and results["source"] == "cache"
        assert results["value"][0]["title"] == "Dune" and results["cachedAt"] > 1_700_000_000
        failed = search(store, "alien")                # never seen: the error
        assert failed["phase"] == "failed" and failed["error"]["code"] == "network"

        server.stop()                                  # gone: connection refused
        results = search(store, "dune")
        assert results["source"] == "cache" and results["value"][0]["title"] == "Dune"
        assert provider.online is False


def test_discover_and_detail_are_saved_too(live, server: CatalogServer) -> None:
    runtime, _ = live
    with runtime.discover() as discover:
        discover.task()
        discover.settle(30)
        sections = discover.state["sections"]
        assert all(s["movies"]["phase"] == "loaded" and s["movies"]["source"] == "live" for s in sections)
        shown = [s["movies"]["value"] for s in sections]
        assert shown[0][0]["title"].startswith("The Lord of the Rings")   # most votes
    with runtime.detail(15249) as detail:
        detail.task()
        detail.wait_for(lambda s: s["detail"]["phase"] == "loaded", timeout=15)
        assert detail.state["detail"]["source"] == "live"
    server.stop()
    with runtime.discover() as discover:
        discover.task()
        discover.settle(30)
        sections = discover.state["sections"]
        assert all(s["movies"]["source"] == "cache" for s in sections)
        assert [s["movies"]["value"] for s in sections] == shown
    with runtime.detail(15249) as detail:
        detail.task()
        detail.wait_for(lambda s: s["detail"]["phase"] == "loaded", timeout=15)
        assert detail.state["detail"]["source"] == "cache"
        assert detail.state["detail"]["value"]["budget"] == 45000000


def test_a_slow_server_meets_the_deadline_on_the_manual_clock(server: CatalogServer, tmp_path: Path, runtimes) -> None:
    """The library's deadline (10 s, on the manual clock) cancels a request the server is
    too slow to answer; the saved answer is shown and the provider drops the late reply."""
    runtime = runtimes({"catalog": "host", "clock": "manual", "offlineCache": {"path": str(tmp_path / "c.sqlite")}})
    cancels: List[int] = []
    provider = HttpCatalogProvider(runtime, server.url)

    def recording(request_id: int, request: Dict[str, Any]) -> None:
        if request.get("op") == "cancel":
            cancels.append(request_id)
        provider(request_id, request)

    runtime.set_provider(recording)
    try:
        with runtime.search() as store:
            assert search(store, "dune")["source"] == "live"
            server.control(latencyMs=3000)
            store.submitted()
            assert store.state["results"]["phase"] == "loading"
            runtime.advance_clock(10_000)
            store.settle(5)
            results = store.state["results"]
            assert results["source"] == "cache" and results["value"][0]["title"] == "Dune"
            assert len(cancels) == 1
    finally:
        provider.close()


def test_one_servers_answers_are_never_shown_for_another(tmp_path: Path, runtimes) -> None:
    """Issue 25: two movie APIs and a runtime with no declared source share one cache file
    (and the default location): each sees only the answers saved from its own source."""
    first, second = CatalogServer(), CatalogServer()
    try:
        cache = {"path": str(tmp_path / "cache.sqlite")}

        def runtime_for(url: str, catalog: Any) -> Tuple[cinematic.Runtime, HttpCatalogProvider]:
            runtime = runtimes({"catalog": catalog, "offlineCache": cache})
            provider = HttpCatalogProvider(runtime, url)
            runtime.set_provider(provider)
            return runtime, provider

        runtime, provider = runtime_for(first.url, catalog_config(first.url))
        assert provider.source == first.url.rstrip("/") == catalog_config(first.url + "/")["host"]
        with runtime.search() as store:
            results = search(store, "dune")
            assert results["phase"] == "loaded" and results["source"] == "live"
        provider.close()
        runtime.close()
        first.stop()
        second.stop()

        # Both servers are gone now. The first one's own runtime gets its saved copy...
        runtime, provider = runtime_for(first.url, catalog_config(first.url))
        with runtime.search() as store:
            results = search(store, "dune")
            assert results["phase"] == "loaded" and results["source"] == "cache"
        provider.close()
        # ...the second server, and a runtime that declares no source, get nothing.
        for url, catalog in ((second.url, catalog_config(second.url)), (first.url, "host")):
            runtime, provider = runtime_for(url, catalog)
            with runtime.search() as store:
                results = search(store, "dune")
                assert results["phase"] == "failed" and results["error"]["code"] == "network", (catalog, results)
            provider.close()
    finally:
        first.stop()
        second.stop()
