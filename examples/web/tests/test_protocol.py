"""The web host's protocol with a real WebSocket client: what a browser does, checked on the
state it rebuilds from the deliveries (whole state, then RFC 6902 patches without gaps)."""

from __future__ import annotations

import asyncio
import json
import time

from yarl import URL

from conftest import Client, WebServer, results, type_query


async def open_alien_detail(client: Client) -> int:
    """Types "alien", pages once, opens the third film, hearts it; returns its id."""
    state = await type_query(client, "alien")
    first_page = len(results(state))
    assert first_page == 20 and not state["search"]["isExhausted"]
    await client.send({"type": "moved", "list": "search", "selection": first_page, "firstVisible": 10})
    state = await client.wait(lambda s: len(results(s)) > first_page and not s["search"]["isLoadingMore"])
    movie = results(state)[2]
    await client.send({"type": "opened", "movieId": movie["id"]})
    await client.wait(lambda s: s["details"] and s["details"][-1]["detail"]["phase"] == "loaded")
    await client.send({"type": "detail", "intent": {"type": "favoriteToggled"}})
    await client.wait(lambda s: s["details"][-1]["isFavorite"] and not s["details"][-1]["isSaving"])
    return int(movie["id"])


def place(state: dict) -> dict:
    """What "the same place" means: tab, query, pages, open films, positions."""
    return {"tab": state["tab"], "query": state["search"]["query"],
            "pages": state["search"]["pagesLoaded"], "details": [d["movieId"] for d in state["details"]],
            "positions": state["positions"]}


async def test_typing_key_by_key_patches_only_search(web: WebServer) -> None:
    client = Client(web)
    try:
        assert (await client.page()).status == 200
        await client.connect()
        assert client.state["tab"] == "search" and client.state["search"]["query"] == ""
        await client.wait(lambda s: s["favorites"]["favorites"]["phase"] == "loaded")
        mark = len(client.frames)
        state = await type_query(client, "alien")
        assert results(state)[0]["title"].lower().startswith("alien")
        paths = [op["path"] for frame in client.frames[mark:] for op in json.loads(frame)["patch"]]
        assert paths and all(p.startswith(("/search/", "/view/")) for p in paths), paths   # (the view: what Search shows)
    finally:
        await client.close()


async def test_page_open_heart_back(web: WebServer) -> None:
    client = Client(web)
    try:
        await client.page()
        await client.connect()
        movie_id = await open_alien_detail(client)
        assert client.state["search"]["pagesLoaded"] == 2
        await client.send({"type": "back"})
        await client.wait(lambda s: s["details"] == [])
        await client.send({"type": "tabSelected", "tab": "favorites"})
        state = await client.wait(lambda s: s["tab"] == "favorites" and s["favorites"]["favorites"]["phase"] == "loaded"
                                  and [m["id"] for m in s["favorites"]["favorites"]["value"]] == [movie_id])
        assert state["search"]["query"] == "alien"
    finally:
        await client.close()


async def test_reconnect_and_reload_are_the_same_place(web: WebServer) -> None:
    client = Client(web)
    try:
        await client.page()
        await client.connect()
        await open_alien_detail(client)
        before = place(client.state)
        await client.disconnect()
        reload = await client.page()                 # a reload keeps the cookie it has
        assert reload.status == 200 and "Set-Cookie" not in reload.headers
        await client.connect()
        assert place(client.state) == before
    finally:
        await client.close()


async def test_killed_server_restarted_is_the_same_place(start) -> None:
    server = start()
    client = Client(server)
    try:
        await client.page()
        await client.connect()
        movie_id = await open_alien_detail(client)
        before = place(client.state)
        server.kill()
        await client.disconnect()
        server.start()                               # same data folder, same port
        await client.connect()
        state = await client.wait(lambda s: s["search"]["pagesLoaded"] == 2 and s["details"][-1]["detail"]["phase"] == "loaded")
        assert place(state) == before
        assert state["details"][-1]["isFavorite"] and state["details"][-1]["movieId"] == movie_id
    finally:
        await client.close()


async def test_the_cookie_is_http_only_and_same_site(web: WebServer) -> None:
    client = Client(web)
    try:
        async with client.http.get(web.url) as response:
            cookie = response.headers["Set-Cookie"]
        assert cookie.startswith("cinematic_session=") and "HttpOnly" in cookie and "SameSite=Strict" in cookie
        token = cookie.split("=", 1)[1].split(";")[0].split(".")[0]
        assert len(token) == 43                      # 256 random bits, base64url
    finally:
        await client.close()


