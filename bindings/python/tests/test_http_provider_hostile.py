"""The HTTP provider (cinematic.http_provider) against a hostile server (issue 26, item 5).

A raw TCP server on 127.0.0.1, in threads of this process, answers each connection with a
script that misbehaves in one way: an endless body, a huge Content-Length, a body dripped a
byte at a time, no answer at all, a cut in the headers, a bad status line, JSON of the wrong
shape or type, 100k-deep JSON, 1e400, bytes that are not UTF-8, broken chunked encoding, a
reset. For each the provider must answer the request with a typed error (``network``,
``timeout`` or ``invalidResponse``) within its deadline, keep all its workers, and read no
more than its maximum body size. Cancelling a fetch in flight frees its worker at once, and a
worker that dies anyway is replaced.

Waits are bounded waits on conditions (no sleep-and-hope). ``STRESS_SECONDS`` (default 1.5)
sets how long :func:`test_hostile_stress_mixed_load` cycles through every misbehaviour;
``make stress`` runs it for its STRESS_SECONDS.
"""

from __future__ import annotations

import json
import os
import socket
import threading
import time
from typing import Any, Callable, Dict, Iterator, List, Optional, Tuple

import pytest

import cinematic
import cinematic.http_provider as http_provider
from cinematic.http_provider import HttpCatalogProvider

import wirecheck

CODES = {"network", "notFound", "invalidResponse", "storage", "timeout"}
MIB = 1024 * 1024
DUNE = {"id": 15249, "title": "Dune", "release_year": 1984, "runtime": 190, "vote_average": 6.3,
        "vote_count": 16903, "genres": ["Action"], "certification": None}
DUNE_DETAIL = {**DUNE, "budget": 45000000, "rating_distribution": [4.5, 4.5, 4.5, 4.5, 14.5, 24.5, 24.5, 14.5, 4.5, 4.5]}
#: How long a test waits for an answer before failing (generous: answers come in well under 2 s).
WAIT = 10.0


def response(body: bytes, status: str = "200 OK", headers: Tuple[str, ...] = ()) -> bytes:
    """An HTTP/1.1 response with a Content-Length."""
    head = [f"HTTP/1.1 {status}", "Content-Type: application/json", f"Content-Length: {len(body)}", *headers]
    return ("\r\n".join(head) + "\r\n\r\n").encode() + body


def page(*movies: Any) -> bytes:
    return json.dumps({"page": 1, "results": list(movies), "total_pages": 1, "total_results": len(movies)}).encode()


class Connection:
    """One accepted connection, as a script sees it: ``send`` counts what reached the socket and
    says False once the provider hung up."""

    def __init__(self, server: "HostileServer", sock: socket.socket, path: str) -> None:
        self.server, self.sock, self.path = server, sock, path

    def send(self, data: bytes) -> bool:
        try:
            self.sock.sendall(data)
        except OSError:
            return False
        self.server.count(len(data))
        return True

    def drip(self, data: bytes, every: float, limit: float = 60.0) -> None:
        """Sends ``data`` one byte every ``every`` seconds (at most ``limit`` seconds)."""
        end = time.monotonic() + limit
        for i in range(len(data)):
            if time.monotonic() > end or not self.send(data[i:i + 1]) or self.server.stopping.wait(every):
                return

    def hold(self, limit: float = 60.0) -> None:
        """Keeps the connection open, sending nothing, until the peer hangs up or the server
        stops (at most ``limit`` seconds)."""
        self.sock.settimeout(0.05)
        end = time.monotonic() + limit
        while time.monotonic() < end and not self.server.stopping.is_set():
            try:
                if self.sock.recv(4096) == b"":
                    return
            except socket.timeout:
                continue
            except OSError:
                return

    def reset(self) -> None:
        """Closes with a TCP reset (SO_LINGER 0)."""
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
        self.sock.close()


Script = Callable[[Connection], None]


