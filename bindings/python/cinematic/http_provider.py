"""A catalog provider that talks to a movie API over HTTP (standard library only).

For a runtime with ``{"catalog": "host"}``: requests are fetched on the provider's own
worker threads (never on the library's callback thread, which must not block) and answered
with :meth:`cinematic.Runtime.respond`::

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

It survives its server. Every exchange has one deadline (``timeout``) for all of it:
connecting, the status line, the headers and the body, so a server that drips a byte a second
fails it like one that never answers. A body is at most ``max_body`` bytes
(:data:`DEFAULT_MAX_BODY`, 8 MiB): a larger Content-Length is refused before reading, and a
body that grows past it is cut off. ``{"op": "cancel"}`` drops a request still queued and
aborts one in flight (its socket is closed and its worker is free at once; the request is
not answered). Every failure is an answer with a code of the closed set:

- ``timeout``: the deadline passed;
- ``network``: the server could not be reached, reset or closed the connection before the
  answer was complete, or answered 5xx;
- ``invalidResponse``: the server answered something else than the API's JSON: a bad status
  line or header, a redirect or an unexpected status, an oversized body, broken chunked
  encoding, bytes that are not UTF-8, JSON that is not JSON or nests too deep, or values of
  the wrong type (a year given as ``"1984"`` or ``1984.0``, a boolean id: refused, never
  coerced; integers must fit in 64 bits, numbers must be finite);
- ``notFound``: a 404 for a movie.

``network`` and ``timeout`` let the library's offline cache show what it saw before.
A failure never kills a worker; a worker that dies anyway (an exception that is not an
``Exception``) is reported through :func:`threading.excepthook`, its request is answered
with an error, and a new worker takes its place.

Only ``http://`` URLs are supported. The host name is resolved with the system's resolver
before the deadline starts (use an address for a fully bounded exchange).
"""

from __future__ import annotations

import queue
import socket
import threading
from typing import Any, Callable, Dict, List, Mapping, Optional, Set, Tuple
from urllib.parse import urlsplit

from ._http_exchange import DEFAULT_MAX_BODY, MAX_HEADER_BYTES, Cancelled, Exchange, read_response
from ._http_json import Answer, Failure, as_list, as_object, error_answer, parse_body, to_detail, to_movie
from ._movie_api import api_url, catalog_config, source_of

__all__ = ["HttpCatalogProvider", "catalog_config", "source_of", "to_movie", "to_detail", "DEFAULT_MAX_BODY",
           "MAX_HEADER_BYTES"]


