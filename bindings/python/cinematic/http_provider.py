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

import errno
import json
import math
import os
import queue
import re
import select
import socket
import threading
import time
from typing import Any, Callable, Dict, List, Mapping, Optional, Set, Tuple
from urllib.parse import quote, urlencode, urlsplit

__all__ = ["HttpCatalogProvider", "catalog_config", "source_of", "to_movie", "to_detail", "DEFAULT_MAX_BODY",
           "MAX_HEADER_BYTES"]


def source_of(base_url: str) -> str:
    """The catalog source a movie API at ``base_url`` declares to the runtime: the URL without
    a trailing slash (``http://127.0.0.1:8631/`` and ``http://127.0.0.1:8631`` are one source).
    The library's offline cache keeps each source's answers apart (docs/wire.md, "Offline
    cache")."""
    return base_url.rstrip("/")


def catalog_config(base_url: str) -> Dict[str, str]:
    """The runtime config's ``catalog`` for a movie API at ``base_url``: a host catalog that
    declares its source, so the offline cache never shows this server's answers for another.

    Example::

        runtime = cinematic.Runtime({"catalog": catalog_config(url)})
        runtime.set_provider(HttpCatalogProvider(runtime, url))
    """
    return {"host": source_of(base_url)}

Answer = Dict[str, Any]

#: The default maximum size of a response body, in bytes (8 MiB).
DEFAULT_MAX_BODY = 8 * 1024 * 1024
#: The maximum size of a response's status line and headers together, in bytes (64 KiB).
MAX_HEADER_BYTES = 64 * 1024
_INT64 = (-(2 ** 63), 2 ** 63 - 1)
_READ = 65536


class _Failure(ValueError):
    """An exchange failed with ``code`` (one of the closed set). A ValueError, which is what
    :func:`to_movie` and :func:`to_detail` raise for a value of the wrong type."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


class _Cancelled(Exception):
    """The exchange was cancelled (or the provider closed): nobody wants its answer."""


# --- Decoding: values of the wrong type are refused, never coerced ---------------------------

def _invalid(path: str, expected: str, value: Any) -> _Failure:
    shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:40] + "..."
    return _Failure("invalidResponse", f"{path}: expected {expected}, got {type(value).__name__} {shown}")


def _int(item: Mapping[str, Any], key: str, path: str, *, required: bool = False) -> int:
    value = item.get(key)
    if value is None and not required:
        return 0
    if type(value) is not int or not _INT64[0] <= value <= _INT64[1]:
        raise _invalid(f"{path}.{key}", "a 64-bit integer", value)
    return value


def _number(value: Any, path: str) -> float:
    if type(value) not in (int, float) or not math.isfinite(value):
        raise _invalid(path, "a finite number", value)
    return float(value)


def _text(value: Any, path: str) -> str:
    if type(value) is not str:
        raise _invalid(path, "a string", value)
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise _invalid(path, "a string of Unicode characters", value) from None
    return value


def _list(value: Any, path: str) -> List[Any]:
    if value is None:
        return []
    if type(value) is not list:
        raise _invalid(path, "a list", value)
    return value


def _object(value: Any, path: str) -> Mapping[str, Any]:
    if type(value) is not dict:
        raise _invalid(path, "an object", value)
    return value


def to_movie(item: Any, path: str = "movie") -> Answer:
    """One API movie as a provider-protocol movie. ``id`` and ``title`` are required; the other
    fields may be missing or null (0, [] or null). Raises ``ValueError`` (naming ``path`` and
    the field) for a value of the wrong type."""
    item = _object(item, path)
    certification = item.get("certification")
    return {
        "id": _int(item, "id", path, required=True),
        "title": _text(item.get("title"), f"{path}.title"),
        "year": _int(item, "release_year", path),
        "runtime": _int(item, "runtime", path),
        "rating": 0.0 if item.get("vote_average") is None else _number(item["vote_average"], f"{path}.vote_average"),
        "votes": _int(item, "vote_count", path),
        "genres": [_text(g, f"{path}.genres[{i}]") for i, g in enumerate(_list(item.get("genres"), f"{path}.genres"))],
        "mpaa": None if certification is None else _text(certification, f"{path}.certification"),
    }


def to_detail(item: Any, path: str = "movie") -> Answer:
    """One API movie detail as a provider-protocol detail (see :func:`to_movie`; ``budget``
    may be null, ``rating_distribution`` a list of numbers)."""
    movie = to_movie(item, path)
    distribution = _list(item.get("rating_distribution"), f"{path}.rating_distribution")
    return {**movie, "budget": None if item.get("budget") is None else _int(item, "budget", path),
            "ratingDistribution": [_number(x, f"{path}.rating_distribution[{i}]") for i, x in enumerate(distribution)]}


def _refuse_constant(name: str) -> Any:
    raise _Failure("invalidResponse", f"the body has {name}, which is not JSON")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _Failure("invalidResponse", f"the number {text[:40]} is out of range")
    return value


def _json(body: bytes) -> Any:
    """The body as JSON: strict UTF-8, finite numbers, no NaN or Infinity."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as error:
        raise _Failure("invalidResponse", f"the body is not UTF-8 (byte {error.start})") from None
    try:
        return json.loads(text, parse_constant=_refuse_constant, parse_float=_finite_float)
    except _Failure:
        raise
    except RecursionError:
        raise _Failure("invalidResponse", "the body's JSON nests too deep") from None
    except ValueError as error:   # JSONDecodeError, or an integer of too many digits
        raise _Failure("invalidResponse", f"the body is not JSON: {error}") from None


