#!/usr/bin/env python3
"""A small movie API over the shipped catalog, to run the Cinematic apps against a live
source: ``python3 examples/catalog-server/server.py --port 8631``.

The Python standard library and the ``cinematic`` package (this repository's
``bindings/python``, over the library ``make lib`` builds). It serves
``data/ggplot2movies.tsv.gz`` (58,788 films) as JSON shaped like a real movie API (TMDB-like
paths, snake_case fields, pages of 20)::

    GET /search/movie?query=dune&page=1        {"page", "results": [movie], "total_pages", "total_results"}
    GET /movie/popular?page=1                  most votes first
    GET /movie/top_rated?page=1                best rated with at least 1,000 votes
    GET /discover/movie?with_genres=comedy&page=1   one genre, most votes first
    GET /movie/15249                           one movie with budget and rating distribution
    GET /health                                {"ok": true}

A movie: ``{"id", "title", "release_year", "runtime", "vote_average", "vote_count",
"genres", "certification"}``; the detail adds ``"budget"`` and ``"rating_distribution"``.
Unknown id: 404 ``{"status_message": ...}``.

Searches are answered by the library's own search engine (a ``cinematic.Runtime`` over the
embedded catalog, or over an index built from ``--data``), so a search answers here exactly
what it answers embedded: same films, same order, same pages (a query under 2 characters
finds nothing; one over 256 is refused with 400). ``total_results`` and ``total_pages`` count
what was read to answer the page: while more pages remain they are lower bounds
(``total_pages`` is then one more than the page asked for).

Switches for trying failure: ``--latency-ms N`` delays every answer, ``--fail`` answers
every request with 503, ``--fail-every N`` fails every Nth request. The same can be changed
while running: ``POST /_control`` with ``{"latencyMs": N, "fail": true|false, "failEvery": N}``
(any of the keys; integers from 0, latencyMs at most 600000). Anything else (not JSON, not an
object, an unknown key, a value of the wrong type or out of range, a body over 4 KiB) is
refused with 400 (413 for the size) and a ``status_message``, and changes nothing.
With ``--port 0`` the system picks a port; the first line printed is always
``listening on http://HOST:PORT``.
"""

from __future__ import annotations

import argparse
import gzip
import json
import math
import re
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple
from urllib.parse import parse_qs, urlsplit

PAGE_SIZE = 20
TOP_RATED_MIN_VOTES = 1000
ARTICLES = {"The", "A", "An", "La", "Le", "Les", "El", "Il", "L'", "Der", "Die", "Das", "Du", "Des", "De"}
REPO = Path(__file__).resolve().parents[2]
DEFAULT_DATA = REPO / "data" / "ggplot2movies.tsv.gz"
#: Seconds a search may take in the library before the request fails with 503.
SEARCH_TIMEOUT = 30.0

Movie = Dict[str, Any]

#: What POST /_control accepts: each key's check (a message when the value is refused).
MAX_LATENCY_MS = 600_000
MAX_CONTROL_BODY = 4096


def _count(name: str, maximum: int) -> Any:
    def check(value: Any) -> Optional[str]:
        if type(value) is not int or not 0 <= value <= maximum:
            return f"{name} must be an integer from 0 to {maximum}, not {json.dumps(value)[:40]}"
        return None
    return check


CONTROL_KEYS = {
    "latencyMs": _count("latencyMs", MAX_LATENCY_MS),
    "fail": lambda value: None if type(value) is bool else f"fail must be true or false, not {json.dumps(value)[:40]}",
    "failEvery": _count("failEvery", 1_000_000),
}