class HttpCatalogProvider:
    """The provider callable (``provider(request_id, request)``) of a host catalog backed by
    an HTTP movie API at ``base_url`` (``http://`` only; ``ValueError`` otherwise).

    ``workers`` threads fetch at most that many requests at once. ``timeout`` (seconds) is the
    deadline of each whole HTTP exchange, connection to last byte (an expired one answers
    ``timeout``; the library's own ``requestDeadlineMs`` bounds the wait too). ``max_body``
    bounds a response body in bytes (default :data:`DEFAULT_MAX_BODY`, 8 MiB; larger answers
    ``invalidResponse``). ``on_outcome(ok)``, if given, is called on a worker thread after
    each exchange that was not cancelled: True when the server answered, False when it could
    not be reached or did not answer in time (``network`` or ``timeout``); :attr:`online`
    keeps the last outcome (None before any).

    The runtime should declare this server as its catalog's source (:func:`catalog_config`,
    also :attr:`source`), so that its offline cache keeps this server's answers to itself.

    Example::

        runtime = cinematic.Runtime({"catalog": catalog_config("http://127.0.0.1:8631")})
        provider = HttpCatalogProvider(runtime, "http://127.0.0.1:8631", timeout=3, max_body=1 << 20)
        runtime.set_provider(provider)
    """

    def __init__(self, runtime: Any, base_url: str, *, workers: int = 4, timeout: float = 5.0,
                 max_body: int = DEFAULT_MAX_BODY, on_outcome: Optional[Callable[[bool], None]] = None) -> None:
        url = urlsplit(base_url)
        if url.scheme != "http" or not url.hostname:
            raise ValueError(f"HttpCatalogProvider needs an http:// URL with a host, not {base_url!r}")
        if workers < 1 or not timeout > 0 or max_body < 0:
            raise ValueError("workers must be at least 1, timeout positive and max_body not negative")
        self._runtime = runtime
        self._base = base_url.rstrip("/")
        #: The catalog source this server is (:func:`source_of` its URL).
        self.source = source_of(base_url)
        self._host = url.hostname
        self._port = url.port or 80
        self._host_header = url.netloc.rpartition("@")[2]
        self._timeout = float(timeout)
        self._max_body = max_body
        self._on_outcome = on_outcome
        self._queue: "queue.Queue[Optional[Tuple[int, Dict[str, Any]]]]" = queue.Queue()
        self._lock = threading.Lock()
        self._queued: Set[int] = set()                 # queued, not yet taken by a worker
        self._in_flight: Dict[int, Exchange] = {}     # being fetched
        self._closed = False
        self._serial = 0
        self.online: Optional[bool] = None
        self._threads: List[threading.Thread] = []
        for _ in range(workers):
            self._start_worker()

    # The provider callback: runs on the library's delivery thread, so it never blocks.
    def __call__(self, request_id: int, request: Dict[str, Any]) -> None:
        if request.get("op") == "cancel":
            with self._lock:
                self._queued.discard(request_id)       # a worker that takes it skips it
                exchange = self._in_flight.get(request_id)
            if exchange is not None:
                exchange.cancel()
            return None
        with self._lock:
            if self._closed:
                return None
            self._queued.add(request_id)
        self._queue.put((request_id, request))
        return None

    def close(self) -> None:
        """Stops the workers: requests still queued are not answered, fetches in flight are
        aborted. Waits (briefly) for the workers to end."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            self._queued.clear()
            in_flight = list(self._in_flight.values())
            threads = list(self._threads)
        for exchange in in_flight:
            exchange.cancel()
        for _ in threads:
            self._queue.put(None)
        for thread in threads:
            thread.join(timeout=5)

    def __enter__(self) -> "HttpCatalogProvider":
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def alive_workers(self) -> int:
        """How many worker threads are running (``workers`` until :meth:`close`)."""
        with self._lock:
            return sum(1 for thread in self._threads if thread.is_alive())

    def url_for(self, request: Mapping[str, Any]) -> str:
        """The API URL that answers a provider request."""
        return api_url(self._base, request)

    def fetch(self, request: Mapping[str, Any]) -> Answer:
        """Performs one request over HTTP and returns the provider-protocol answer (an error
        answer for any failure). Blocking, at most ``timeout`` seconds: call it on a worker
        thread."""
        answer = self._fetch(request, Exchange(self._timeout, self._max_body))
        assert answer is not None
        return answer

    # --- Workers ---

    def _start_worker(self, replacing: Optional[threading.Thread] = None) -> None:
        with self._lock:
            if self._closed:
                return
            self._serial += 1
            thread = threading.Thread(target=self._worker, name=f"cinematic-http-{self._serial}", daemon=True)
            self._threads = [t for t in self._threads if t.is_alive() and t is not replacing] + [thread]
        thread.start()

    def _worker(self) -> None:
        current: Optional[int] = None
        try:
            while True:
                item = self._queue.get()
                if item is None:
                    return
                current, request = item
                self._serve(current, request)
                current = None
        except BaseException:
            # Everything _serve can raise is caught there, except what is not an Exception (or
            # a bug): answer the request in flight, put a new worker in this one's place, and
            # let the exception reach threading.excepthook, so the death is reported.
            if current is not None:
                self._respond(current, error_answer("network", "the provider's worker failed while fetching"))
            self._start_worker(replacing=threading.current_thread())
            raise

    def _serve(self, request_id: int, request: Dict[str, Any]) -> None:
        exchange = Exchange(self._timeout, self._max_body)
        with self._lock:
            if request_id not in self._queued or self._closed:   # cancelled while queued
                exchange.finish()
                return
            self._queued.discard(request_id)
            self._in_flight[request_id] = exchange
        try:
            answer = self._fetch(request, exchange)
        finally:
            with self._lock:
                self._in_flight.pop(request_id, None)
        if answer is not None:   # None: cancelled; nobody waits for it
            self._respond(request_id, answer)

    def _respond(self, request_id: int, answer: Answer) -> None:
        try:
            self._runtime.respond(request_id, answer)
        except Exception:   # the runtime closed meanwhile: nothing to answer
            pass

    def _fetch(self, request: Mapping[str, Any], exchange: Exchange) -> Optional[Answer]:
        """The answer to ``request``, or None when the exchange was cancelled."""
        try:
            answer = self._exchange(request, exchange)
        except Cancelled:
            return None
        except Failure as failure:
            answer = error_answer(failure.code, str(failure))
        except Exception as error:   # a bug, or a failure nobody foresaw: still an answer
            answer = error_answer("invalidResponse", f"{type(error).__name__}: {error}"[:300])
        finally:
            exchange.finish()
        reached = answer.get("error", {}).get("code") not in ("network", "timeout")
        self.online = reached
        if self._on_outcome is not None:
            try:
                self._on_outcome(reached)
            except Exception:
                pass
        return answer

    def _exchange(self, request: Mapping[str, Any], exchange: Exchange) -> Answer:
        url = urlsplit(self.url_for(request))
        target = (url.path or "/") + (f"?{url.query}" if url.query else "")
        try:
            addresses = socket.getaddrinfo(self._host, self._port, type=socket.SOCK_STREAM)
        except OSError as error:
            raise Failure("network", f"cannot resolve {self._host}: {error}") from None
        try:
            exchange.connect(addresses)
            exchange.send(f"GET {target} HTTP/1.1\r\nHost: {self._host_header}\r\nAccept: application/json\r\n"
                          f"User-Agent: cinematic-http-provider\r\nConnection: close\r\n\r\n".encode("ascii"))
            status, read_body = read_response(exchange)
            op = request.get("op")
            if status == 404 and op == "movie":
                return error_answer("notFound", f"HTTP 404 from {self._base}")
            if status >= 500:
                return error_answer("network", f"HTTP {status} from {self._base}")
            if status != 200:
                return error_answer("invalidResponse", f"HTTP {status} from {self._base}")
            body = parse_body(read_body())
        except OSError as error:   # reset, refused while sending, ...
            raise Failure("network", f"{self._base}: {error.strerror or error}") from None
        if op == "movie":
            return {"movie": to_detail(body)}
        page = as_object(body, "the body")
        if "results" not in page:
            raise Failure("invalidResponse", "the body has no results")
        results = as_list(page["results"], "the body's results")
        return {"movies": [to_movie(item, f"results[{i}]") for i, item in enumerate(results)]}