class HostileServer:
    """A TCP server on 127.0.0.1 that reads each request's head and hands the connection to
    ``script`` (which may look at ``conn.path``), counting every byte it sends."""

    def __init__(self, script: Script) -> None:
        self.script = script
        self.stopping = threading.Event()
        self._lock = threading.Condition()
        self.sent = 0
        self.paths: List[str] = []
        self.open_connections = 0
        self.listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(64)
        self.url = f"http://127.0.0.1:{self.listener.getsockname()[1]}"
        self._thread = threading.Thread(target=self._accept, daemon=True)
        self._thread.start()

    def count(self, n: int) -> None:
        with self._lock:
            self.sent += n

    def wait_for_path(self, fragment: str, timeout: float = WAIT) -> None:
        """Blocks until a request whose path contains ``fragment`` arrived."""
        with self._lock:
            assert self._lock.wait_for(lambda: any(fragment in p for p in self.paths), timeout), self.paths

    def wait_idle(self, timeout: float = WAIT) -> None:
        """Blocks until every connection's script has returned (the provider hung up)."""
        with self._lock:
            assert self._lock.wait_for(lambda: self.open_connections == 0, timeout), self.open_connections

    def _accept(self) -> None:
        while not self.stopping.is_set():
            try:
                sock, _ = self.listener.accept()
            except OSError:
                return
            with self._lock:
                self.open_connections += 1
            threading.Thread(target=self._serve, args=(sock,), daemon=True).start()

    def _serve(self, sock: socket.socket) -> None:
        try:
            sock.settimeout(WAIT)
            head = b""
            while b"\r\n\r\n" not in head and len(head) < 65536:
                chunk = sock.recv(4096)
                if not chunk:
                    return
                head += chunk
            path = head.split(b"\r\n", 1)[0].decode("latin-1").split(" ")[1]
            with self._lock:
                self.paths.append(path)
                self._lock.notify_all()
            sock.settimeout(None)
            self.script(Connection(self, sock, path))
        except OSError:
            pass
        finally:
            try:
                sock.close()
            except OSError:
                pass
            with self._lock:
                self.open_connections -= 1
                self._lock.notify_all()

    def close(self) -> None:
        self.stopping.set()
        self.listener.close()


class Answers:
    """Stands in for a runtime: records what the provider answers, validated against the
    schema's providerAnswer, and lets a test wait for one."""

    def __init__(self) -> None:
        self._lock = threading.Condition()
        self.answers: Dict[int, Dict[str, Any]] = {}
        self.responded: List[int] = []

    def respond(self, request_id: int, answer: Dict[str, Any]) -> None:
        text = json.dumps(answer, allow_nan=False)         # what the library could take
        problems = list(wirecheck.validator("providerAnswer").iter_errors(json.loads(text)))
        assert not problems, problems[0].message
        if "error" in answer:
            assert answer["error"]["code"] in CODES and answer["error"]["message"], answer
        with self._lock:
            self.answers[request_id] = answer
            self.responded.append(request_id)
            self._lock.notify_all()

    def wait(self, request_id: int, timeout: float = WAIT) -> Dict[str, Any]:
        with self._lock:
            assert self._lock.wait_for(lambda: request_id in self.answers, timeout), \
                f"request {request_id} not answered within {timeout} s (answered: {sorted(self.answers)})"
            return self.answers[request_id]


def search(query: str = "dune") -> Dict[str, Any]:
    return {"op": "search", "query": query, "page": 1}


@pytest.fixture
def hostile() -> Iterator[Callable[[Script], HostileServer]]:
    servers: List[HostileServer] = []

    def start(script: Script) -> HostileServer:
        servers.append(HostileServer(script))
        return servers[-1]

    yield start
    for server in servers:
        server.close()


@pytest.fixture
def providers() -> Iterator[Callable[..., Tuple[HttpCatalogProvider, Answers]]]:
    made: List[HttpCatalogProvider] = []

    def make(url: str, **options: Any) -> Tuple[HttpCatalogProvider, Answers]:
        answers = Answers()
        made.append(HttpCatalogProvider(answers, url, **options))
        return made[-1], answers

    yield make
    for provider in made:
        provider.close()


def ask(provider: HttpCatalogProvider, answers: Answers, request: Dict[str, Any], request_id: int = 1) -> Dict[str, Any]:
    """Sends one request through the provider callback and waits for its answer."""
    provider(request_id, request)
    return answers.wait(request_id)


def error_of(answer: Dict[str, Any]) -> str:
    assert "error" in answer, f"expected an error, got {str(answer)[:200]}"
    code: str = answer["error"]["code"]
    return code


# --- Sizes ------------------------------------------------------------------------------