# --- One HTTP exchange: one deadline, a size limit, a cancel switch ----------------------------

class _Exchange:
    """One HTTP/1.1 exchange over a non-blocking socket. Every wait is a ``poll`` on the socket
    and a wake-up socket, bounded by the exchange's deadline; :meth:`cancel` (any thread)
    wakes it and makes it raise :class:`_Cancelled`."""

    def __init__(self, timeout: float, max_body: int) -> None:
        self.deadline = time.monotonic() + timeout
        self.timeout = timeout
        self.max_body = max_body
        self._lock = threading.Lock()
        self._cancelled = False
        self._finished = False
        self._wake_r, self._wake_w = socket.socketpair()
        self._wake_w.setblocking(False)
        self._sock: Optional[socket.socket] = None
        self._buffer = bytearray()
        self._eof = False

    def cancel(self) -> None:
        """Aborts the exchange (never blocks). A no-op once it finished."""
        with self._lock:
            if self._cancelled or self._finished:
                return
            self._cancelled = True
            try:
                self._wake_w.send(b"\0")
            except OSError:
                pass

    def finish(self) -> None:
        """Closes the exchange's sockets."""
        with self._lock:
            self._finished = True
            for sock in (self._sock, self._wake_r, self._wake_w):
                if sock is not None:
                    sock.close()

    def _wait(self, sock: socket.socket, event: int) -> None:
        poller = select.poll()
        poller.register(sock, event)
        poller.register(self._wake_r, select.POLLIN)
        while True:
            if self._cancelled:
                raise _Cancelled()
            left = self.deadline - time.monotonic()
            if left <= 0:
                raise _Failure("timeout", f"no complete answer within {self.timeout:g} s")
            if poller.poll(math.ceil(left * 1000)) and not self._cancelled:
                return

    def connect(self, addresses: List[Tuple[Any, ...]]) -> None:
        """Connects to the first of ``addresses`` (getaddrinfo tuples) that accepts."""
        failure = "no address"
        for family, kind, proto, _, address in addresses:
            sock = socket.socket(family, kind, proto)
            with self._lock:
                if self._sock is not None:
                    self._sock.close()
                self._sock = sock
            sock.setblocking(False)
            status = sock.connect_ex(address)
            if status == errno.EINPROGRESS:
                self._wait(sock, select.POLLOUT)
                status = sock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR)
            if status == 0:
                return
            failure = f"{address[0]} port {address[1]}: {errno.errorcode.get(status, status)} ({_strerror(status)})"
        raise _Failure("network", f"cannot connect to {failure}")

    def send(self, data: bytes) -> None:
        assert self._sock is not None
        view = memoryview(data)
        while view:
            self._wait(self._sock, select.POLLOUT)
            try:
                view = view[self._sock.send(view):]
            except (BlockingIOError, InterruptedError):
                continue

    def _fill(self) -> bool:
        """Reads what is there into the buffer; False at the end of the stream."""
        assert self._sock is not None
        if self._eof:
            return False
        self._wait(self._sock, select.POLLIN)
        try:
            data = self._sock.recv(_READ)
        except (BlockingIOError, InterruptedError):
            return True
        if not data:
            self._eof = True
            return False
        self._buffer += data
        return True

    def line(self, limit: int, what: str) -> bytes:
        """The next CRLF-terminated line (without it), at most ``limit`` bytes."""
        while True:
            end = self._buffer.find(b"\r\n")
            if end >= 0:
                if end > limit:
                    break
                line = bytes(self._buffer[:end])
                del self._buffer[:end + 2]
                return line
            if len(self._buffer) > limit:
                break
            if not self._fill():
                raise _Failure("network", f"the connection closed in the middle of the {what}")
        raise _Failure("invalidResponse", f"the {what} is longer than {limit} bytes")

    def exactly(self, count: int, what: str) -> bytes:
        while len(self._buffer) < count:
            if not self._fill():
                raise _Failure("network", f"the connection closed after {len(self._buffer)} of the {count} bytes of the {what}")
        data = bytes(self._buffer[:count])
        del self._buffer[:count]
        return data

    def rest(self) -> bytes:
        """Everything until the server closes, at most ``max_body`` bytes."""
        while len(self._buffer) <= self.max_body:
            if not self._fill():
                break
        else:
            raise _too_large(self.max_body)
        data = bytes(self._buffer)
        self._buffer.clear()
        return data


