"""The movie app in a browser: one app store per browser session, its patched deliveries
sent over a WebSocket untouched, intents sent back (README.md). The app's logic is the core's:
this file only keeps sessions apart, bounds what a client may do, and saves snapshots.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import hashlib
import hmac
import json
import logging
import os
import secrets
import stat
import time
from pathlib import Path
from typing import Optional

from aiohttp import WSMsgType, web

import cinematic
from records import SQLiteRecords, session_key
from sessions import Hub, Session

HERE = Path(__file__).resolve().parent
COOKIE = "cinematic_session"
MAX_MESSAGE = 4096            # bytes per intent frame (a query is at most 1024 UTF-8 bytes)
RATE, BURST = 40.0, 80        # intents per second per socket, and the burst allowed
MAX_STRIKES = 200             # refused messages in a row before the socket is closed
MAX_QUEUED = 256              # deliveries waiting for a slow reader before its socket closes
MAX_ROW = 2000                # furthest row a list may be paged to: bounds a session's memory
log = logging.getLogger("cinematic-web")


class Bucket:
    """A token bucket: `take()` is False past `rate` a second (after a burst of `burst`)."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate, self.burst, self.tokens, self.at = rate, burst, float(burst), time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens, self.at = min(self.burst, self.tokens + (now - self.at) * self.rate), now
        allowed = self.tokens >= 1
        self.tokens -= allowed
        return allowed


def error(code: str, message: str) -> str:
    """The frame that tells a client what it sent was refused (the session is unchanged)."""
    return json.dumps({"error": {"code": code, "message": message}})


class Server:
    """The HTTP routes: the page and the socket (the script is a static file)."""

    def __init__(self, hub: Hub, secret: bytes, origins: set) -> None:
        self.hub, self.secret, self.origins = hub, secret, origins

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
                                    text=(HERE / "static" / "full.html").read_text())
        else:
            response = web.FileResponse(HERE / "static" / "index.html")
        if cookie:
            response.set_cookie(COOKIE, cookie, httponly=True, samesite="Strict", max_age=90 * 86400, path="/")
        response.headers["Cache-Control"] = "no-store"
        response.headers["Content-Security-Policy"] = "default-src 'self'; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'"
        return response

    async def socket(self, request: web.Request) -> web.StreamResponse:
        """The session's socket: its deliveries out, intents in (403 cross-origin or unsigned)."""
        key = self.session_of(request)
        if request.headers.get("Origin") not in self.origins or key is None:
            return web.Response(status=403, text="refused: a socket needs this site's page and its session cookie")
        session = self.hub.open(key)
        if session is None:
            return web.Response(status=503, text="too many people at once; try again in a minute")
        ws = web.WebSocketResponse(max_msg_size=MAX_MESSAGE, heartbeat=30)
        await ws.prepare(request)
        if session.socket is not None:   # the same browser in another tab: the newest wins
            await session.socket.close(code=4001, message=b"opened in another tab")
        session.socket, session.last_seen = ws, time.monotonic()
        queue: asyncio.Queue = asyncio.Queue(MAX_QUEUED)

        def delivered(text: str) -> None:
            try:
                self.hub.save(session)   # before the client sees it: what it sees is saved
            except cinematic.CinematicError as problem:
                log.warning("session %s…: not saved (%s)", key[:8], problem)
            try:
                queue.put_nowait(text)
            except asyncio.QueueFull:    # a client that does not read: it resyncs on reconnect
                asyncio.ensure_future(ws.close(code=1013, message=b"too slow: reconnect"))

        async def write() -> None:
            with contextlib.suppress(ConnectionError, RuntimeError):   # the socket went away
                while True:
                    await ws.send_str(await queue.get())

        writer = asyncio.ensure_future(write())
        unsubscribe = session.app.subscribe_deliveries(delivered)
        try:
            await self.receive(session, ws)
        finally:
            unsubscribe()
            writer.cancel()
            if session.socket is ws:
                session.socket, session.last_seen = None, time.monotonic()
        return ws

    async def receive(self, session: Session, ws: web.WebSocketResponse) -> None:
        """Reads intents until the socket ends, refusing floods and what is not an intent."""
        bucket, strikes = Bucket(RATE, BURST), 0
        async for message in ws:   # (errors and closes end the loop)
            session.last_seen = time.monotonic()
            if message.type == WSMsgType.ERROR:   # e.g. a frame over MAX_MESSAGE: aiohttp closed with 1009
                break
            if not bucket.take():
                refusal: Optional[str] = error("rate", f"too many messages: at most {RATE:.0f} a second")
            elif message.type != WSMsgType.TEXT:
                refusal = error("invalid", "intents are text frames")
            else:
                refusal = self.apply(session, message.data)
            strikes = strikes + 1 if refusal else 0
            if refusal:
                await ws.send_str(refusal)
            if strikes >= MAX_STRIKES:
                await ws.close(code=1008, message=b"too many refused messages")

    def apply(self, session: Session, text: str) -> Optional[str]:
        """Sends one intent to the session's app; the refusal to send back, or None."""
        try:
            intent = json.loads(text)
        except (ValueError, RecursionError) as problem:   # (Python's parser recurses per level)
            return error("json", f"not JSON: {problem}")
        if not isinstance(intent, dict) or intent.get("type") not in cinematic.AppStore.INTENTS:
            return error("invalid", "not an app intent: {\"type\": ...} (docs/wire.md, app)")
        if intent["type"] == "moved" and isinstance(intent.get("selection"), int) and intent["selection"] > MAX_ROW:
            return error("invalid", f"rows past {MAX_ROW} are not served here")
        try:
            session.app.send(text)
        except cinematic.CinematicError as problem:
            return error("invalid", str(problem))
        session.hold_saves = False
        return None