class BadControl(Exception):
    """A POST /_control body that is refused: ``status`` (400 or 413) and why."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"{text[:40]} is out of range")
    return value


def parse_control(raw: bytes) -> Dict[str, Any]:
    """The switches a POST /_control body sets (an empty body sets none); raises BadControl."""
    if not raw.strip():
        return {}
    try:
        body = json.loads(raw.decode("utf-8"), parse_constant=_no_constant, parse_float=_finite)
    except UnicodeDecodeError:
        raise BadControl(400, "the body is not UTF-8") from None
    except RecursionError:
        raise BadControl(400, "the body nests too deep") from None
    except ValueError as error:
        raise BadControl(400, f"the body is not JSON: {error}") from None
    if type(body) is not dict:
        raise BadControl(400, "the body must be a JSON object such as {\"latencyMs\": 500, \"fail\": false}")
    for key, value in body.items():
        check = CONTROL_KEYS.get(key)
        if check is None:
            raise BadControl(400, f"unknown key {json.dumps(key)[:40]} (known: {', '.join(sorted(CONTROL_KEYS))})")
        problem = check(value)
        if problem is not None:
            raise BadControl(400, problem)
    return body


def ascii_int(text: str) -> Optional[int]:
    """``text`` as a number when it is 1 to 18 ASCII digits (int() would also take "٣", " 3" and "1_0")."""
    return int(text) if re.fullmatch(r"[0-9]{1,18}", text) else None


def display_title(title: str) -> str:
    """"Godfather, The" -> "The Godfather"."""
    head, sep, article = title.rpartition(", ")
    if sep and article in ARTICLES:
        return f"{article}{'' if article.endswith(chr(39)) else ' '}{head}"
    return title


def import_cinematic() -> Any:
    """The ``cinematic`` package: installed, or this repository's ``bindings/python``."""
    try:
        import cinematic
    except ImportError:
        sys.path.insert(0, str(REPO / "bindings" / "python"))
        import cinematic
    return cinematic


class BadSearch(Exception):
    """A search the library refuses (a query over 256 characters): 400."""


class LibrarySearch:
    """Search answered by libcinematic's own engine, so the live and embedded answers agree.

    The shipped movie file is the one compiled into the library: its embedded catalog is
    used as is. Another ``--data`` file is indexed (``cinematic.build_index``) into a
    temporary directory when the server starts.
    """

    def __init__(self, data: Path) -> None:
        self.cinematic = import_cinematic()
        self.directory: Optional[tempfile.TemporaryDirectory] = None
        catalog: Any = "embedded"
        if data.resolve() != DEFAULT_DATA.resolve():
            self.directory = tempfile.TemporaryDirectory(prefix="cinematic-catalog-server-")
            index = Path(self.directory.name) / "catalog.idx"
            self.cinematic.build_index(str(data), str(index))
            catalog = {"path": str(index)}
        self.runtime = self.cinematic.Runtime({"catalog": catalog})

    def close(self) -> None:
        self.runtime.close()
        if self.directory is not None:
            self.directory.cleanup()

    def search(self, query: str, page: int) -> Tuple[List[int], int, bool]:
        """The ids of page ``page`` of ``query``'s results, how many results were read, and
        whether more remain. Raises BadSearch for a query the library refuses."""
        store = self.runtime.search()
        try:
            try:
                store.query_changed(query)
            except self.cinematic.InvalidError as error:
                raise BadSearch(str(error)) from None
            store.submitted()
            store.settle(SEARCH_TIMEOUT)
            state = store.state
            while state["pagesLoaded"] < page and not state["isExhausted"] and state["results"]["phase"] == "loaded":
                store.load_more()
                store.settle(SEARCH_TIMEOUT)
                state = store.state
                if state["loadMoreError"] is not None:
                    raise RuntimeError(f"search {query!r}: {state['loadMoreError']}")
        finally:
            store.close()
        results = state["results"]
        if results["phase"] == "idle":
            return [], 0, False
        if results["phase"] != "loaded":
            raise RuntimeError(f"search {query!r}: {results}")
        ids = [movie["id"] for movie in results["value"]]
        start = (page - 1) * PAGE_SIZE
        return ids[start:start + PAGE_SIZE], len(ids), not state["isExhausted"]


