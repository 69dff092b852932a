"""The movie app in a browser: one app store per browser session, its patched deliveries
sent over a WebSocket untouched, intents sent back (README.md). The app's logic is the core's:
this file only keeps sessions apart, bounds what a client may do, and saves snapshots
(sessions.py), with limits.py's caps and timeouts and storage.py's data folder.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import hashlib
import hmac
import json
import logging
import re
import secrets
import time
from pathlib import Path
from typing import Optional

from aiohttp import WSMsgType, web

import cinematic
import storage
from limits import MAX_STRIKES, RATE, CappedSite, OneLine, connection_cap
from records import session_key
from sessions import Hub, Session, error

HERE = Path(__file__).resolve().parent
STATIC = HERE / "static"
COOKIE = "cinematic_session"
MAX_MESSAGE = 4096            # bytes per intent frame (a query is at most 1024 UTF-8 bytes)
MAX_FRAME = 65536             # bytes aiohttp reads of one frame: past MAX_MESSAGE a refusal, past this close 1009
MAX_QUEUED = 256              # deliveries waiting for a slow reader before its socket closes
#: The URLs of the page: the root and each screen's (static/urls.js); the page reads the rest.
PAGE_PATHS = ("/", "/search", "/favorites", r"/film/{id:\d{1,15}}", r"/discover/{section:[A-Za-z]{1,40}}")
ASSET = re.compile(r"^[A-Za-z0-9_-]+\.(js|css|svg|png|ico|woff2)$")   # what /static/ serves: no pages
HEADERS = {"X-Content-Type-Options": "nosniff",
           "Content-Security-Policy": "default-src 'self'; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'"}
log = logging.getLogger("cinematic-web")


class Request(web.Request):
    """Every response, a refusal of a malformed request included, carries HEADERS."""

    async def _prepare_hook(self, response: web.StreamResponse) -> None:
        for name, value in HEADERS.items():
            response.headers.setdefault(name, value)
        await super()._prepare_hook(response)


class Server:
    """The HTTP routes: the page, its scripts and the socket."""

    def __init__(self, hub: Hub, secret: bytes, origins: set, say: OneLine) -> None:
        self.hub, self.secret, self.origins, self.say = hub, secret, origins, say

    def sign(self, token: str) -> str:
        """The token's signature (HMAC-SHA-256 with the server's key, 128 bits shown)."""
        return hmac.new(self.secret, token.encode(), hashlib.sha256).hexdigest()[:32]

    def session_of(self, request: web.Request) -> Optional[str]:
        """The session key of the request's cookie, None when it has none or a forged one."""
        value = request.cookies.get(COOKIE, "")
        token, _, mac = value.partition(".")
        if len(token) != 43 or not hmac.compare_digest(mac, self.sign(token)):
            return None
        return session_key(value)

    async def page(self, request: web.Request) -> web.Response:
        """The page, with a new signed session cookie unless it has one; 503 when full."""
        key, cookie = self.session_of(request), None
        if key is None:
            token = secrets.token_urlsafe(32)
            cookie = f"{token}.{self.sign(token)}"
            key = session_key(cookie)
        if not self.hub.has_room(key):
            response = web.Response(status=503, content_type="text/html", headers={"Retry-After": "60"},
                                    text=(STATIC / "full.html").read_text())
        else:
            response = web.FileResponse(STATIC / "index.html")
        if cookie:
            response.set_cookie(COOKIE, cookie, httponly=True, samesite="Strict", max_age=90 * 86400, path="/")
        response.headers["Cache-Control"] = "no-store"
        return response

    async def asset(self, request: web.Request) -> web.StreamResponse:
        """A script or style of the page; the page itself only at / (under its CSP)."""
        name = request.match_info["name"]
        if name == "index.html":
            raise web.HTTPMovedPermanently("/")
        if not ASSET.match(name) or not (STATIC / name).is_file():
            raise web.HTTPNotFound(text="not here")
        return web.FileResponse(STATIC / name)

    async def socket(self, request: web.Request) -> web.StreamResponse:
        """The session's socket: its deliveries out, intents in (403 cross-origin or unsigned).
        One per session: the newest claims the session before its first await, so of sockets
        opened at once exactly one stays, and the others are closed with 4001."""
        key = self.session_of(request)
        if request.headers.get("Origin") not in self.origins or key is None:
            return web.Response(status=403, text="refused: a socket needs this site's page and its session cookie")
        try:
            session = self.hub.open(key)
        except Exception as problem:   # noqa: BLE001 (whatever failed: a line and a clear 503, never a 500)
            self.say.say("open", f"a session could not be opened: {type(problem).__name__}: {problem}")
            return web.Response(status=503, text="your session cannot be opened right now; try again in a minute")
        if session is None:
            return web.Response(status=503, text="too many people at once; try again in a minute")
        ws = web.WebSocketResponse(max_msg_size=MAX_FRAME, heartbeat=30)
        previous, session.socket, session.outbox = session.socket, ws, None
        session.last_seen = time.monotonic()
        if previous is not None:         # the same browser in another tab: the newest wins
            asyncio.ensure_future(self.retire(previous))
        queue: asyncio.Queue = asyncio.Queue(MAX_QUEUED)

        def post(text: str) -> None:
            try:
                queue.put_nowait(text)
            except asyncio.QueueFull:    # a client that does not read: it resyncs on reconnect
                asyncio.ensure_future(ws.close(code=1013, message=b"too slow: reconnect"))

        def delivered(text: str) -> None:
            self.hub.save(session)       # before the client sees it: what it sees is saved
            post(text)
            if session.outbox is None and session.socket is ws:   # after the whole state: the notices
                session.outbox = post
                for code, message in session.notices.items():
                    post(error(code, message))

        async def write() -> None:
            with contextlib.suppress(ConnectionError, RuntimeError):   # the socket went away
                while True:
                    await ws.send_str(await queue.get())

        writer, unsubscribe = None, None
        try:
            await ws.prepare(request)
            if session.socket is not ws:   # a newer socket claimed the session meanwhile
                await ws.close(code=4001, message=b"opened in another tab")
                return ws
            writer = asyncio.ensure_future(write())
            unsubscribe = session.app.subscribe_deliveries(delivered)   # (the whole state, seq 1, first)
            await self.receive(session, ws)
        finally:
            if unsubscribe is not None:
                unsubscribe()
            if writer is not None:
                writer.cancel()
            if session.socket is ws:
                session.socket, session.outbox, session.last_seen = None, None, time.monotonic()
        return ws

    @staticmethod
    async def retire(ws: web.WebSocketResponse) -> None:
        """Closes a socket another took over (one still preparing closes itself when ready)."""
        with contextlib.suppress(RuntimeError, ConnectionError):
            await ws.close(code=4001, message=b"opened in another tab")

    async def receive(self, session: Session, ws: web.WebSocketResponse) -> None:
        """Reads intents until the socket ends, refusing floods and what is not an intent. The
        rate bucket and the strikes are the session's: a new socket does not reset them."""
        async for message in ws:   # (errors and closes end the loop)
            if session.socket is not ws:
                break
            session.last_seen = time.monotonic()
            if message.type == WSMsgType.ERROR:   # e.g. a frame over MAX_FRAME: aiohttp closed with 1009
                break
            if not session.bucket.take():
                refusal: Optional[str] = error("rate", f"too many messages: at most {RATE:.0f} a second")
            elif message.type != WSMsgType.TEXT:
                refusal = error("invalid", "intents are text frames")
            elif len(message.data) > MAX_MESSAGE // 4 and (size := len(message.data.encode("utf-8", "replace"))) > MAX_MESSAGE:
                refusal = error("size", f"a message holds at most {MAX_MESSAGE:,} bytes; this one had {size:,}")
            else:
                refusal = self.apply(session, message.data)
            session.strikes = session.strikes + 1 if refusal else 0
            if refusal:
                await ws.send_str(refusal)
            if session.strikes >= MAX_STRIKES:
                session.strikes = 0
                await ws.close(code=1008, message=b"too many refused messages")

    def apply(self, session: Session, text: str) -> Optional[str]:
        """Sends one intent to the session's app; the refusal to send back, or None."""
        try:
            intent = json.loads(text)
        except (ValueError, RecursionError) as problem:   # (Python's parser recurses per level)
            return error("json", f"not JSON: {problem}")
        if not isinstance(intent, dict) or intent.get("type") not in cinematic.AppStore.INTENTS:
            return error("invalid", "not an app intent: {\"type\": ...} (docs/wire.md, app)")
        try:
            session.app.send(text)
        except cinematic.CinematicError as problem:
            return error("invalid", str(problem))
        session.hold_saves = False
        return None


