"""The HTTP provider (cinematic.http_provider) against a hostile server (issue 26, item 5):
the size of the answer and its shape.

A raw TCP server on 127.0.0.1 (hostile_server.py) answers each connection with a script that
misbehaves in one way (hostile_scripts.py): an endless body, a huge Content-Length, a cut in
the headers, a bad status line, JSON of the wrong shape or type, 100k-deep JSON, 1e400, bytes
that are not UTF-8, broken chunked encoding, a reset. For each the provider must answer the
request with a typed error (``network``, ``timeout`` or ``invalidResponse``) within its
deadline, keep all its workers, and read no more than its maximum body size. Time (deadlines,
cancellation) and workers that die are in test_http_provider_workers.py.

Waits are bounded waits on conditions (no sleep-and-hope). ``STRESS_SECONDS`` (default 1.5)
sets how long :func:`test_hostile_stress_mixed_load` cycles through every misbehaviour;
``make stress`` runs it for its STRESS_SECONDS.
"""

from __future__ import annotations

import json
import os
import socket
import time
from typing import List

import pytest

import cinematic.http_provider as http_provider

from hostile_scripts import ENDLESS_CHUNKS, ENDLESS_JSON, INVALID, NETWORK, chunk, chunked
from hostile_server import (DUNE, DUNE_DETAIL, MIB, WAIT, Connection, Script, ask, error_of, hostile, page,  # noqa: F401
                            providers, response, search)


# --- Sizes ------------------------------------------------------------------------------

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


# --- The shape of the answer -------------------------------------------------------------

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

