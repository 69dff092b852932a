"""The HTTP provider (cinematic.http_provider) against a hostile server: time and workers.

One deadline bounds each exchange however the server drips it; slow requests do not pin every
worker; cancelling a fetch in flight (or closing the provider) frees its worker at once; an
unexpected exception is an error answer, and a worker that dies anyway is replaced, its
request answered; every kind of failure through a real runtime leaves the provider serving.
The server and its misbehaviours are hostile_server.py and hostile_scripts.py.
"""

from __future__ import annotations

import threading
import time
from typing import Any, List

import cinematic.http_provider as http_provider
from cinematic.http_provider import HttpCatalogProvider

from hostile_scripts import DEEP
from hostile_server import (CODES, DUNE, WAIT, Connection, ask, error_of, hostile, page, providers,  # noqa: F401
                            response, search)


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

