"""The example catalog server's /_control (examples/catalog-server): bad input is refused with
400 (or 413) and changes nothing, a bad Content-Length too, and good input is applied; the
server never writes a traceback.
"""

from __future__ import annotations

import json
from typing import Any, Callable, Dict, Iterator, Optional, Tuple

import pytest

from hostile_server import WAIT


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