"""A catalog provider that talks to a movie API over HTTP (standard library only).

For a runtime with ``{"catalog": "host"}``: requests are fetched on the provider's own
worker threads (never on the library's callback thread, which must not block) and answered
with :meth:`cinematic.Runtime.respond`. ``{"op": "cancel"}`` drops a request that has not
started yet and skips answering one in flight. Transport failures answer ``network`` (or
``timeout`` when the server is too slow), which lets the library's offline cache show what
it saw before::

    import cinematic
    from cinematic.http_provider import HttpCatalogProvider

    with cinematic.Runtime({"catalog": "host"}) as runtime:
        provider = HttpCatalogProvider(runtime, "http://127.0.0.1:8631")
        runtime.set_provider(provider)
        ...
        provider.close()

The API is the one ``examples/catalog-server`` serves (TMDB-like)::

    GET /search/movie?query=&page=    GET /movie/popular?page=    GET /movie/top_rated?page=
    GET /discover/movie?with_genres=&page=    GET /movie/<id>
"""

from __future__ import annotations

import json
import queue
import socket
import threading
import urllib.error
import urllib.request
from typing import Any, Callable, Dict, List, Mapping, Optional, Set, Tuple
from urllib.parse import quote, urlencode

__all__ = ["HttpCatalogProvider", "to_movie", "to_detail"]

Answer = Dict[str, Any]


def to_movie(item: Mapping[str, Any]) -> Answer:
    """One API movie as a provider-protocol movie."""
    return {
        "id": int(item["id"]), "title": str(item["title"]), "year": int(item.get("release_year") or 0),
        "runtime": int(item.get("runtime") or 0), "rating": float(item.get("vote_average") or 0),
        "votes": int(item.get("vote_count") or 0), "genres": list(item.get("genres") or []),
        "mpaa": item.get("certification"),
    }


def to_detail(item: Mapping[str, Any]) -> Answer:
    """One API movie detail as a provider-protocol detail."""
    return {**to_movie(item), "budget": item.get("budget"),
            "ratingDistribution": [float(x) for x in item.get("rating_distribution") or []]}


class HttpCatalogProvider:
    """The provider callable (``provider(request_id, request)``) of a host catalog backed by
    an HTTP movie API at ``base_url``.

    ``workers`` threads fetch at most that many requests at once; ``timeout`` (seconds) bounds
    each HTTP exchange (an expired one answers ``timeout``; the library's own
    ``requestDeadlineMs`` bounds the wait too). ``on_outcome(ok)``, if given, is called on a
    worker thread after each exchange: True when the server answered, False when it could not
    be reached; :attr:`online` keeps the last outcome (None before any).
    """

    def __init__(self, runtime: Any, base_url: str, *, workers: int = 4, timeout: float = 5.0,
                 on_outcome: Optional[Callable[[bool], None]] = None) -> None:
        self._runtime = runtime
        self._base = base_url.rstrip("/")
        self._timeout = timeout
        self._on_outcome = on_outcome
        self._queue: "queue.Queue[Optional[Tuple[int, Dict[str, Any]]]]" = queue.Queue()
        self._lock = threading.Lock()
        self._cancelled: Set[int] = set()
        self._closed = False
        self.online: Optional[bool] = None
        self._threads: List[threading.Thread] = [
            threading.Thread(target=self._work, name=f"cinematic-http-{i}", daemon=True) for i in range(workers)]
        for thread in self._threads:
            thread.start()

    # The provider callback: runs on the library's delivery thread, so it only queues.
    def __call__(self, request_id: int, request: Dict[str, Any]) -> None:
        if request.get("op") == "cancel":
            with self._lock:
                self._cancelled.add(request_id)
            return None
        self._queue.put((request_id, request))
        return None

    def close(self) -> None:
        """Stops the workers (requests still queued are not answered) and waits for them."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
        for _ in self._threads:
            self._queue.put(None)
        for thread in self._threads:
            thread.join(timeout=self._timeout + 1)

    def __enter__(self) -> "HttpCatalogProvider":
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def url_for(self, request: Mapping[str, Any]) -> str:
        """The API URL that answers a provider request."""
        op, page = request.get("op"), int(request.get("page") or 1)
        if op == "search":
            return f"{self._base}/search/movie?{urlencode({'query': request.get('query', ''), 'page': page})}"
        if op == "discover":
            section = str(request.get("section", ""))
            if section == "popular":
                return f"{self._base}/movie/popular?page={page}"
            if section == "topRated":
                return f"{self._base}/movie/top_rated?page={page}"
            return f"{self._base}/discover/movie?{urlencode({'with_genres': section, 'page': page})}"
        if op == "movie":
            return f"{self._base}/movie/{quote(str(request.get('id')))}"
        raise ValueError(f"unknown op {op!r}")

    def _take_cancel(self, request_id: int) -> bool:
        with self._lock:
            if request_id in self._cancelled:
                self._cancelled.discard(request_id)
                return True
            return False

    def _work(self) -> None:
        while True:
            item = self._queue.get()
            if item is None:
                return
            request_id, request = item
            if self._take_cancel(request_id):
                continue
            answer = self.fetch(request)
            if self._take_cancel(request_id) or self._closed:
                continue  # nobody waits for it (answering would be dropped anyway)
            try:
                self._runtime.respond(request_id, answer)
            except Exception:  # the runtime closed meanwhile: nothing to answer
                pass

    def fetch(self, request: Mapping[str, Any]) -> Answer:
        """Performs one request over HTTP and returns the provider-protocol answer (an error
        answer for any failure). Blocking: call it on a worker thread."""
        reached = False
        try:
            url = self.url_for(request)
            with urllib.request.urlopen(url, timeout=self._timeout) as response:
                body = json.loads(response.read())
            reached = True
            if request.get("op") == "movie":
                return {"movie": to_detail(body)}
            return {"movies": [to_movie(item) for item in body.get("results", [])]}
        except urllib.error.HTTPError as error:
            reached = error.code < 500
            if error.code == 404 and request.get("op") == "movie":
                return {"error": {"code": "notFound", "message": f"HTTP 404 from {self._base}"}}
            code = "network" if error.code >= 500 else "invalidResponse"
            return {"error": {"code": code, "message": f"HTTP {error.code} from {self._base}"}}
        except (socket.timeout, TimeoutError) as error:
            return {"error": {"code": "timeout", "message": f"{self._base} did not answer: {error}"}}
        except urllib.error.URLError as error:
            reason = error.reason
            if isinstance(reason, (socket.timeout, TimeoutError)):
                return {"error": {"code": "timeout", "message": f"{self._base} did not answer: {reason}"}}
            return {"error": {"code": "network", "message": f"{self._base} unreachable: {reason}"}}
        except (OSError, ValueError, KeyError, TypeError) as error:
            kind = "network" if isinstance(error, OSError) else "invalidResponse"
            reached = not isinstance(error, OSError)
            return {"error": {"code": kind, "message": f"{type(error).__name__}: {error}"}}
        finally:
            self.online = reached
            if self._on_outcome is not None:
                try:
                    self._on_outcome(reached)
                except Exception:
                    pass