def endless(prefix: bytes, piece: bytes, cap: int = 64 * MIB) -> Script:
    """Headers then ``piece`` forever (until the provider hangs up, or ``cap`` bytes)."""
    def script(conn: Connection) -> None:
        conn.sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 65536)
        if not conn.send(prefix):
            return
        sent = 0
        while sent < cap and not conn.server.stopping.is_set() and conn.send(piece):
            sent += len(piece)
    return script


ENDLESS_JSON = endless(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n" + b'{"results": [',
                       (json.dumps(DUNE) + ", ").encode() * 512)


def chunk(data: bytes) -> bytes:
    return b"%x\r\n" % len(data) + data + b"\r\n"


ENDLESS_CHUNKS = endless(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" + chunk(b'{"results": ['),
                         chunk((json.dumps(DUNE) + ", ").encode() * 512))


@pytest.mark.parametrize("script", [ENDLESS_JSON, ENDLESS_CHUNKS], ids=["plain", "chunked"])
def test_an_endless_body_is_cut_at_the_maximum_size(hostile, providers, script: Script) -> None:
    server = hostile(script)
    provider, answers = providers(server.url, workers=1)
    answer = ask(provider, answers, search())
    assert error_of(answer) == "invalidResponse" and "MiB" in answer["error"]["message"]
    server.wait_idle()
    # The default maximum is 8 MiB; what the kernel buffers on both sides is all it sent beyond.
    assert http_provider.DEFAULT_MAX_BODY == 8 * MIB
    assert server.sent < 8 * MIB + 8 * MIB, f"the provider read {server.sent / MIB:.0f} MiB"


def test_the_maximum_body_size_is_configurable(hostile, providers) -> None:
    body = page(DUNE, DUNE, DUNE)
    server = hostile(lambda conn: conn.send(response(body)) and None)
    small, answers = providers(server.url, workers=1, max_body=len(body) - 1)
    assert error_of(ask(small, answers, search())) == "invalidResponse"
    enough, answers = providers(server.url, workers=1, max_body=len(body))
    assert ask(enough, answers, search())["movies"][0]["title"] == "Dune"


def test_a_huge_content_length_is_refused_before_reading(hostile, providers) -> None:
    def script(conn: Connection) -> None:
        conn.send(b"HTTP/1.1 200 OK\r\nContent-Length: 10000000000\r\n\r\n{")
        conn.hold()
    server = hostile(script)
    provider, answers = providers(server.url, workers=1, timeout=30)
    answer = ask(provider, answers, search())
    assert error_of(answer) == "invalidResponse" and "Content-Length" in answer["error"]["message"]


# --- Time -------------------------------------------------------------------------------

def test_a_body_dripped_a_byte_at_a_time_meets_one_deadline(hostile, providers) -> None:
    """Each byte comes well within a per-read timeout; the whole exchange does not."""
    body = page(DUNE)
    server = hostile(lambda conn: conn.drip(response(body * 50), every=0.05))
    provider, answers = providers(server.url, workers=1, timeout=1.0)
    started = time.monotonic()
    assert error_of(ask(provider, answers, search())) == "timeout"
    assert time.monotonic() - started < WAIT


def test_headers_dripped_a_byte_at_a_time_meet_the_deadline_too(hostile, providers) -> None:
    server = hostile(lambda conn: conn.drip(b"HTTP/1.1 200 OK\r\n" + b"X-Slow: " + b"a" * 4000 + b"\r\n", every=0.05))
    provider, answers = providers(server.url, workers=1, timeout=1.0)
    assert error_of(ask(provider, answers, search())) == "timeout"


def test_a_server_that_never_answers_times_out(hostile, providers) -> None:
    server = hostile(lambda conn: conn.hold())
    provider, answers = providers(server.url, workers=1, timeout=0.5)
    assert error_of(ask(provider, answers, search())) == "timeout"


def test_four_slow_requests_do_not_pin_every_worker(hostile, providers) -> None:
    def script(conn: Connection) -> None:
        if "slow" in conn.path:
            conn.drip(response(page(DUNE) * 50), every=0.05)
        else:
            conn.send(response(page(DUNE)))
    server = hostile(script)
    provider, answers = providers(server.url, workers=4, timeout=1.0)
    for request_id in range(1, 5):
        provider(request_id, search(f"slow{request_id}"))
    provider(5, search("dune"))
    assert answers.wait(5)["movies"][0]["title"] == "Dune"
    assert all(error_of(answers.wait(i)) == "timeout" for i in range(1, 5))


