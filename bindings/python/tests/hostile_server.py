"""The hostile server of the HTTP provider's tests (test_http_provider_hostile.py,
test_http_provider_workers.py; the misbehaviours themselves are in hostile_scripts.py).

A raw TCP server on 127.0.0.1, in threads of this process, hands each connection to a script
that misbehaves in one way; ``Answers`` stands in for a runtime and validates every answer
against the schema. The ``hostile`` and ``providers`` fixtures are imported by the test
modules that use them. Waits are bounded waits on conditions (no sleep-and-hope).
"""

from __future__ import annotations

import json
import socket
import threading
import time
from typing import Any, Callable, Dict, Iterator, List, Tuple

import pytest

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
    """A page of search results holding ``movies`` (the movie API's shape)."""
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
    """A provider request for the first page of ``query``."""
    return {"op": "search", "query": query, "page": 1}


@pytest.fixture
def hostile() -> Iterator[Callable[[Script], HostileServer]]:
    """Starts a hostile server for a script; every one started is closed after the test."""
    servers: List[HostileServer] = []

    def start(script: Script) -> HostileServer:
        servers.append(HostileServer(script))
        return servers[-1]

    yield start
    for server in servers:
        server.close()


@pytest.fixture
def providers() -> Iterator[Callable[..., Tuple[HttpCatalogProvider, Answers]]]:
    """Makes providers for a URL (with options), each answering an ``Answers``; every one made is
    closed after the test."""
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
    """The error code of ``answer``, which must be an error."""
    assert "error" in answer, f"expected an error, got {str(answer)[:200]}"
    code: str = answer["error"]["code"]
    return code

