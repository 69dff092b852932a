"""The example catalog server (examples/catalog-server) answers searches the way the library
does: the same films in the same order, page by page, live (over HTTP, through the HTTP
provider) and embedded. It matched differently before ("dune": 12 results live, 3 embedded).
"""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any, Dict, Iterator, List, Tuple

import pytest

import cinematic
from cinematic.http_provider import HttpCatalogProvider
from conftest import REPO

SERVER = REPO / "examples" / "catalog-server" / "server.py"

#: Titles, typos, prefixes, numerals, years, decades and genres, a series, no good match,
#: accents, too short: every kind of query the library reads.
QUERIES = [
    "dune", "godfather", "the godfather", "star wa", "godfahter", "alien 3", "rocky 3",
    "matrix 1999", "1994", "90s comedy", "comedy 1994", "spirited away", "üñí", "amélie",
    "schindler's list", "love", "the", "d", "2001", "back to the future 2",
]


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    process = subprocess.Popen([sys.executable, str(SERVER), "--port", "0", "--quiet"],
                               stdout=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        first = process.stdout.readline().strip()
        assert first.startswith("listening on http://"), first
        yield first.split()[-1]
    finally:
        process.terminate()
        process.wait(timeout=10)
        if process.stdout:
            process.stdout.close()


def get(url: str) -> Tuple[int, Dict[str, Any]]:
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def live_page(server: str, query: str, page: int) -> Dict[str, Any]:
    status, body = get(f"{server}/search/movie?{urllib.parse.urlencode({'query': query, 'page': page})}")
    assert status == 200, body
    return body


def embedded(query: str, pages: int) -> List[Tuple[int, str, int]]:
    """The first `pages` pages of `query` from a runtime over the embedded catalog."""
    with cinematic.Runtime() as runtime, runtime.search() as store:
        store.query_changed(query)
        store.submitted()
        store.settle(30)
        while store.state["pagesLoaded"] < pages and not store.state["isExhausted"] \
                and store.state["results"]["phase"] == "loaded":
            store.load_more()
            store.settle(30)
        results = store.state["results"]
        if results["phase"] == "idle":
            return []
        assert results["phase"] == "loaded", results
        return [(m["id"], m["title"], m["year"]) for m in results["value"]]


@pytest.mark.parametrize("query", QUERIES)
def test_the_server_finds_what_the_library_finds(server: str, query: str) -> None:
    want = embedded(query, 2)
    got: List[Tuple[int, str, int]] = []
    for page in (1, 2):
        body = live_page(server, query, page)
        assert body["page"] == page
        got += [(m["id"], m["title"], m["release_year"]) for m in body["results"]]
    assert got == want


def test_dune_is_the_same_four_films_live_and_embedded(server: str) -> None:
    body = live_page(server, "dune", 1)
    titles = [(m["title"], m["release_year"]) for m in body["results"]]
    assert titles == [("Dune", 1984), ("Suna no onna (Woman in the Dunes)", 1964), ("Dune Warriors", 1990), ("Dune 7", 2002)]
    assert body["total_results"] == 4 and body["total_pages"] == 1


def test_totals_count_what_was_read(server: str) -> None:
    body = live_page(server, "1994", 1)
    assert len(body["results"]) == 20 and body["total_pages"] >= 2
    assert [m["title"] for m in body["results"][:3]] == ["The Shawshank Redemption", "Pulp Fiction", "Forrest Gump"]
    empty = live_page(server, "glorpish away", 1)
    assert empty["results"] == [] and empty["total_results"] == 0 and empty["total_pages"] == 0


def test_a_query_the_library_refuses_is_a_400(server: str) -> None:
    status, body = get(f"{server}/search/movie?{urllib.parse.urlencode({'query': 'x' * 300})}")
    assert status == 400 and "256" in body["status_message"]


def test_the_http_provider_shows_the_embedded_answers(server: str, tmp_path: Path) -> None:
    """Through the library's host catalog and the HTTP provider, as the apps use it."""
    for number, query in enumerate(("dune", "alien 3", "90s comedy")):
        want = embedded(query, 1)
        cache = {"path": str(tmp_path / f"cache-{number}.sqlite")}
        with cinematic.Runtime({"catalog": "host", "offlineCache": cache}) as runtime:
            with HttpCatalogProvider(runtime, server) as provider:
                runtime.set_provider(provider)
                with runtime.search() as store:
                    store.query_changed(query)
                    store.submitted()
                    store.settle(30)
                    results = store.state["results"]
                    assert results["phase"] == "loaded" and results["source"] == "live", results
                    got = [(m["id"], m["title"], m["year"]) for m in results["value"]]
        assert got == want, query
