"""Hostile clients: every bad thing gets an error (a frame, a close code or an HTTP status),
the server keeps serving, and nobody ever sees another person's state."""

from __future__ import annotations

import json
import os

import aiohttp
import pytest

from conftest import Client, WebServer, results, type_query

SECRET_QUERY = "zardoz"   # the victim's query: must never reach the attacker


async def victim(web: WebServer) -> Client:
    """A person with a query and a favorite, connected."""
    client = Client(web)
    await client.page()
    await client.connect()
    state = await type_query(client, SECRET_QUERY)
    await client.send({"type": "opened", "movieId": results(state)[0]["id"]})
    await client.wait(lambda s: s["details"] and s["details"][-1]["detail"]["phase"] == "loaded")
    await client.send({"type": "detail", "intent": {"type": "favoriteToggled"}})
    await client.wait(lambda s: s["details"][-1]["isFavorite"] and not s["details"][-1]["isSaving"])
    return client


async def still_serves(client: Client, attacker: bool = True) -> None:
    """The session works after what was refused (and an attacker saw nothing of the victim's)."""
    await client.send({"type": "queryChanged", "query": "heat"})
    await client.wait(lambda s: s["search"]["results"].get("query") == "heat" and results(s))
    assert not attacker or not any(SECRET_QUERY in frame.lower() for frame in client.frames)


@pytest.mark.parametrize("frame, code", [
    ("{not json", "json"),
    ("", "json"),
    ("[1, 2]", "invalid"),
    ('{"type": "searchResult", "intent": {}}', "invalid"),        # internal intents are the core's
    ('{"type": "queryChanged"}', "invalid"),                     # the library's own check
    ('{"type": "opened", "movieId": "x"}', "invalid"),
    ('{"type": "tabSelected", "tab": "admin"}', "invalid"),
    ('{"type": "search", "intent": {"type": "queryChanged", "query": 5}}', "invalid"),
    ('{"type": "queryChanged", "query": "\\ud800"}', "invalid"),   # a lone surrogate
    ("[" * 4000, "json"),                                         # deeper than Python's recursion
    ('{"type": "opened", "movieId": 1e999}', "invalid"),           # infinity
    ('{"type": "moved", "list": "search", "selection": -1, "firstVisible": 0}', "invalid"),
    ('{"type": "resized", "rows": 100000}', "invalid"),            # the app's own bounds
])
async def test_bad_frames_get_errors(web: WebServer, frame: str, code: str) -> None:
    person, attacker = await victim(web), Client(web)
    try:
        await attacker.page()
        await attacker.connect()
        await attacker.send(frame)
        assert (await attacker.wait_error())["code"] == code
        await still_serves(attacker)
    finally:
        await person.close()
        await attacker.close()


async def test_binary_frames_are_refused(web: WebServer) -> None:
    client = Client(web)
    try:
        await client.page()
        await client.connect()
        assert client.ws is not None
        await client.ws.send_bytes(b'{"type": "back"}')
        assert (await client.wait_error())["code"] == "invalid"
        await still_serves(client)
    finally:
        await client.close()


async def test_huge_frame_closes_the_socket_and_changes_nothing(web: WebServer) -> None:
    client = Client(web)
    try:
        await client.page()
        await client.connect()
        await client.send({"type": "queryChanged", "query": "x" * 1_000_000})
        assert await client.closed() == aiohttp.WSCloseCode.MESSAGE_TOO_BIG
        await client.connect()
        assert client.state["search"]["query"] == ""
        await still_serves(client)
    finally:
        await client.close()


@pytest.mark.parametrize("cookie", [None, "forged", "A" * 43 + "." + "0" * 32])
async def test_a_socket_without_a_true_session_is_refused(web: WebServer, cookie) -> None:
    person, attacker = await victim(web), Client(web)
    try:
        if cookie:
            attacker.http.cookie_jar.update_cookies({"cinematic_session": cookie}, aiohttp.client.URL(web.url))
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await attacker.connect()
        assert refused.value.status == 403
        # the page replaces a forged cookie with a new session of its own
        await attacker.page()
        await attacker.connect()
        assert attacker.state["search"]["query"] == "" and attacker.state["details"] == []
        await still_serves(attacker)
    finally:
        await person.close()
        await attacker.close()


@pytest.mark.parametrize("origin", ["http://evil.example", "null", "http://127.0.0.1:1"])
async def test_cross_origin_sockets_are_refused(web: WebServer, origin: str) -> None:
    """A page elsewhere would send the person's own cookie (SameSite aside): Origin decides."""
    person = await victim(web)
    try:
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await person.http.ws_connect(web.url + "ws", headers={"Origin": origin})
        assert refused.value.status == 403
    finally:
        await person.close()


async def test_no_origin_is_refused(web: WebServer) -> None:
    client = Client(web)
    try:
        await client.page()
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await client.http.ws_connect(web.url + "ws")   # aiohttp sends no Origin unless told
        assert refused.value.status == 403
    finally:
        await client.close()


async def test_a_flood_is_limited_then_closed_and_others_are_served(web: WebServer) -> None:
    person, flooder = await victim(web), Client(web)
    try:
        await flooder.page()
        await flooder.connect()
        assert flooder.ws is not None
        for i in range(3000):
            try:
                await flooder.ws.send_str(json.dumps({"type": "queryChanged", "query": f"q{i}"}))
            except ConnectionError:
                break
        assert await flooder.closed(timeout=30) == aiohttp.WSCloseCode.POLICY_VIOLATION
        assert any(error["code"] == "rate" for error in flooder.errors)
        assert not any(SECRET_QUERY in frame.lower() for frame in flooder.frames)
        await still_serves(person, attacker=False)
        await flooder.connect()                      # the flooder's session itself survives
        await still_serves(flooder)
    finally:
        await person.close()
        await flooder.close()


@pytest.mark.parametrize("kind", ["garbage", "empty", "fifo", "symlink"])
def test_a_key_file_not_ours_stops_the_server_with_a_message(tmp_path, kind: str) -> None:
    """The signing key is read only if it is what the server writes: no hang on a FIFO, no
    following a symlink, no signing with a damaged key."""
    data = tmp_path / "data"
    data.mkdir()
    key = data / "secret"
    if kind == "garbage":
        key.write_text("not hex at all")
    elif kind == "empty":
        key.write_text("")
    elif kind == "fifo":
        os.mkfifo(key)
    else:
        (tmp_path / "elsewhere").write_text("ab" * 32)
        key.symlink_to(tmp_path / "elsewhere")
    server = WebServer(data)
    with pytest.raises((AssertionError, OSError)):
        server.start()
    server.kill()
    assert server.process is not None and server.process.wait(10) != 0
    log = (tmp_path / "server.log").read_text()
    assert "is not a key this server made" in log or "Too many levels of symbolic links" in log, log[-500:]
