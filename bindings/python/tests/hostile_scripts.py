"""The misbehaviours the HTTP provider's tests serve (test_http_provider_hostile.py,
test_http_provider_workers.py) through the hostile server (hostile_server.py): endless bodies
past the maximum size, and answers of the wrong shape (``INVALID``: they answer
invalidResponse) or cut short (``NETWORK``: they answer network).
"""

from __future__ import annotations

import json
import socket
from typing import Dict

from hostile_server import DUNE, MIB, Connection, Script, page, response


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
    """``data`` as one chunk of a chunked body."""
    return b"%x\r\n" % len(data) + data + b"\r\n"


ENDLESS_CHUNKS = endless(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" + chunk(b'{"results": ['),
                         chunk((json.dumps(DUNE) + ", ").encode() * 512))


# --- The shape of the answer -------------------------------------------------------------

def closes_after(data: bytes) -> Script:
    """A script that sends ``data`` and hangs up."""
    return lambda conn: conn.send(data) and None


def chunked(*parts: bytes) -> bytes:
    """A chunked response's head followed by ``parts`` (chunks, or not)."""
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