class Catalog:
    """The films in memory, with the lists the API serves."""

    def __init__(self, path: Path, searcher: Optional[LibrarySearch] = None) -> None:
        self.movies: Dict[int, Movie] = {}
        self.details: Dict[int, Movie] = {}
        self.searcher = searcher
        with gzip.open(path, "rt", encoding="utf-8") as lines:
            header = next(lines).rstrip("\n").split("\t")
            for line in lines:
                row = dict(zip(header, line.rstrip("\n").split("\t")))
                movie: Movie = {
                    "id": int(row["id"]), "title": display_title(row["title"]),
                    "release_year": int(row["year"] or 0), "runtime": int(row["length"] or 0),
                    "vote_average": float(row["rating"] or 0), "vote_count": int(row["votes"] or 0),
                    "genres": [g for g in row["genres"].split(",") if g],
                    "certification": row["mpaa"] or None,
                }
                self.movies[movie["id"]] = movie
                self.details[movie["id"]] = {
                    **movie, "budget": int(row["budget"]) if row["budget"] else None,
                    "rating_distribution": [float(row[f"r{i}"] or 0) for i in range(1, 11)],
                }
        by_votes = sorted(self.movies.values(), key=lambda m: (-m["vote_count"], m["id"]))
        self.popular = by_votes
        self.top_rated = sorted((m for m in by_votes if m["vote_count"] >= TOP_RATED_MIN_VOTES),
                                key=lambda m: (-m["vote_average"], -m["vote_count"], m["id"]))
        self.genres: Dict[str, List[Movie]] = {}
        for movie in by_votes:
            for genre in movie["genres"]:
                self.genres.setdefault(genre.lower(), []).append(movie)

    def search(self, query: str, page: int) -> Dict[str, Any]:
        """Page ``page`` of the films ``query`` finds, by the library's search (see
        LibrarySearch): the body of GET /search/movie. Raises BadSearch."""
        assert self.searcher is not None, "no LibrarySearch"
        ids, found, more = self.searcher.search(query, page)
        pages = (found + PAGE_SIZE - 1) // PAGE_SIZE
        return {"page": page, "results": [self.movies[i] for i in ids if i in self.movies],
                "total_pages": max(pages, page + 1) if more else pages, "total_results": found}


