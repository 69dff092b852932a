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


class NotOurs(sqlite3.DatabaseError):
    """The records file is a SQLite database, but not one this server made."""


class Records(Protocol):
    """Where sessions outlive a process. Calls are short and synchronous."""

    def load(self, key: str) -> Optional[str]:
        """The session's last app snapshot (JSON text), None when it has none."""

    def save(self, key: str, snapshot: str) -> None:
        """Replaces the session's snapshot (atomically). Raises sqlite3.Error or OSError when
        it cannot (a full disk): the caller retries and tells the person."""


class SQLiteRecords:
    """`Records` in one SQLite file, WAL mode: writes do not wait for readers, and survive the
    process being killed (`synchronous=NORMAL` can lose the last ones only if the machine dies)."""

    APPLICATION_ID = 0x43574542   # "CWEB": proves the file is this server's (PRAGMA application_id)
    KEEP_SECONDS = 90 * 86400      # a session's cookie lives 90 days; older records are dropped at start

    def __init__(self, path: str) -> None:
        """Opens (or creates) the records at `path`. Raises sqlite3.Error: SQLITE_NOTADB or a
        "malformed" message when the file is damaged, NotOurs when it is another program's."""
        self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        try:
            owner = self._db.execute("PRAGMA application_id").fetchone()[0]
            tables = {row[0] for row in self._db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            if owner not in (0, self.APPLICATION_ID) or (owner == 0 and tables and "sessions" not in tables):
                raise NotOurs(f"{path} is a SQLite database of another program (application_id {owner}, "
                              f"tables {sorted(tables)[:5]})")
            check = self._db.execute("PRAGMA quick_check").fetchone()[0]
            if check != "ok":
                raise sqlite3.DatabaseError(f"database disk image is malformed ({check})")
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.execute("PRAGMA busy_timeout=2000")
            self._db.execute(f"PRAGMA application_id={self.APPLICATION_ID}")
            self._db.execute("CREATE TABLE IF NOT EXISTS sessions (key TEXT PRIMARY KEY, "
                             "snapshot TEXT, updated REAL NOT NULL)")
            self._db.execute("DELETE FROM sessions WHERE updated < ?", (time.time() - self.KEEP_SECONDS,))
        except BaseException:
            self._db.close()
            raise

    def load(self, key: str) -> Optional[str]:
        row = self._db.execute("SELECT snapshot FROM sessions WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    def save(self, key: str, snapshot: str) -> None:
        self._db.execute("INSERT INTO sessions VALUES (?, ?, ?) ON CONFLICT(key) DO UPDATE SET "
                         "snapshot = excluded.snapshot, updated = excluded.updated", (key, snapshot, time.time()))

    def close(self) -> None:
        """Closes the database."""
        self._db.close()