def secret_of(data: Path) -> bytes:
    """The key cookies are signed with: 32 random bytes in hex, made once (0600, written under a
    temporary name, then linked into place), and read back only if it is exactly that."""
    path, fresh = data / "secret", data / f"secret.{os.getpid()}.tmp"
    if not os.path.lexists(path):
        with os.fdopen(os.open(fresh, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600), "w") as out:
            out.write(secrets.token_hex(32))
        with contextlib.suppress(FileExistsError):
            os.link(fresh, path)
        os.unlink(fresh)
    try:
        with open(os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK), "rb") as key:
            text = key.read(65).decode("ascii", "replace") if stat.S_ISREG(os.fstat(key.fileno()).st_mode) else ""
    except OSError:   # a symlink, unreadable: not ours
        text = ""
    if len(text) != 64 or any(c not in "0123456789abcdef" for c in text):
        raise SystemExit(f"cinematic-web: {path} is not a key this server made (move it away to make a new one)")
    return bytes.fromhex(text)


def main(argv: Optional[list] = None) -> None:
    """Starts the server and prints its URL (a line the tests wait for)."""
    parser = argparse.ArgumentParser(prog="cinematic-web")
    parser.add_argument("--host", default="127.0.0.1", help="interface (default: loopback only)")
    parser.add_argument("--port", type=int, default=8035, help="0: any free port")
    parser.add_argument("--data", default="build/web", help="sessions.sqlite, favorites/, secret")
    parser.add_argument("--max-sessions", type=int, default=200, help="live sessions at once")
    parser.add_argument("--idle", type=float, default=600.0, help="seconds before an idle session closes")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(name)s: %(message)s")
    (data := Path(args.data)).mkdir(parents=True, exist_ok=True, mode=0o700)
    records = SQLiteRecords(str(data / "sessions.sqlite"))
    hub = Hub(records, data, args.max_sessions, args.idle)

    async def serve() -> None:
        app = web.Application()
        runner = web.AppRunner(app, access_log=None)
        origins: set = set()
        server = Server(hub, secret_of(data), origins)
        app.router.add_get("/", server.page)
        app.router.add_static("/static/", HERE / "static")
        app.router.add_get("/ws", server.socket)
        await runner.setup()
        site = web.TCPSite(runner, args.host, args.port)
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