def page_of(movies: List[Movie], page: int) -> Dict[str, Any]:
    start = (page - 1) * PAGE_SIZE
    return {"page": page, "results": movies[start:start + PAGE_SIZE],
            "total_pages": (len(movies) + PAGE_SIZE - 1) // PAGE_SIZE, "total_results": len(movies)}


class Settings:
    """The failure switches, changeable while running."""

    def __init__(self, latency_ms: int, fail: bool, fail_every: int) -> None:
        self.lock = threading.Lock()
        self.latency_ms = latency_ms
        self.fail = fail
        self.fail_every = fail_every
        self.requests = 0


def make_handler(catalog: Catalog, settings: Settings, quiet: bool) -> type:
    class Handler(BaseHTTPRequestHandler):
        server_version = "CinematicCatalog/1"

        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
            if not quiet:
                super().log_message(format, *args)

        def send_json(self, status: int, body: Any) -> None:
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        timeout = 10   # seconds a client may take to send its request (then it is dropped)

        def do_POST(self) -> None:  # noqa: N802
            if urlsplit(self.path).path != "/_control":
                return self.send_json(404, {"status_message": "not found"})
            self.close_connection = True
            try:
                changes = parse_control(self.read_body())
            except BadControl as refused:
                return self.send_json(refused.status, {"status_message": str(refused)})
            except OSError:   # the client went away or was too slow: nobody to answer
                return None
            with settings.lock:
                settings.latency_ms = changes.get("latencyMs", settings.latency_ms)
                settings.fail = changes.get("fail", settings.fail)
                settings.fail_every = changes.get("failEvery", settings.fail_every)
                state = {"latencyMs": settings.latency_ms, "fail": settings.fail, "failEvery": settings.fail_every}
            self.send_json(200, state)

        def read_body(self) -> bytes:
            """The request body (Content-Length only, at most MAX_CONTROL_BODY bytes)."""
            if self.headers.get("Transfer-Encoding"):
                raise BadControl(400, "send the body with a Content-Length, not a Transfer-Encoding")
            lengths = self.headers.get_all("Content-Length") or ["0"]
            length = ascii_int(lengths[0].strip()) if len(set(lengths)) == 1 else None
            if length is None:
                raise BadControl(400, f"bad Content-Length {', '.join(lengths)[:40]!r}")
            if length > MAX_CONTROL_BODY:
                raise BadControl(413, f"the body is over {MAX_CONTROL_BODY} bytes")
            raw = self.rfile.read(length)
            if len(raw) < length:
                raise BadControl(400, "the body is shorter than its Content-Length")
            return raw

        def do_GET(self) -> None:  # noqa: N802
            url = urlsplit(self.path)
            if url.path == "/health":
                return self.send_json(200, {"ok": True})
            with settings.lock:
                settings.requests += 1
                latency = settings.latency_ms
                fail = settings.fail or (settings.fail_every > 0 and settings.requests % settings.fail_every == 0)
            if latency:
                time.sleep(latency / 1000)
            if fail:
                return self.send_json(503, {"status_message": "service unavailable (--fail)"})
            status, body = self.route(url.path, parse_qs(url.query))
            self.send_json(status, body)

        def route(self, path: str, query: Dict[str, List[str]]) -> Tuple[int, Any]:
            def arg(name: str, default: str = "") -> str:
                return query.get(name, [default])[0]
            page = ascii_int(arg("page", "1"))
            if page is None or page < 1 or page > 1000:
                return 400, {"status_message": "page must be an integer within 1...1000"}
            parts = [p for p in path.split("/") if p]
            if parts == ["search", "movie"]:
                try:
                    return 200, catalog.search(arg("query"), page)
                except BadSearch as refused:
                    return 400, {"status_message": str(refused)}
                except Exception as error:   # the library failed or timed out: say so
                    return 503, {"status_message": f"search failed: {error}"}
            if parts == ["movie", "popular"]:
                return 200, page_of(catalog.popular, page)
            if parts == ["movie", "top_rated"]:
                return 200, page_of(catalog.top_rated, page)
            if parts == ["discover", "movie"]:
                genre = arg("with_genres").lower()
                return 200, page_of(catalog.genres.get(genre, []), page)
            if len(parts) == 2 and parts[0] == "movie" and ascii_int(parts[1]) is not None:
                detail = catalog.details.get(int(parts[1]))
                if detail is None:
                    return 404, {"status_message": f"no movie {parts[1]}"}
                return 200, detail
            return 404, {"status_message": f"no route {path}"}

    return Handler


def count(text: str) -> int:
    """An argparse type: an integer from 0 (ASCII digits)."""
    value = ascii_int(text)
    if value is None:
        raise argparse.ArgumentTypeError(f"expected an integer from 0, not {text!r}")
    return value


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description="A movie API over the shipped catalog.")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8631, help="0: any free port")
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="the catalog TSV (gzip)")
    parser.add_argument("--latency-ms", type=count, default=0, help="delay every answer")
    parser.add_argument("--fail", action="store_true", help="answer every request with 503")
    parser.add_argument("--fail-every", type=count, default=0, metavar="N", help="fail every Nth request")
    parser.add_argument("--quiet", action="store_true", help="no request log")
    args = parser.parse_args(argv)
    catalog = Catalog(args.data, LibrarySearch(args.data))
    settings = Settings(args.latency_ms, args.fail, args.fail_every)
    server = ThreadingHTTPServer((args.host, args.port), make_handler(catalog, settings, args.quiet))
    server.daemon_threads = True
    host, port = server.server_address[:2]
    print(f"listening on http://{host}:{port}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
        if catalog.searcher is not None:
            catalog.searcher.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