def test_cancel_aborts_the_fetch_in_flight_and_frees_the_worker(hostile, providers) -> None:
    def script(conn: Connection) -> None:
        if "slow" in conn.path:
            conn.hold()
        else:
            conn.send(response(page(DUNE)))
    server = hostile(script)
    provider, answers = providers(server.url, workers=1, timeout=60)
    provider(1, search("slow"))
    server.wait_for_path("slow")                 # the only worker is inside the slow exchange
    provider(1, {"op": "cancel"})
    provider(2, search("dune"))
    assert answers.wait(2, timeout=5)["movies"][0]["title"] == "Dune"
    server.wait_idle(timeout=5)                  # the slow connection was closed, not left open
    assert 1 not in answers.answers              # a cancelled request is not answered


def test_close_aborts_fetches_in_flight(hostile, providers) -> None:
    server = hostile(lambda conn: conn.hold())
    provider, _ = providers(server.url, workers=2, timeout=60)
    provider(1, search("one"))
    provider(2, search("two"))
    server.wait_for_path("two")
    server.wait_for_path("one")
    started = time.monotonic()
    provider.close()
    assert time.monotonic() - started < 5
    server.wait_idle(timeout=5)


# --- The shape of the answer -------------------------------------------------------------

def closes_after(data: bytes) -> Script:
    return lambda conn: conn.send(data) and None


def chunked(*parts: bytes) -> bytes:
    return b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" + b"".join(parts)


DEEP = b"[" * 100_000 + b"]" * 100_000
BODY = page(DUNE)

INVALID: Dict[str, bytes] = {
    "top-level list": response(b"[]"),
    "top-level number": response(b"1e400"),
    "results not a list": response(b'{"results": {"id": 1}}'),
    "no results": response(b'{"page": 1}'),
    "a movie not an object": response(b'{"results": [1]}'),
    "100k-deep JSON": response(DEEP),
    "100k-deep JSON in a movie": response(b'{"results": [{"id": 1, "title": "x", "genres": ' + DEEP + b"}]}"),
    "not JSON": response(b"<html>hello</html>"),
    "NaN": response(b'{"results": [{"id": 1, "title": "x", "vote_average": NaN}]}'),
    "rating 1e400": response(b'{"results": [{"id": 1, "title": "x", "vote_average": 1e400}]}'),
    "id 1e400": response(b'{"results": [{"id": 1e400, "title": "x"}]}'),
    "id 2**70": response(b'{"results": [{"id": 1180591620717411303424, "title": "x"}]}'),
    "id of 5000 digits": response(b'{"results": [{"id": ' + b"9" * 5000 + b', "title": "x"}]}'),
    "id a string": response(b'{"results": [{"id": "15249", "title": "Dune"}]}'),
    "id a float": response(b'{"results": [{"id": 15249.5, "title": "Dune"}]}'),
    "id a boolean": response(b'{"results": [{"id": true, "title": "Dune"}]}'),
    "title a number": response(b'{"results": [{"id": 1, "title": 1984}]}'),
    "title missing": response(b'{"results": [{"id": 1}]}'),
    "year a string": response(b'{"results": [{"id": 1, "title": "Dune", "release_year": "1984"}]}'),
    "year a float": response(b'{"results": [{"id": 1, "title": "Dune", "release_year": 1984.0}]}'),
    "votes a boolean": response(b'{"results": [{"id": 1, "title": "Dune", "vote_count": false}]}'),
    "rating a string": response(b'{"results": [{"id": 1, "title": "Dune", "vote_average": "6.3"}]}'),
    "genres a string": response(b'{"results": [{"id": 1, "title": "Dune", "genres": "Action"}]}'),
    "a genre a number": response(b'{"results": [{"id": 1, "title": "Dune", "genres": [7]}]}'),
    "certification a number": response(b'{"results": [{"id": 1, "title": "Dune", "certification": 13}]}'),
    "not UTF-8": response(b'{"results": [{"id": 1, "title": "D\xffne"}]}'),
    "UTF-16": response(json.dumps({"results": []}).encode("utf-16")),
    "a lone surrogate": response(b'{"results": [{"id": 1, "title": "\\ud800"}]}'),
    "bad status line": b"HELLO WORLD\r\n\r\n" + BODY,
    "status line with no code": b"HTTP/1.1 OK\r\nContent-Length: 2\r\n\r\n{}",
    "status code not digits": b"HTTP/1.1 2OO OK\r\nContent-Length: 2\r\n\r\n{}",
    "status code in another script": "HTTP/1.1 \u0662\u0660\u0660 OK\r\nContent-Length: 2\r\n\r\n{}".encode(),
    "HTTP/2 status line": b"HTTP/2 200\r\nContent-Length: 2\r\n\r\n{}",
    "a header line with no colon": b"HTTP/1.1 200 OK\r\ngarbage\x00\x01\r\nContent-Length: %d\r\n\r\n" % len(BODY) + BODY,
    "a folded header": b"HTTP/1.1 200 OK\r\nX-A: 1\r\n  folded\r\nContent-Length: %d\r\n\r\n" % len(BODY) + BODY,
    "an endless header line": b"HTTP/1.1 200 OK\r\nX-Long: " + b"a" * 200_000 + b"\r\n\r\n",
    "a thousand headers": b"HTTP/1.1 200 OK\r\n" + b"X-Many: 1\r\n" * 1000 + b"\r\n" + BODY,
    "Content-Length not a number": b"HTTP/1.1 200 OK\r\nContent-Length: ten\r\n\r\n" + BODY,
    "Content-Length negative": b"HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n" + BODY,
    "Content-Length in another script": "HTTP/1.1 200 OK\r\nContent-Length: \u0662\r\n\r\n{}".encode(),
    "two different Content-Lengths": b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{} ",
    "an unknown transfer coding": b"HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\n" + BODY,
    "a chunk size not hex": chunked(b"zz\r\n" + BODY + b"\r\n0\r\n\r\n"),
    "a negative chunk size": chunked(b"-5\r\nhello\r\n0\r\n\r\n"),
    "a chunk size 0x-prefixed": chunked(b"0x5\r\n{}   \r\n0\r\n\r\n"),
    "a chunk longer than its size": chunked(b"2\r\n{}  \r\n0\r\n\r\n"),
    "an endless chunk size line": chunked(b"1" * 100_000),
    "a huge chunk size": chunked(b"ffffffffffffffffffffff\r\n{"),
    "a 404 for a search": response(b'{"status_message": "no"}', status="404 Not Found"),
    "a redirect": response(b"", status="302 Found", headers=("Location: http://127.0.0.1:1/",)),
}

