"""The catalog server's HTTP handler: the API's routes over a :class:`~movie_catalog.Catalog`,
the failure switches applied to every request, and ``POST /_control``."""

from __future__ import annotations

import json
import re
import time
from http.server import BaseHTTPRequestHandler
from typing import Any, Dict, List, Optional, Tuple
from urllib.parse import parse_qs, urlsplit

from failure_switches import MAX_CONTROL_BODY, BadControl, Settings, parse_control
from movie_catalog import BadSearch, Catalog, page_of

__all__ = ["make_handler", "ascii_int"]


def ascii_int(text: str) -> Optional[int]:
    """``text`` as a number when it is 1 to 18 ASCII digits (int() would also take "٣", " 3" and "1_0")."""
    return int(text) if re.fullmatch(r"[0-9]{1,18}", text) else None



def make_handler(catalog: Catalog, settings: Settings, quiet: bool) -> type:
    """The request handler class of a server over ``catalog`` with ``settings`` (``quiet``:
    no request log)."""
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
