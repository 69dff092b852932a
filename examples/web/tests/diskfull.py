"""server.py with a disk that fills on demand (test_storage.py): while the file named by
CINEMATIC_DISK_FULL exists, every write to the records fails as SQLite fails on a full disk."""

import os
import runpy
import sqlite3
import sys
from pathlib import Path

WEB = Path(__file__).resolve().parents[1]
FULL = Path(os.environ["CINEMATIC_DISK_FULL"])
connect = sqlite3.connect


class FullDisk:
    """A connection whose writes raise "database or disk is full" while FULL exists."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def execute(self, sql: str, *args):
        if FULL.exists() and sql.lstrip().upper().startswith(("INSERT", "UPDATE", "DELETE", "REPLACE")):
            raise sqlite3.OperationalError("database or disk is full")
        return self.db.execute(sql, *args)

    def __getattr__(self, name: str):
        return getattr(self.db, name)


sqlite3.connect = lambda *args, **kwargs: FullDisk(connect(*args, **kwargs))
sys.path.insert(0, str(WEB))
sys.argv[0] = str(WEB / "server.py")
runpy.run_path(str(WEB / "server.py"), run_name="__main__")