NETWORK: Dict[str, bytes] = {
    "closed before answering": b"",
    "closed mid-status line": b"HTTP/1.1 20",
    "closed mid-headers": b"HTTP/1.1 200 OK\r\nContent-Le",
    "closed after the headers": b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n",
    "a short body": response(BODY)[:-10],
    "a chunked body cut short": chunked(chunk(BODY[:20])),
    "a chunked body with no last chunk": chunked(chunk(BODY)),
    "a 503": response(b'{"status_message": "busy"}', status="503 Service Unavailable"),
}


@pytest.mark.parametrize("data", list(INVALID.values()), ids=list(INVALID))
def test_a_malformed_answer_is_invalid_response_and_the_worker_lives_on(hostile, providers, data: bytes) -> None:
    def script(conn: Connection) -> None:
        conn.send(data if "bad" in conn.path else response(page(DUNE)))
    server = hostile(script)
    provider, answers = providers(server.url, workers=1, timeout=5.0)
    answer = ask(provider, answers, search("bad"), 1)
    assert error_of(answer) == "invalidResponse"
    assert ask(provider, answers, search("dune"), 2)["movies"][0]["title"] == "Dune"


@pytest.mark.parametrize("data", list(NETWORK.values()), ids=list(NETWORK))
def test_a_broken_transfer_is_network_and_the_worker_lives_on(hostile, providers, data: bytes) -> None:
    def script(conn: Connection) -> None:
        conn.send(data if "bad" in conn.path else response(page(DUNE)))
    server = hostile(script)
    provider, answers = providers(server.url, workers=1, timeout=5.0)
    assert error_of(ask(provider, answers, search("bad"), 1)) == "network"
    assert ask(provider, answers, search("dune"), 2)["movies"][0]["title"] == "Dune"


def test_a_reset_connection_is_network(hostile, providers) -> None:
    server = hostile(lambda conn: conn.reset())
    provider, answers = providers(server.url, workers=1)
    assert error_of(ask(provider, answers, search())) == "network"


