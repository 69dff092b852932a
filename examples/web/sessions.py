"""Live sessions: each its own runtime (favorites in its own file) and app store, at most
`max_live` at once; the others wait in the records as app snapshots (README.md, Sessions).
What bounds a person is here, per session rather than per socket: the intent rate, the one
live socket; and what the person is told when the disk fails them."""

from __future__ import annotations

import asyncio
import ctypes
import json
import logging
import sqlite3
import time
from pathlib import Path
from typing import Callable, Dict, Optional

from aiohttp import web

import cinematic
from limits import Bucket
from records import Records
from storage import favorites_file

log = logging.getLogger("cinematic-web")
try:   # glibc's malloc_trim: gives free pages of every arena back (elsewhere: nothing to do)
    TRIM: Optional[Callable[[int], int]] = ctypes.CDLL("libc.so.6").malloc_trim
except (OSError, AttributeError):
    TRIM = None
# The app's bounds, enforced by the core on every path (a session's memory: 2,000 rows a list).
APP_BOUNDS = {"app": {"rowsPerList": 2000}}
SAVE_GRACE = 1.0              # seconds of failed saves (retried 0.25, 0.5, 1 s … apart) before the person is told
SAVE_RETRY_MAX = 10.0         # seconds between retries, at most, while saves keep failing
UNSAVED = ("Changes are not being saved: the server cannot write them (its disk may be full). "
           "They are kept while this page stays open.")
SAVED_AGAIN = "Changes are being saved again."
NO_FAVORITES = ("Favorites cannot be opened for this browser (their file on the server is unusable): "
                "search and discover work, and favorites added now last only until this session closes.")


def error(code: str, message: str) -> str:
    """The frame that tells a client something beside the state: a refusal (the session is
    unchanged) or a notice about the server ("storage", "favorites")."""
    return json.dumps({"error": {"code": code, "message": message}})


class Session:
    """A live session: its own runtime (favorites in its own file) and app store, its rate
    bucket, its one socket, and the notices every socket of it is told."""

    def __init__(self, key: str, runtime: cinematic.Runtime, app: cinematic.AppStore, restored: bool) -> None:
        self.key, self.runtime, self.app = key, runtime, app
        self.socket: Optional[web.WebSocketResponse] = None
        self.outbox: Optional[Callable[[str], None]] = None   # the live socket's queue
        self.last_seen, self.saved = time.monotonic(), ""   # saved: the snapshot last written
        # A restore reloads pages (a snapshot meanwhile counts fewer): saves wait for an intent.
        self.hold_saves = restored
        self.bucket, self.strikes = Bucket(), 0   # per session: a new socket does not refill them
        self.notices: Dict[str, str] = {}         # code -> message, told at every connect
        self.failures, self.failing_since = 0, 0.0   # failed saves in a row, since when
        self.retry: Optional[asyncio.TimerHandle] = None

    def tell(self, code: str, message: str, standing: bool = True) -> None:
        """Sends a notice to the live socket, and (`standing`) to every later one."""
        if standing:
            self.notices[code] = message
        if self.outbox is not None:
            self.outbox(error(code, message))