async def test_a_second_tab_takes_the_session_over(web: WebServer) -> None:
    first, second = Client(web), Client(web)
    try:
        await first.page()
        second.http.cookie_jar.update_cookies(first.http.cookie_jar.filter_cookies(URL(web.url)))
        await first.connect()
        await type_query(first, "heat")
        await second.connect()                       # the same browser, another tab
        assert second.state["search"]["query"] == "heat"
        assert await first.closed() == 4001
        await second.send({"type": "queryChanged", "query": "dune"})
        await second.wait(lambda s: s["search"]["query"] == "dune")
    finally:
        await first.close()
        await second.close()


async def test_sessions_are_apart(web: WebServer) -> None:
    alice, bob = Client(web), Client(web)
    try:
        await alice.page()
        await bob.page()
        assert alice.http.cookie_jar.filter_cookies(URL(web.url)) != bob.http.cookie_jar.filter_cookies(URL(web.url))
        await alice.connect()
        await bob.connect()
        movie_id = await open_alien_detail(alice)
        await bob.send({"type": "tabSelected", "tab": "favorites"})
        state = await bob.wait(lambda s: s["tab"] == "favorites" and s["favorites"]["favorites"]["phase"] == "loaded")
        assert state["favorites"]["favorites"]["value"] == [] and state["search"]["query"] == ""
        assert not any(str(movie_id) in frame or "alien" in frame for frame in bob.frames)
    finally:
        await alice.close()
        await bob.close()


async def test_idle_session_is_saved_closed_and_resumed(start) -> None:
    server = start("--idle", "2")
    client = Client(server)
    try:
        await client.page()
        await client.connect()
        await client.send({"type": "queryChanged", "query": "dune"})
        await client.wait(lambda s: s["search"]["query"] == "dune")
        assert await client.closed() == 4408       # no intent for 2 s: saved and closed
        await client.connect()
        await client.wait(lambda s: s["search"]["results"].get("query") == "dune" and results(s))
    finally:
        await client.close()


async def test_past_the_maximum_a_clear_page(start) -> None:
    server = start("--max-sessions", "1")
    first, second = Client(server), Client(server)
    try:
        await first.page()
        await first.connect()
        async with second.http.get(server.url) as response:
            assert response.status == 503 and "Too many people at once" in await response.text()
        # the cookie it got is good later: the socket is refused only for want of room
        try:
            await second.connect()
            raise AssertionError("a socket past the maximum was accepted")
        except Exception as refused:
            assert "503" in str(refused)
        await first.disconnect()                     # a session without socket makes room
        deadline = time.monotonic() + 10             # (once the server saw the close)
        while (await second.page()).status != 200:
            assert time.monotonic() < deadline, "no room after the first socket closed"
            await asyncio.sleep(0.05)
        await second.connect()
    finally:
        await first.close()
        await second.close()


async def test_a_list_keeps_at_most_2000_rows_on_every_path(web: WebServer) -> None:
    """The bound on a session's memory is the core's (the runtime's app.rowsPerList, 2000
    here): no path past it is refused by the server, and none loads more."""
    client = Client(web)
    try:
        await client.page()
        await client.connect()
        await client.send({"type": "tabSelected", "tab": "discover"})
        await client.wait(lambda s: s["view"]["list"] and s["view"]["list"]["status"] == "20 shown, more match")
        for _ in range(120):                                       # one page per loadMore, each waited for
            if not client.state["view"]["actions"]["loadMore"]:
                break
            count = client.state["view"]["list"]["count"]
            await asyncio.sleep(1 / 30)                            # under the server's 40 intents a second
            await client.send({"type": "loadMore"})
            await client.wait(lambda s: s["view"]["list"]["count"] > count and s["view"]["actions"]["loadMore"]
                              or s["view"]["list"]["count"] >= 2000)
        view = (await client.wait(lambda s: s["view"]["list"]["count"] == 2000))["view"]
        assert view["list"]["status"] == "2,000 shown, the most a list keeps" and not view["actions"]["loadMore"]
        for intent in ({"type": "moved", "list": "popular", "selection": 99999999, "firstVisible": 0},
                       {"type": "discover", "intent": {"type": "loadMore", "section": "popular"}},
                       {"type": "loadMore"}, {"type": "moveToEnd"}, {"type": "moveBy", "delta": 1}):
            await client.send(intent)
        await client.send({"type": "sortNext"})                    # a change to wait on, after them
        state = await client.wait(lambda s: s["view"]["sort"] == "title")
        discover = state["discover"]["sections"][0]
        assert discover["section"] == "popular" and len(discover["movies"]["value"]) == 2000
        assert discover["pagesLoaded"] == 100 and not discover["isLoadingMore"] and not client.errors
    finally:
        await client.close()