def test_a_refused_connection_is_network(providers) -> None:
    port_holder = socket.socket()
    port_holder.bind(("127.0.0.1", 0))            # bound, never listening: connections are refused
    try:
        provider, answers = providers(f"http://127.0.0.1:{port_holder.getsockname()[1]}", workers=1)
        answer = ask(provider, answers, search())
        assert error_of(answer) == "network" and "refused" in answer["error"]["message"]
        assert provider.online is False
    finally:
        port_holder.close()


def test_good_answers_still_decode(hostile, providers) -> None:
    """Chunked with extensions and trailers, no Content-Length (read to the close), a detail,
    a 404 for a movie: the neighbours that must keep working."""
    def script(conn: Connection) -> None:
        if conn.path.startswith("/movie/15249"):
            conn.send(b"HTTP/1.0 200 OK\r\ncontent-type: application/json\r\n\r\n" + json.dumps(DUNE_DETAIL).encode())
        elif conn.path.startswith("/movie/"):
            conn.send(response(b'{"status_message": "no movie"}', status="404 Not Found"))
        else:
            body = page(DUNE, {"id": 2, "title": "Alien", "release_year": None, "genres": None})
            conn.send(chunked(b"5;name=value\r\n" + body[:5] + b"\r\n", chunk(body[5:]), b"0\r\nX-Trailer: 1\r\n\r\n"))
    server = hostile(script)
    provider, answers = providers(server.url, workers=2)
    movies = ask(provider, answers, search(), 1)["movies"]
    assert movies == [http_provider.to_movie(DUNE), {"id": 2, "title": "Alien", "year": 0, "runtime": 0, "rating": 0.0,
                                                     "votes": 0, "genres": [], "mpaa": None}]
    detail = ask(provider, answers, {"op": "movie", "id": 15249}, 2)["movie"]
    assert detail["budget"] == 45000000 and detail["year"] == 1984 and len(detail["ratingDistribution"]) == 10
    assert error_of(ask(provider, answers, {"op": "movie", "id": 7}, 3)) == "notFound"
    assert provider.online is True


# --- Workers ------------------------------------------------------------------------------

class Boom(BaseException):
    """Not an Exception: nothing in the provider should catch it, so it kills the worker."""


def test_an_unexpected_exception_while_decoding_is_an_error_answer(hostile, providers, monkeypatch) -> None:
    server = hostile(lambda conn: conn.send(response(page(DUNE))) and None)
    provider, answers = providers(server.url, workers=1)
    real = http_provider.to_movie
    calls = []

    def flaky(*args: Any) -> Any:
        calls.append(args)
        if len(calls) == 1:
            raise ZeroDivisionError("a bug")
        return real(*args)

    monkeypatch.setattr(http_provider, "to_movie", flaky)
    assert error_of(ask(provider, answers, search(), 1)) == "invalidResponse"
    assert ask(provider, answers, search(), 2)["movies"][0]["title"] == "Dune"


def test_a_worker_that_dies_is_replaced_and_its_request_answered(hostile, providers, monkeypatch) -> None:
    server = hostile(lambda conn: conn.send(response(page(DUNE))) and None)
    died: List[Any] = []
    reported = threading.Event()

    def hook(args: Any) -> None:
        died.append(args.exc_value)
        reported.set()

    monkeypatch.setattr(threading, "excepthook", hook)
    outcomes: List[bool] = []

    def on_outcome(ok: bool) -> None:
        outcomes.append(ok)
        if len(outcomes) == 1:
            raise Boom("the worker dies")

    provider, answers = providers(server.url, workers=1, on_outcome=on_outcome)
    provider(1, search())
    provider(2, search())
    assert answers.wait(2)["movies"][0]["title"] == "Dune"        # served by the replacement
    assert error_of(answers.wait(1)) in CODES                     # the dead worker's request got an answer
    assert reported.wait(WAIT) and [type(e) for e in died] == [Boom]   # the death was reported, not silent
    assert provider.alive_workers() == 1