def _strerror(status: int) -> str:
    return os.strerror(status).lower()


def _too_large(limit: int) -> _Failure:
    return _Failure("invalidResponse", f"the body is larger than the maximum of {limit / 1048576:g} MiB")


_STATUS_LINE = re.compile(rb"HTTP/1\.[01] ([0-9]{3})(?: [^\r\n]*)?")
_HEADER = re.compile(rb"([!#$%&'*+.^_`|~0-9A-Za-z-]+):[ \t]*(.*?)[ \t]*")
_DIGITS = re.compile(rb"[0-9]{1,19}")
_CHUNK_SIZE = re.compile(rb"([0-9A-Fa-f]{1,16})[ \t]*(?:;.*)?")
_MAX_HEADERS = 100


def _read_response(exchange: _Exchange) -> Tuple[int, Callable[[], bytes]]:
    """Reads the status line and the headers; returns the status and a function that reads
    the body (called only when the body is wanted)."""
    budget = MAX_HEADER_BYTES
    status_line = exchange.line(budget, "status line")
    match = _STATUS_LINE.fullmatch(status_line)
    if match is None:
        raise _Failure("invalidResponse", f"bad status line {status_line[:60]!r}")
    status = int(match.group(1))
    budget -= len(status_line)
    headers: Dict[bytes, List[bytes]] = {}
    for _ in range(_MAX_HEADERS + 1):
        line = exchange.line(budget, "headers")
        if not line:
            break
        budget -= len(line) + 2
        header = _HEADER.fullmatch(line)
        if header is None:
            raise _Failure("invalidResponse", f"bad header line {line[:60]!r}")
        headers.setdefault(header.group(1).lower(), []).append(header.group(2))
    else:
        raise _Failure("invalidResponse", f"more than {_MAX_HEADERS} headers")

    codings = [c.strip().lower() for v in headers.get(b"transfer-encoding", []) for c in v.split(b",") if c.strip()]
    lengths = set(headers.get(b"content-length", []))
    if codings:
        if codings != [b"chunked"]:
            raise _Failure("invalidResponse", f"unsupported Transfer-Encoding {b', '.join(codings)[:60]!r}")
        return status, lambda: _read_chunked(exchange)
    if lengths:
        if len(lengths) > 1 or _DIGITS.fullmatch(next(iter(lengths))) is None:
            raise _Failure("invalidResponse", f"bad Content-Length {b', '.join(sorted(lengths))[:60]!r}")
        length = int(next(iter(lengths)))
        if length > exchange.max_body:
            limit = exchange.max_body
            return status, lambda: _raise(_Failure("invalidResponse", f"Content-Length {length} is over the maximum "
                                                                      f"body size ({limit / 1048576:g} MiB)"))
        return status, lambda: exchange.exactly(length, "body")
    return status, exchange.rest


