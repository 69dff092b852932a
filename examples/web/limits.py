"""Bounds on what one client can hold (README.md, "Bounds"): the intent rate of a session, the
connections the server keeps open (a cap below the file limit, a share per address), read
timeouts on requests, and a log that says each kind of trouble in one line, at most every few
seconds, instead of a traceback per connection."""

from __future__ import annotations

import asyncio
import logging
import resource
import time
from typing import Any, Dict, Optional

from aiohttp import web

log = logging.getLogger("cinematic-web")
RATE, BURST = 40.0, 80        # intents per second per session, and the burst allowed
MAX_STRIKES = 200             # refused messages in a row before the socket is closed
FDS_PER_SESSION = 4           # a live session's files besides its socket: eventfd, favorites db, -wal, -shm
FDS_RESERVED = 64             # the process's own: catalog, records, logs, the loop, the library's threads
REFUSED = (b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\n"
           b"X-Content-Type-Options: nosniff\r\nRetry-After: 10\r\nConnection: close\r\nContent-Length: 45\r\n\r\n"
           b"too many connections at once; try again soon\n")


class Bucket:
    """A token bucket: `take()` is False past `rate` a second (after a burst of `burst`)."""

    def __init__(self, rate: float = RATE, burst: int = BURST) -> None:
        self.rate, self.burst, self.tokens, self.at = rate, burst, float(burst), time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens, self.at = min(self.burst, self.tokens + (now - self.at) * self.rate), now
        allowed = self.tokens >= 1
        self.tokens -= allowed
        return allowed


class OneLine:
    """Says a kind of trouble in one line (no traceback), at most once every `every` seconds per
    kind, with how many times it happened meanwhile. Also the `logger` aiohttp's protocol gets,
    so a malformed request or a reset connection is a line, not a traceback."""

    def __init__(self, every: float = 10.0) -> None:
        self.every, self.last, self.count = every, {}, {}   # type: Dict[str, float], Dict[str, int]

    def say(self, kind: str, text: str) -> None:
        """Logs `text` unless a line of this `kind` was logged less than `every` seconds ago."""
        if kind not in self.count and len(self.count) >= 256:   # (kinds come from messages: bounded)
            self.last.clear()
            self.count.clear()
        self.count[kind] = self.count.get(kind, 0) + 1
        now = time.monotonic()
        if now - self.last.get(kind, -self.every) >= self.every:
            more = self.count[kind] - 1
            log.warning("%s%s", text, f" (and {more} more like it in the last {self.every:.0f} s)" if more else "")
            self.last[kind], self.count[kind] = now, 0

    def _line(self, msg: str, *args: Any, exc_info: Any = None, **_: Any) -> None:
        text = (msg % args) if args else str(msg)
        problem = exc_info if isinstance(exc_info, BaseException) else None
        self.say(text.split(" from ")[0][:60], f"{text}: {type(problem).__name__}: {problem}" if problem else text)

    exception = error = warning = _line

    def debug(self, *args: Any, **kwargs: Any) -> None:
        pass

    info = debug

    def isEnabledFor(self, level: int) -> bool:   # noqa: N802 (logging.Logger's name)
        return level >= logging.WARNING

    def loop_exception(self, loop: asyncio.AbstractEventLoop, context: Dict[str, Any]) -> None:
        """The event loop's exception handler: one line per kind (accept() out of files, …)."""
        message = str(context.get("message", "event loop"))
        self.say(message[:60], f"{message}: {context.get('exception')!r}")


def connection_cap(wanted: int, max_sessions: int) -> int:
    """The most connections to keep open: `wanted`, but below the file limit (raised to the hard
    limit first) less what the sessions and the process need; SystemExit when that leaves too
    few for `max_sessions` sockets."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
            soft = hard
        except (ValueError, OSError):
            pass
    room = soft - FDS_RESERVED - FDS_PER_SESSION * max_sessions
    if room < max_sessions + 16:
        raise SystemExit(f"cinematic-web: the file limit ({soft}) leaves room for {max(room, 0)} connections, too few "
                         f"for --max-sessions {max_sessions} (needs {max_sessions + 16}): raise `ulimit -n` to at least "
                         f"{FDS_RESERVED + (FDS_PER_SESSION + 1) * max_sessions + 16} or lower --max-sessions")
    return min(wanted, room)


class CappedSite(web.TCPSite):
    """A TCPSite whose listener refuses (a 503 and close, before reading anything) connections
    past `cap` in all or past `per_address` from one address: the connection never reaches the
    HTTP protocol, so it costs a file for microseconds. Half-sent requests are closed by the
    protocol's own timers (the runner's keepalive_timeout and lingering_time: README.md)."""

    def __init__(self, runner: web.AppRunner, host: str, port: int, cap: int, per_address: int, say: OneLine) -> None:
        super().__init__(runner, host, port)
        self.cap, self.per_address, self.say = cap, per_address, say

    def _factory(self) -> asyncio.BaseProtocol:
        server = self._runner.server
        assert server is not None
        return Gate(self, server)

    def admits(self, peer: Optional[str]) -> bool:
        """True when one more connection (from `peer`) fits under the caps."""
        server = self._runner.server
        assert server is not None
        open_now = server._connections   # (RequestHandler -> transport)
        if len(open_now) >= self.cap:
            self.say.say("cap", f"refusing connections: {len(open_now)} open, the cap (--max-connections {self.cap})")
            return False
        if self.per_address and peer is not None:
            same = sum(1 for t in open_now.values() if (t.get_extra_info("peername") or ("",))[0] == peer)
            if same >= self.per_address:
                self.say.say("address", f"refusing connections from {peer}: {same} open, its share "
                                        f"(--max-connections-per-address {self.per_address})")
                return False
        return True

    async def start(self) -> None:
        await web.BaseSite.start(self)
        self._server = await asyncio.get_running_loop().create_server(
            self._factory, self._host, self._port, backlog=self._backlog, reuse_address=self._reuse_address)


class Gate(asyncio.Protocol):
    """One accepted connection: handed to aiohttp's protocol if the caps admit it, otherwise
    answered with a 503 and closed."""

    def __init__(self, site: CappedSite, server: Any) -> None:
        self.site, self.server = site, server
        self.inner: Optional[asyncio.Protocol] = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        peer = (transport.get_extra_info("peername") or (None,))[0]
        if not self.site.admits(peer):
            assert isinstance(transport, asyncio.Transport)
            transport.write(REFUSED)
            transport.close()
            return
        self.inner = self.server()
        assert self.inner is not None
        self.inner.connection_made(transport)

    def data_received(self, data: bytes) -> None:
        if self.inner is not None:
            self.inner.data_received(data)

    def eof_received(self) -> Optional[bool]:
        return self.inner.eof_received() if self.inner is not None else None

    def connection_lost(self, exc: Optional[Exception]) -> None:
        if self.inner is not None:
            self.inner.connection_lost(exc)

    def pause_writing(self) -> None:
        if self.inner is not None:
            self.inner.pause_writing()

    def resume_writing(self) -> None:
        if self.inner is not None:
            self.inner.resume_writing()