def test_every_kind_of_failure_through_a_real_runtime_leaves_the_provider_serving(hostile, runtimes) -> None:
    """The audit's four: after a top-level [], {"id": 1e400}, 100k-deep JSON and a bad status
    line, the next search still loads (it used to time out forever: four dead workers)."""
    bad = {"top": response(b"[]"), "inf": response(b'{"results": [{"id": 1e400, "title": "x"}]}'),
           "deep": response(DEEP), "status": b"HELLO\r\n\r\n"}

    def script(conn: Connection) -> None:
        kind = next((k for k in bad if f"query={k}" in conn.path), None)
        conn.send(bad[kind] if kind else response(page(DUNE)))
    server = hostile(script)
    runtime = runtimes({"catalog": "host", "offlineCache": False})
    with HttpCatalogProvider(runtime, server.url, workers=4) as provider:
        runtime.set_provider(provider)
        with runtime.search() as store:
            for query in bad:
                store.query_changed(query)
                store.submitted()
                state = store.wait_for(lambda s: s["results"]["phase"] != "loading", timeout=WAIT)
                assert state["results"]["phase"] == "failed", state
                assert state["results"]["error"]["code"] == "invalidResponse"
            store.query_changed("dune")
            store.submitted()
            state = store.wait_for(lambda s: s["results"]["phase"] != "loading", timeout=WAIT)
            assert state["results"]["value"][0]["title"] == "Dune"
        assert provider.alive_workers() == 4


# --- Long run -----------------------------------------------------------------------------

def _rss_kib() -> int:
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))


def test_hostile_stress_mixed_load(hostile, providers) -> None:
    """For STRESS_SECONDS (default 1.5) four workers serve a mix of every misbehaviour above,
    with cancellations: every request not cancelled gets a typed answer, no worker is lost,
    no descriptor leaks, and memory stays flat."""
    seconds = float(os.environ.get("STRESS_SECONDS") or 1.5)
    kinds = [*INVALID.values(), *NETWORK.values()]

    def script(conn: Connection) -> None:
        index = int(conn.path.split("query=q", 1)[1].split("&", 1)[0]) if "query=q" in conn.path else -1
        if index % 7 == 0:
            conn.drip(response(page(DUNE) * 50), every=0.02)
        elif index % 11 == 0:
            ENDLESS_JSON(conn)
        elif index % 5 == 0:
            conn.hold()
        else:
            conn.send(kinds[index % len(kinds)] if index % 3 else response(page(DUNE)))
    server = hostile(script)
    provider, answers = providers(server.url, workers=4, timeout=0.3, max_body=MIB)
    fds = len(os.listdir("/proc/self/fd"))
    rss: List[int] = []
    end = time.monotonic() + seconds
    sent = 0
    cancelled = set()
    while time.monotonic() < end or sent < 40:
        for _ in range(8):
            sent += 1
            provider(sent, search(f"q{sent}"))
            if sent % 13 == 0:
                provider(sent, {"op": "cancel"})
                cancelled.add(sent)
        for request_id in range(sent - 7, sent + 1):
            if request_id not in cancelled:
                answers.wait(request_id, timeout=WAIT)
        rss.append(_rss_kib())
    assert all(i in answers.answers for i in range(1, sent + 1) if i not in cancelled)
    assert provider.alive_workers() == 4
    server.wait_idle()
    assert len(os.listdir("/proc/self/fd")) <= fds + 2
    settled = rss[len(rss) // 4:]
    print(f"hostile stress: {sent} requests in {seconds:g} s, RSS {min(settled)}...{max(settled)} KiB")
    assert max(settled) - min(settled) < 64 * 1024, f"RSS grew from {min(settled)} to {max(settled)} KiB"


# --- The example server's /_control -------------------------------------------------------

@pytest.fixture(scope="module")
def catalog_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Tuple[str, Any]]:
    """examples/catalog-server on a free port; yields its URL and a function returning what
    it wrote to stderr so far."""
    import subprocess
    import sys
    from conftest import REPO
    log = tmp_path_factory.mktemp("server") / "stderr.txt"
    with open(log, "wb") as stderr:
        process = subprocess.Popen([sys.executable, str(REPO / "examples" / "catalog-server" / "server.py"),
                                    "--port", "0", "--quiet"], stdout=subprocess.PIPE, stderr=stderr, text=True)
    assert process.stdout is not None
    first = process.stdout.readline().strip()
    assert first.startswith("listening on http://"), first
    try:
        yield first.split()[-1], lambda: log.read_text(errors="replace")
    finally:
        process.terminate()
        process.wait(timeout=10)
        process.stdout.close()


