"""One HTTP/1.1 exchange with the movie API: one deadline for all of it, a size limit, a
cancel switch (:class:`Exchange`), and the reading of its response (:func:`read_response`)."""

from __future__ import annotations

import errno
import math
import os
import re
import select
import socket
import threading
import time
from typing import Any, Callable, Dict, List, Optional, Tuple

from ._http_json import Failure

__all__ = ["Exchange", "Cancelled", "read_response", "DEFAULT_MAX_BODY", "MAX_HEADER_BYTES"]

#: The default maximum size of a response body, in bytes (8 MiB).
DEFAULT_MAX_BODY = 8 * 1024 * 1024
#: The maximum size of a response's status line and headers together, in bytes (64 KiB).
MAX_HEADER_BYTES = 64 * 1024
_READ = 65536


class Cancelled(Exception):
    """The exchange was cancelled (or the provider closed): nobody wants its answer."""



class Exchange:
    """One HTTP/1.1 exchange over a non-blocking socket. Every wait is a ``poll`` on the socket
    and a wake-up socket, bounded by the exchange's deadline; :meth:`cancel` (any thread)
    wakes it and makes it raise :class:`Cancelled`."""

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
                raise Cancelled()
            left = self.deadline - time.monotonic()
            if left <= 0:
                raise Failure("timeout", f"no complete answer within {self.timeout:g} s")
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
        raise Failure("network", f"cannot connect to {failure}")

    def send(self, data: bytes) -> None:
        """Sends all of ``data`` (within the deadline)."""
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
                raise Failure("network", f"the connection closed in the middle of the {what}")
        raise Failure("invalidResponse", f"the {what} is longer than {limit} bytes")

    def exactly(self, count: int, what: str) -> bytes:
        """The next ``count`` bytes (of the ``what`` the messages name)."""
        while len(self._buffer) < count:
            if not self._fill():
                raise Failure("network", f"the connection closed after {len(self._buffer)} of the {count} bytes of the {what}")
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


def _too_large(limit: int) -> Failure:
    return Failure("invalidResponse", f"the body is larger than the maximum of {limit / 1048576:g} MiB")


_STATUS_LINE = re.compile(rb"HTTP/1\.[01] ([0-9]{3})(?: [^\r\n]*)?")
_HEADER = re.compile(rb"([!#$%&'*+.^_`|~0-9A-Za-z-]+):[ \t]*(.*?)[ \t]*")
_DIGITS = re.compile(rb"[0-9]{1,19}")
_CHUNK_SIZE = re.compile(rb"([0-9A-Fa-f]{1,16})[ \t]*(?:;.*)?")
_MAX_HEADERS = 100


def read_response(exchange: Exchange) -> Tuple[int, Callable[[], bytes]]:
    """Reads the status line and the headers; returns the status and a function that reads
    the body (called only when the body is wanted)."""
    budget = MAX_HEADER_BYTES
    status_line = exchange.line(budget, "status line")
    match = _STATUS_LINE.fullmatch(status_line)
    if match is None:
        raise Failure("invalidResponse", f"bad status line {status_line[:60]!r}")
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
            raise Failure("invalidResponse", f"bad header line {line[:60]!r}")
        headers.setdefault(header.group(1).lower(), []).append(header.group(2))
    else:
        raise Failure("invalidResponse", f"more than {_MAX_HEADERS} headers")

    codings = [c.strip().lower() for v in headers.get(b"transfer-encoding", []) for c in v.split(b",") if c.strip()]
    lengths = set(headers.get(b"content-length", []))
    if codings:
        if codings != [b"chunked"]:
            raise Failure("invalidResponse", f"unsupported Transfer-Encoding {b', '.join(codings)[:60]!r}")
        return status, lambda: _read_chunked(exchange)
    if lengths:
        if len(lengths) > 1 or _DIGITS.fullmatch(next(iter(lengths))) is None:
            raise Failure("invalidResponse", f"bad Content-Length {b', '.join(sorted(lengths))[:60]!r}")
        length = int(next(iter(lengths)))
        if length > exchange.max_body:
            limit = exchange.max_body
            return status, lambda: _raise(Failure("invalidResponse", f"Content-Length {length} is over the maximum "
                                                                      f"body size ({limit / 1048576:g} MiB)"))
        return status, lambda: exchange.exactly(length, "body")
    return status, exchange.rest


def _raise(failure: Failure) -> bytes:
    raise failure


def _read_chunked(exchange: Exchange) -> bytes:
    body = bytearray()
    while True:
        line = exchange.line(1024, "chunk size line")
        match = _CHUNK_SIZE.fullmatch(line)
        if match is None:
            raise Failure("invalidResponse", f"bad chunk size line {line[:60]!r}")
        size = int(match.group(1), 16)
        if size == 0:
            break
        if len(body) + size > exchange.max_body:
            raise _too_large(exchange.max_body)
        body += exchange.exactly(size, "chunk")
        if exchange.exactly(2, "chunk") != b"\r\n":
            raise Failure("invalidResponse", "a chunk is longer than its size")
    for _ in range(_MAX_HEADERS + 1):   # trailers
        if not exchange.line(MAX_HEADER_BYTES, "trailers"):
            return bytes(body)
    raise Failure("invalidResponse", f"more than {_MAX_HEADERS} trailers")