def _raise(failure: _Failure) -> bytes:
    raise failure


def _read_chunked(exchange: _Exchange) -> bytes:
    body = bytearray()
    while True:
        line = exchange.line(1024, "chunk size line")
        match = _CHUNK_SIZE.fullmatch(line)
        if match is None:
            raise _Failure("invalidResponse", f"bad chunk size line {line[:60]!r}")
        size = int(match.group(1), 16)
        if size == 0:
            break
        if len(body) + size > exchange.max_body:
            raise _too_large(exchange.max_body)
        body += exchange.exactly(size, "chunk")
        if exchange.exactly(2, "chunk") != b"\r\n":
            raise _Failure("invalidResponse", "a chunk is longer than its size")
    for _ in range(_MAX_HEADERS + 1):   # trailers
        if not exchange.line(MAX_HEADER_BYTES, "trailers"):
            return bytes(body)
    raise _Failure("invalidResponse", f"more than {_MAX_HEADERS} trailers")


# --- The provider ------------------------------------------------------------------------------

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
        self._in_flight: Dict[int, _Exchange] = {}     # being fetched
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

    def fetch(self, request: Mapping[str, Any]) -> Answer:
        """Performs one request over HTTP and returns the provider-protocol answer (an error
        answer for any failure). Blocking, at most ``timeout`` seconds: call it on a worker
        thread."""
        answer = self._fetch(request, _Exchange(self._timeout, self._max_body))
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
                self._respond(current, _error("network", "the provider's worker failed while fetching"))
            self._start_worker(replacing=threading.current_thread())
            raise

    def _serve(self, request_id: int, request: Dict[str, Any]) -> None:
        exchange = _Exchange(self._timeout, self._max_body)
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

    def _fetch(self, request: Mapping[str, Any], exchange: _Exchange) -> Optional[Answer]:
        """The answer to ``request``, or None when the exchange was cancelled."""
        try:
            answer = self._exchange(request, exchange)
        except _Cancelled:
            return None
        except _Failure as failure:
            answer = _error(failure.code, str(failure))
        except Exception as error:   # a bug, or a failure nobody foresaw: still an answer
            answer = _error("invalidResponse", f"{type(error).__name__}: {error}"[:300])
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

    def _exchange(self, request: Mapping[str, Any], exchange: _Exchange) -> Answer:
        url = urlsplit(self.url_for(request))
        target = (url.path or "/") + (f"?{url.query}" if url.query else "")
        try:
            addresses = socket.getaddrinfo(self._host, self._port, type=socket.SOCK_STREAM)
        except OSError as error:
            raise _Failure("network", f"cannot resolve {self._host}: {error}") from None
        try:
            exchange.connect(addresses)
            exchange.send(f"GET {target} HTTP/1.1\r\nHost: {self._host_header}\r\nAccept: application/json\r\n"
                          f"User-Agent: cinematic-http-provider\r\nConnection: close\r\n\r\n".encode("ascii"))
            status, read_body = _read_response(exchange)
            op = request.get("op")
            if status == 404 and op == "movie":
                return _error("notFound", f"HTTP 404 from {self._base}")
            if status >= 500:
                return _error("network", f"HTTP {status} from {self._base}")
            if status != 200:
                return _error("invalidResponse", f"HTTP {status} from {self._base}")
            body = _json(read_body())
        except OSError as error:   # reset, refused while sending, ...
            raise _Failure("network", f"{self._base}: {error.strerror or error}") from None
        if op == "movie":
            return {"movie": to_detail(body)}
        page = _object(body, "the body")
        if "results" not in page:
            raise _Failure("invalidResponse", "the body has no results")
        results = _list(page["results"], "the body's results")
        return {"movies": [to_movie(item, f"results[{i}]") for i, item in enumerate(results)]}


def _error(code: str, message: str) -> Answer:
    return {"error": {"code": code, "message": message}}