class Hub:
    """The live sessions, at most `max_live`; the others wait in the records as snapshots."""

    def __init__(self, records: Records, data: Path, max_live: int, idle: float) -> None:
        self.records, self.data, self.max_live, self.idle = records, data, max_live, idle
        self.live: Dict[str, Session] = {}
        self.closed = 0   # sessions closed since the heap was last trimmed
        (data / "favorites").mkdir(parents=True, exist_ok=True)

    def has_room(self, key: str) -> bool:
        """True when `key` is live or may become live (a socketless session can make room)."""
        return key in self.live or len(self.live) < self.max_live or any(s.socket is None for s in self.live.values())

    def open(self, key: str) -> Optional[Session]:
        """The live session `key`, restored or made; None when the server is full. A favorites
        file the library cannot use gives a session with favorites in memory, told why."""
        if key in self.live:
            return self.live[key]
        if len(self.live) >= self.max_live:
            idle = [s for s in self.live.values() if s.socket is None]
            if not idle:
                return None
            self.close(min(idle, key=lambda s: s.last_seen))
        favorites, why = favorites_file(self.data, key)
        try:
            runtime = cinematic.Runtime(APP_BOUNDS, favorites=favorites, delivery="queued")
        except cinematic.CinematicError as problem:
            if favorites == ":memory:":
                raise
            why = f"{favorites}: {problem}"
            runtime = cinematic.Runtime(APP_BOUNDS, favorites=":memory:", delivery="queued")
        asyncio.get_running_loop().add_reader(runtime.fileno(), runtime.dispatch)
        try:
            snapshot, app = self.records.load(key), None
        except (sqlite3.Error, OSError) as problem:
            log.warning("session %s…: its snapshot cannot be read (%s); starting anew", key[:8], problem)
            snapshot, app = None, None
        if snapshot:
            try:
                app = runtime.restore(json.loads(snapshot))
            except (cinematic.CinematicError, ValueError) as problem:
                log.warning("session %s…: snapshot not restored (%s); starting anew", key[:8], problem)
        session = self.live[key] = Session(key, runtime, app or runtime.app(), app is not None)
        if why:
            log.warning("session %s…: favorites kept in memory only: %s", key[:8], why)
            session.tell("favorites", NO_FAVORITES)
        session.app.task()
        return session

    def save(self, session: Session) -> None:
        """Writes the session's snapshot to the records when it changed. Never raises: a failed
        write is retried (backing off), and after SAVE_GRACE seconds of failing the person is
        told, until a save works again."""
        if session.hold_saves or session.app.closed:
            return
        try:
            text = json.dumps(session.app.snapshot(), separators=(",", ":"))
        except cinematic.CinematicError as problem:
            log.warning("session %s…: no snapshot to save (%s)", session.key[:8], problem)
            return
        if text == session.saved:
            return
        try:
            self.records.save(session.key, text)
        except (sqlite3.Error, OSError) as problem:
            self.save_failed(session, problem)
            return
        session.saved = text
        if session.failures:
            log.warning("session %s…: saved again after %d failed tries", session.key[:8], session.failures)
            if session.retry is not None:
                session.retry.cancel()
            session.failures, session.retry = 0, None
            if session.notices.pop("storage", None):
                session.tell("storage", SAVED_AGAIN, standing=False)

    def save_failed(self, session: Session, problem: BaseException) -> None:
        """Counts a failed save, tells the person once saves have failed for SAVE_GRACE
        seconds, and schedules the next try."""
        session.failures += 1
        if session.failures == 1:
            session.failing_since = time.monotonic()
            log.warning("session %s…: not saved (%s); retrying", session.key[:8], problem)
        elif "storage" not in session.notices and time.monotonic() - session.failing_since >= SAVE_GRACE:
            log.warning("session %s…: still not saved after %d tries (%s); the person is told", session.key[:8],
                        session.failures, problem)
            session.tell("storage", UNSAVED)
        if session.retry is None and self.live.get(session.key) is session:
            delay = min(SAVE_RETRY_MAX, 0.25 * 2 ** (session.failures - 1))
            session.retry = asyncio.get_running_loop().call_later(delay, self.retry_save, session)

    def retry_save(self, session: Session) -> None:
        session.retry = None
        if self.live.get(session.key) is session:
            self.save(session)

    def close(self, session: Session) -> None:
        """Saves the session and closes its socket, store and runtime."""
        self.live.pop(session.key, None)
        self.save(session)
        if session.retry is not None:
            session.retry.cancel()
            session.retry = None
        if session.failures:
            log.warning("session %s…: closed with its last changes not saved", session.key[:8])
        if session.socket is not None:
            asyncio.ensure_future(session.socket.close(code=4408, message=b"idle: closed, reload to resume"))
        asyncio.get_running_loop().remove_reader(session.runtime.fileno())
        session.runtime.close()
        self.closed += 1

    async def sweep(self) -> None:
        """Every few seconds: sessions idle longer than `idle` seconds are saved and closed. Once
        a minute, if sessions closed meanwhile, the C heap's free pages go back to the system
        (README.md, "Flat under time": closed runtimes leave holes that otherwise only grow)."""
        trimmed = time.monotonic()
        while True:
            await asyncio.sleep(min(5.0, self.idle / 2))
            now = time.monotonic()
            for session in [s for s in self.live.values() if now - s.last_seen > self.idle]:
                self.close(session)
            if self.closed and now - trimmed >= 60 and TRIM is not None:
                self.closed, trimmed = 0, now
                TRIM(0)