def post_control(url: str, body: bytes, headers: Optional[Dict[str, Any]] = None) -> Tuple[int, Dict[str, Any]]:
    """POST /_control with ``body`` (and a Content-Length, unless ``headers`` give their own)."""
    import http.client
    host, port = url.split("//", 1)[1].split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=WAIT)
    try:
        connection.putrequest("POST", "/_control")
        for name, value in (headers or {"Content-Length": str(len(body))}).items():
            connection.putheader(name, value)
        connection.endheaders(body)
        answer = connection.getresponse()
        return answer.status, json.loads(answer.read())
    finally:
        connection.close()


BAD_CONTROL: Dict[str, bytes] = {
    "not JSON": b"latency please",
    "not an object": b"[]",
    "a number": b"500",
    "an unknown key": b'{"latency": 500}',
    "latencyMs a string": b'{"latencyMs": "500"}',
    "latencyMs negative": b'{"latencyMs": -1}',
    "latencyMs a float": b'{"latencyMs": 1.5}',
    "latencyMs a boolean": b'{"latencyMs": true}',
    "latencyMs 1e400": b'{"latencyMs": 1e400}',
    "latencyMs NaN": b'{"latencyMs": NaN}',
    "latencyMs huge": b'{"latencyMs": 1000000000000000000000000}',
    "latencyMs null": b'{"latencyMs": null}',
    "fail a string": b'{"fail": "yes"}',
    "fail a number": b'{"fail": 1}',
    "failEvery negative": b'{"failEvery": -3}',
    "deep JSON": b"[" * 3000,
    "not UTF-8": b'{"fail": "\xff"}',
}


def fresh(catalog_server: Tuple[str, Any]) -> Callable[[], str]:
    """Resets the switches; returns a function giving what the server wrote to stderr since."""
    url, stderr = catalog_server
    assert post_control(url, b'{"latencyMs": 0, "fail": false}')[0] == 200
    start = len(stderr())
    return lambda: str(stderr()[start:])


@pytest.mark.parametrize("body", list(BAD_CONTROL.values()), ids=list(BAD_CONTROL))
def test_control_refuses_bad_input_with_400_and_changes_nothing(catalog_server, body: bytes) -> None:
    url, _ = catalog_server
    stderr = fresh(catalog_server)
    status, answer = post_control(url, body)
    assert status == 400 and answer["status_message"], answer
    status, state = post_control(url, b"{}")
    assert status == 200 and (state["latencyMs"], state["fail"]) == (0, False)
    assert "Traceback" not in stderr()


@pytest.mark.parametrize("headers,status", [
    ({"Content-Length": "-1"}, 400), ({"Content-Length": "ten"}, 400), ({"Content-Length": "\u0663".encode()}, 400),
    ({"Content-Length": "1000000000"}, 413), ({"Transfer-Encoding": "chunked"}, 400),
], ids=["negative", "not a number", "an Arabic-Indic digit", "too large", "chunked"])
def test_control_refuses_a_bad_content_length(catalog_server, headers: Dict[str, Any], status: int) -> None:
    url, _ = catalog_server
    stderr = fresh(catalog_server)
    assert post_control(url, b"", headers)[0] == status
    assert "Traceback" not in stderr()


def test_control_applies_good_input(catalog_server) -> None:
    url, _ = catalog_server
    stderr = fresh(catalog_server)
    try:
        assert post_control(url, b'{"latencyMs": 5, "fail": true, "failEvery": 2}') == \
            (200, {"latencyMs": 5, "fail": True, "failEvery": 2})
        assert post_control(url, b"") == (200, {"latencyMs": 5, "fail": True, "failEvery": 2})
    finally:
        assert post_control(url, b'{"latencyMs": 0, "fail": false, "failEvery": 0}')[0] == 200
    import urllib.error
    import urllib.request
    with urllib.request.urlopen(url + "/health", timeout=WAIT) as health:
        assert json.load(health) == {"ok": True}
    for path in ("/movie/%D9%A3", "/search/movie?query=dune&page=%D9%A3", "/movie/%C2%B2"):
        try:
            urllib.request.urlopen(url + path, timeout=WAIT)
        except urllib.error.HTTPError as refused:
            assert refused.code in (400, 404)
    assert "Traceback" not in stderr()