def main(argv: Optional[list] = None) -> None:
    """Starts the server and prints its URL (a line the tests wait for)."""
    parser = argparse.ArgumentParser(prog="cinematic-web")
    parser.add_argument("--host", default="127.0.0.1", help="interface (default: loopback only)")
    parser.add_argument("--port", type=int, default=8035, help="0: any free port")
    parser.add_argument("--data", default="build/web", help="sessions.sqlite, favorites/, secret")
    parser.add_argument("--max-sessions", type=int, default=200, help="live sessions at once")
    parser.add_argument("--idle", type=float, default=600.0, help="seconds before an idle session closes")
    parser.add_argument("--max-connections", type=int, default=1000,
                        help="open connections at once (lowered to fit the file limit)")
    parser.add_argument("--max-connections-per-address", type=int, default=0,
                        help="open connections from one address (0: half of --max-connections; behind a proxy, "
                             "set it to --max-connections)")
    parser.add_argument("--header-timeout", type=float, default=10.0,
                        help="seconds a connection has to send a request's headers (and to stay idle between requests)")
    parser.add_argument("--body-timeout", type=float, default=10.0,
                        help="seconds a request body is read (and drained when unused) before the connection closes")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(name)s: %(message)s")
    data = Path(args.data).resolve()   # (a symlink given here is the operator's; below it, none is followed)
    storage.prepare(data)
    cap = connection_cap(args.max_connections, args.max_sessions)
    say = OneLine()
    records = storage.open_records(data)
    hub = Hub(records, data, args.max_sessions, args.idle)

    async def serve() -> None:
        asyncio.get_running_loop().set_exception_handler(say.loop_exception)
        app = web.Application(client_max_size=MAX_FRAME)
        runner = web.AppRunner(app, access_log=None, logger=say, keepalive_timeout=args.header_timeout,
                               lingering_time=args.body_timeout)
        origins: set = set()
        server = Server(hub, storage.secret_of(data), origins, say)
        for path in PAGE_PATHS:             # every screen's URL is the page (static/urls.js)
            app.router.add_get(path, server.page)
        app.router.add_get("/static/{name}", server.asset)
        app.router.add_get("/ws", server.socket)
        await runner.setup()
        assert runner.server is not None
        runner.server.request_factory = functools.partial(app._make_request, _cls=Request)
        site = CappedSite(runner, args.host, args.port, cap, args.max_connections_per_address or max(1, cap // 2), say)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        origins.update({f"http://{args.host}:{port}", f"http://localhost:{port}"})
        print(f"Cinematic web: http://{args.host}:{port}/", flush=True)
        sweeper = asyncio.ensure_future(hub.sweep())
        try:
            await asyncio.Event().wait()
        finally:
            sweeper.cancel()
            for session in list(hub.live.values()):
                hub.close(session)
            await runner.cleanup()

    try:
        asyncio.run(serve())
    except KeyboardInterrupt:
        pass
    finally:
        records.close()


if __name__ == "__main__":
    main()
