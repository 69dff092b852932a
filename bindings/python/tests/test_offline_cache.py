"""A live catalog over HTTP (examples/catalog-server) with the library's offline cache: the
HTTP provider, answers served from the cache when the server fails or is gone, and the
terminal app (``--live``) in a pseudo-terminal surviving the server going away.

Waits are on conditions (settle, the provider's answers, the screen): no sleeps."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import urllib.request
from pathlib import Path
from typing import Any, Dict, Iterator, List, Tuple

import pytest

import cinematic
from cinematic.http_provider import HttpCatalogProvider, catalog_config, to_detail, to_movie
from conftest import REPO
from test_terminal_app import TerminalApp, line_with

SERVER = REPO / "examples" / "catalog-server" / "server.py"


class CatalogServer:
    """examples/catalog-server on a free port, in a subprocess."""

    def __init__(self, *args: str) -> None:
        self.process = subprocess.Popen([sys.executable, str(SERVER), "--port", "0", "--quiet", *args],
                                        stdout=subprocess.PIPE, text=True)
        assert self.process.stdout is not None
        first = self.process.stdout.readline().strip()
        assert first.startswith("listening on http://"), first
        self.url = first.split()[-1]

    def control(self, **settings: Any) -> None:
        request = urllib.request.Request(self.url + "/_control", data=json.dumps(settings).encode(), method="POST")
        with urllib.request.urlopen(request, timeout=5) as response:
            assert response.status == 200

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)
        if self.process.stdout:
            self.process.stdout.close()


@pytest.fixture
def server() -> Iterator[CatalogServer]:
    running = CatalogServer()
    yield running
    running.stop()


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


def test_the_server_speaks_a_movie_api(server: CatalogServer) -> None:
    with urllib.request.urlopen(server.url + "/search/movie?query=godfather&page=1", timeout=5) as response:
        body = json.load(response)
    assert body["page"] == 1 and body["total_results"] >= 3
    assert body["results"][0]["title"] == "The Godfather"
    with urllib.request.urlopen(server.url + "/movie/15249", timeout=5) as response:
        dune = json.load(response)
    assert to_detail(dune)["budget"] == 45000000 and len(to_detail(dune)["ratingDistribution"]) == 10
    assert to_movie(dune) == {"id": 15249, "title": "Dune", "year": 1984, "runtime": 190, "rating": 6.3,
                              "votes": 16903, "genres": ["Action"], "mpaa": None}


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


class RecordingRuntime:
    """Stands in for a runtime: records what the provider answers."""

    def __init__(self) -> None:
        self.answers: List[Tuple[int, Dict[str, Any]]] = []
        self.answered = threading.Event()

    def respond(self, request_id: int, answer: Dict[str, Any]) -> None:
        self.answers.append((request_id, answer))
        self.answered.set()


def test_the_provider_never_blocks_the_callback_and_honours_cancel() -> None:
    slow = CatalogServer("--latency-ms", "300")
    try:
        runtime = RecordingRuntime()
        provider = HttpCatalogProvider(runtime, slow.url, workers=1)
        assert provider(1, {"op": "search", "query": "dune", "page": 1}) is None   # queued, not fetched
        assert provider(2, {"op": "search", "query": "alien", "page": 1}) is None
        provider(2, {"op": "cancel"})          # still queued behind 1: never fetched
        assert runtime.answered.wait(10)
        provider(3, {"op": "movie", "id": 15249})
        provider(3, {"op": "cancel"})          # cancelled before or while in flight: not answered
        provider.close()
        assert [request_id for request_id, _ in runtime.answers] == [1]
        assert runtime.answers[0][1]["movies"][0]["title"] == "Dune"
    finally:
        slow.stop()


def test_errors_map_to_the_closed_set(server: CatalogServer) -> None:
    provider = HttpCatalogProvider(RecordingRuntime(), server.url, workers=1)
    try:
        assert provider.fetch({"op": "movie", "id": 99999999})["error"]["code"] == "notFound"
        server.control(fail=True)
        assert provider.fetch({"op": "search", "query": "dune", "page": 1})["error"]["code"] == "network"
        server.control(fail=False, latencyMs=3000)
        quick = HttpCatalogProvider(RecordingRuntime(), server.url, workers=1, timeout=0.2)
        try:
            assert quick.fetch({"op": "discover", "section": "popular", "page": 1})["error"]["code"] == "timeout"
        finally:
            quick.close()
        server.stop()
        assert provider.fetch({"op": "search", "query": "dune", "page": 1})["error"]["code"] == "network"
    finally:
        provider.close()


def test_terminal_app_keeps_showing_dune_when_the_server_goes_away(server: CatalogServer, tmp_path: Path) -> None:
    env = {"XDG_CACHE_HOME": str(tmp_path / "cache")}
    app = TerminalApp(tmp_path, args=["--live", server.url], extra_env=env)
    try:
        app.wait_for(lambda s: "Search:" in s, "the Search tab")
        app.send("dune")
        text = app.wait_for(lambda s: line_with(s, "Dune", "1984") is not None and "live from" in s,
                            "Dune (1984), live from the server")
        assert server.url in text
        server.stop()
        app.send("\x15alien\r")                       # Ctrl-U, a search never made before
        app.wait_for(lambda s: "Search failed: network" in s and "Nothing is saved" in s,
                     "the failure of a search nobody saved")
        finds_dune_offline(app, "\x15dune\r")
    finally:
        app.close()

    # A fresh start with the server still down: what was shown before is still there.
    app = TerminalApp(tmp_path, args=["--live", server.url], extra_env=env)
    try:
        app.wait_for(lambda s: "Search:" in s, "the Search tab")
        finds_dune_offline(app, "dune")
    finally:
        app.close()


def finds_dune_offline(app: TerminalApp, keys: str) -> None:
    """Types ``keys``, expects Dune (1984) from the offline cache, then quits."""
    app.send(keys)
    app.wait_for(lambda s: line_with(s, "Dune", "1984") is not None and "offline, showing saved results" in s,
                 "Dune from the offline cache")
    app.send("\x11")
    assert app.wait_exit() == 0


def test_terminal_app_shows_saved_discover_lists_and_details_when_the_server_goes_away(server: CatalogServer,
                                                                                        tmp_path: Path) -> None:
    """A detail and the Discover lists seen live stay readable offline, each with the
    offline note."""
    env = {"XDG_CACHE_HOME": str(tmp_path / "cache")}
    app = TerminalApp(tmp_path, args=["--live", server.url], extra_env=env)
    try:
        app.wait_for(lambda s: "Search:" in s, "the Search tab")
        app.send("dune")
        app.wait_for(lambda s: line_with(s, "Dune", "1984") is not None and "live from" in s, "Dune, live")
        app.send("\r")                                   # opens the first result's detail
        app.wait_for(lambda s: "Dune" in s and "190 min" in s and "offline" not in s, "Dune's detail, live")
        app.send("\x1b")                                 # back to the results
        app.wait_for(lambda s: "Search:" in s and "live from" in s, "the results again")
        app.send("\t")                                   # Discover
        app.wait_for(lambda s: "Popular: 20 shown, more available" in s and "offline" not in s, "Discover's popular list, live")
        server.stop()

        app.send("\x1b[Z")                               # Shift-Tab: back to Search (results as shown)
        app.send("\x15dune\r")
        app.wait_for(lambda s: line_with(s, "Dune", "1984") is not None and "offline, showing saved results" in s,
                     "Dune from the offline cache")
        app.send("\r")
        app.wait_for(lambda s: "190 min" in s and "offline, showing saved results" in s, "Dune's saved detail, marked offline")
    finally:
        app.close()

    # A fresh start with the server still down: Discover shows the saved first pages.
    app = TerminalApp(tmp_path, args=["--live", server.url], extra_env=env)
    try:
        app.wait_for(lambda s: "Search:" in s, "the Search tab")
        app.send("\t")
        app.wait_for(lambda s: "Popular: 20 shown, more available" in s and "offline, showing saved results" in s,
                     "Discover's popular list from the offline cache")
        app.send("\x11")
        assert app.wait_exit() == 0
    finally:
        app.close()


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


def test_terminal_app_shows_no_saved_results_of_another_server(server: CatalogServer, tmp_path: Path) -> None:
    """The terminal app with the default cache: --live URL saves under URL; another URL (the
    first server gone, a second one down) shows no saved results, the first URL does."""
    env = {"XDG_CACHE_HOME": str(tmp_path / "cache")}
    app = TerminalApp(tmp_path, args=["--live", server.url], extra_env=env)
    try:
        app.wait_for(lambda s: "Search:" in s, "the Search tab")
        app.send("dune")
        app.wait_for(lambda s: line_with(s, "Dune", "1984") is not None and "live from" in s, "Dune, live")
        app.send("\x11")
        assert app.wait_exit() == 0
    finally:
        app.close()
    other = CatalogServer()
    other_url = other.url
    other.stop()
    server.stop()
    app = TerminalApp(tmp_path, args=["--live", other_url], extra_env=env)
    try:
        app.wait_for(lambda s: "Search:" in s, "the Search tab")
        app.send("dune")
        screen = app.wait_for(lambda s: "Search failed: network" in s, "the failure: nothing saved from this server")
        assert "offline, showing saved results" not in screen and line_with(screen, "Dune", "1984") is None
        app.send("\x11")
        assert app.wait_exit() == 0
    finally:
        app.close()
    app = TerminalApp(tmp_path, args=["--live", server.url], extra_env=env)
    try:
        app.wait_for(lambda s: "Search:" in s, "the Search tab")
        finds_dune_offline(app, "dune")
    finally:
        app.close()
