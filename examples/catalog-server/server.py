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
import sys
from http.server import ThreadingHTTPServer
from pathlib import Path
from typing import List, Optional

# The server's parts, next to this script (its directory is first on sys.path when run).
from api_handler import ascii_int, make_handler
from failure_switches import Settings
from movie_catalog import DEFAULT_DATA, Catalog, LibrarySearch


def count(text: str) -> int:
    """An argparse type: an integer from 0 (ASCII digits)."""
    value = ascii_int(text)
    if value is None:
        raise argparse.ArgumentTypeError(f"expected an integer from 0, not {text!r}")
    return value


def main(argv: Optional[List[str]] = None) -> int:
    """Runs the server with the command line ``argv`` (default: ``sys.argv[1:]``) until
    interrupted; prints ``listening on http://HOST:PORT`` first. Returns the exit status."""
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
