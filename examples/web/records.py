"""The store of record for sessions: each one's last app snapshot.

`Records` is the interface the server uses; `SQLiteRecords` (WAL mode) is the default. A
shared implementation (PostgreSQL, Redis) lets several server processes resume each other's
sessions (README.md, "Scale-out"). Ids are stored hashed: the database never holds a cookie."""

from __future__ import annotations

import hashlib
import sqlite3
import time
from typing import Optional, Protocol


def session_key(session_id: str) -> str:
    """The stored name of a session: SHA-256 of its id (also names its favorites file)."""
    return hashlib.sha256(session_id.encode("utf-8")).hexdigest()


class Records(Protocol):
    """Where sessions outlive a process. Calls are short and synchronous."""

    def load(self, key: str) -> Optional[str]:
        """The session's last app snapshot (JSON text), None when it has none."""

    def save(self, key: str, snapshot: str) -> None:
        """Replaces the session's snapshot (atomically)."""


class SQLiteRecords:
    """`Records` in one SQLite file, WAL mode: writes do not wait for readers, and survive the
    process being killed (`synchronous=NORMAL` can lose the last ones only if the machine dies)."""

    def __init__(self, path: str) -> None:
        self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute("PRAGMA busy_timeout=2000")
        self._db.execute("CREATE TABLE IF NOT EXISTS sessions (key TEXT PRIMARY KEY, "
                         "snapshot TEXT, updated REAL NOT NULL)")

    def load(self, key: str) -> Optional[str]:
        row = self._db.execute("SELECT snapshot FROM sessions WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    def save(self, key: str, snapshot: str) -> None:
        self._db.execute("INSERT INTO sessions VALUES (?, ?, ?) ON CONFLICT(key) DO UPDATE SET "
                         "snapshot = excluded.snapshot, updated = excluded.updated", (key, snapshot, time.time()))

    def close(self) -> None:
        """Closes the database."""
        self._db.close()
