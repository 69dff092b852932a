"""Live sessions: each its own runtime (favorites in its own file) and app store, at most
`max_live` at once; the others wait in the records as app snapshots (README.md, Sessions)."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from pathlib import Path
from typing import Dict, Optional

from aiohttp import web

import cinematic
from records import Records

log = logging.getLogger("cinematic-web")


class Session:
    """A live session: its own runtime (favorites in its own file) and app store."""

    def __init__(self, key: str, runtime: cinematic.Runtime, app: cinematic.AppStore, restored: bool) -> None:
        self.key, self.runtime, self.app = key, runtime, app
        self.socket: Optional[web.WebSocketResponse] = None
        self.last_seen, self.saved = time.monotonic(), ""   # saved: the snapshot last written
        # A restore reloads pages (a snapshot meanwhile counts fewer): saves wait for an intent.
        self.hold_saves = restored


class Hub:
    """The live sessions, at most `max_live`; the others wait in the records as snapshots."""

    def __init__(self, records: Records, data: Path, max_live: int, idle: float) -> None:
        self.records, self.data, self.max_live, self.idle = records, data, max_live, idle
        self.live: Dict[str, Session] = {}
        (data / "favorites").mkdir(parents=True, exist_ok=True)

    def has_room(self, key: str) -> bool:
        """True when `key` is live or may become live (a socketless session can make room)."""
        return key in self.live or len(self.live) < self.max_live or any(s.socket is None for s in self.live.values())

    def open(self, key: str) -> Optional[Session]:
        """The live session `key`, restored or made; None when the server is full."""
        if key in self.live:
            return self.live[key]
        if len(self.live) >= self.max_live:
            idle = [s for s in self.live.values() if s.socket is None]
            if not idle:
                return None
            self.close(min(idle, key=lambda s: s.last_seen))
        runtime = cinematic.Runtime(favorites=str(self.data / "favorites" / f"{key}.sqlite"), delivery="queued")
        asyncio.get_running_loop().add_reader(runtime.fileno(), runtime.dispatch)
        snapshot, app = self.records.load(key), None
        if snapshot:
            try:
                app = runtime.restore(json.loads(snapshot))
            except (cinematic.CinematicError, ValueError) as problem:
                log.warning("session %s…: snapshot not restored (%s); starting anew", key[:8], problem)
        session = self.live[key] = Session(key, runtime, app or runtime.app(), app is not None)
        session.app.task()
        return session

    def save(self, session: Session) -> None:
        """Writes the session's snapshot to the records when it changed."""
        if session.hold_saves or session.app.closed:
            return
        text = json.dumps(session.app.snapshot(), separators=(",", ":"))
        if text != session.saved:
            self.records.save(session.key, text)
            session.saved = text

    def close(self, session: Session) -> None:
        """Saves the session and closes its socket, store and runtime."""
        self.live.pop(session.key, None)
        try:
            self.save(session)
        except cinematic.CinematicError as problem:
            log.warning("session %s…: not saved at close (%s)", session.key[:8], problem)
        if session.socket is not None:
            asyncio.ensure_future(session.socket.close(code=4408, message=b"idle: closed, reload to resume"))
        asyncio.get_running_loop().remove_reader(session.runtime.fileno())
        session.runtime.close()

    async def sweep(self) -> None:
        """Every few seconds: sessions idle longer than `idle` seconds are saved and closed."""
        while True:
            await asyncio.sleep(min(5.0, self.idle / 2))
            now = time.monotonic()
            for session in [s for s in self.live.values() if now - s.last_seen > self.idle]:
                self.close(session)
