"""The HTTP provider (cinematic.http_provider) against a live catalog over HTTP
(examples/catalog-server): the server speaks a movie API the provider maps, the provider never
blocks the callback and honours cancel, and its errors map to the closed set.

Waits are on conditions (the provider's answers): no sleeps."""

from __future__ import annotations

import json
import threading
import urllib.request
from typing import Any, Dict, List, Tuple

from catalog_server import CatalogServer, server  # noqa: F401
from cinematic.http_provider import HttpCatalogProvider, to_detail, to_movie


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
