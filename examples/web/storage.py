"""The data folder (README.md, "Data at rest"): made 0700 with our files 0600 whatever existed
before, or refused with a reason; the signing key; the records database, a damaged one moved
aside in one line; and whether a session's favorites file can be handed to the library.

Files are ours or untouched: only names this server writes are changed (chmod, moved aside),
never through a symlink, and nothing is deleted."""

from __future__ import annotations

import contextlib
import logging
import os
import re
import secrets
import sqlite3
import stat
import time
from pathlib import Path
from typing import Optional, Tuple

from records import NotOurs, SQLiteRecords

log = logging.getLogger("cinematic-web")
OURS = ("secret", "sessions.sqlite", "sessions.sqlite-wal", "sessions.sqlite-shm", "sessions.sqlite-journal")
FAVORITES_FILE = re.compile(r"^[0-9a-f]{64}\.sqlite(-wal|-shm|-journal)?$")
KINDS = {stat.S_IFIFO: "a FIFO", stat.S_IFLNK: "a symlink", stat.S_IFDIR: "a folder", stat.S_IFCHR: "a device",
         stat.S_IFBLK: "a device", stat.S_IFSOCK: "a socket"}


def refuse(text: str) -> SystemExit:
    return SystemExit(f"cinematic-web: {text}")


def kind_of(mode: int) -> str:
    return KINDS.get(stat.S_IFMT(mode), "not a regular file")


def private_folder(path: Path) -> None:
    """Makes `path` (created if missing) a folder of ours, mode 0700; SystemExit if it cannot be."""
    with contextlib.suppress(FileExistsError):
        path.mkdir(mode=0o700)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
    except OSError as problem:
        raise refuse(f"{path} cannot be the data folder ({problem.strerror}: "
                     f"{kind_of(os.lstat(path).st_mode) if os.path.lexists(path) else 'missing'}); "
                     "give --data a folder of this user") from None
    try:
        info = os.fstat(fd)
        if info.st_uid != os.geteuid():
            raise refuse(f"{path} belongs to uid {info.st_uid}, not this server's user ({os.geteuid()}): "
                         f"`chown {os.geteuid()} {path}` or give --data another folder")
        if stat.S_IMODE(info.st_mode) != 0o700:
            os.fchmod(fd, 0o700)
    except OSError as problem:
        raise refuse(f"{path} cannot be made private (chmod 0700: {problem.strerror})") from None
    finally:
        os.close(fd)


def private_file(path: Path, strict: bool) -> None:
    """Makes the file `path` mode 0600 if it is there and ours. A symlink, FIFO or other not-a-file
    stops the server when `strict` (the records, the key), and is left alone otherwise (a
    session's favorites: that session reports it)."""
    try:
        before = os.lstat(path)
    except FileNotFoundError:
        return
    if not stat.S_ISREG(before.st_mode):
        if strict:
            raise refuse(f"{path} is {kind_of(before.st_mode)}, not a file this server made: move it away")
        return
    if before.st_uid != os.geteuid():
        raise refuse(f"{path} belongs to uid {before.st_uid}, not this server's user: move it away or chown it")
    if stat.S_IMODE(before.st_mode) == 0o600:
        return
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_NOCTTY)
        try:
            if os.fstat(fd).st_ino == before.st_ino:   # (the same file we looked at)
                os.fchmod(fd, 0o600)
        finally:
            os.close(fd)
    except OSError as problem:
        raise refuse(f"{path} cannot be made private (chmod 0600: {problem.strerror})") from None


def prepare(data: Path) -> None:
    """The data folder and favorites/ 0700, the files of ours in them 0600, and new files 0600
    from now on (umask 077); SystemExit with the reason when that cannot be."""
    os.umask(0o077)
    if not data.parent.is_dir():
        data.parent.mkdir(parents=True, mode=0o700)
    private_folder(data)
    for name in OURS:
        private_file(data / name, strict=name != "secret")   # (secret_of says what is wrong with a key)
    private_folder(data / "favorites")
    with os.scandir(data / "favorites") as entries:
        for entry in entries:
            if FAVORITES_FILE.match(entry.name):
                private_file(data / "favorites" / entry.name, strict=False)


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
        raise refuse(f"{path} is not a key this server made (move it away to make a new one)")
    return bytes.fromhex(text)


def open_records(data: Path) -> SQLiteRecords:
    """The records database. A damaged one (not a database, or failing its check) is moved
    aside with its -wal and -shm, and said in one line; one in use, unreadable or not ours
    stops the server with what to do."""
    path = data / "sessions.sqlite"
    try:
        return SQLiteRecords(str(path))
    except NotOurs as problem:
        raise refuse(f"{problem}: move it away, or give --data another folder") from None
    except sqlite3.Error as problem:
        name, damage = getattr(problem, "sqlite_errorname", ""), str(problem)
        if name in ("SQLITE_BUSY", "SQLITE_LOCKED"):
            raise refuse(f"{path} is in use by another process (another server on this --data?): stop it first") from None
        if name not in ("SQLITE_NOTADB", "SQLITE_CORRUPT") and "malformed" not in str(problem):
            raise refuse(f"{path} cannot be used ({problem}): check the disk and its permissions") from None
    aside = path.with_name(f"sessions.sqlite.damaged-{time.strftime('%Y%m%dT%H%M%S')}-{os.getpid()}")
    for suffix in ("", "-wal", "-shm"):
        with contextlib.suppress(FileNotFoundError):
            os.rename(f"{path}{suffix}", f"{aside}{suffix}")
    log.warning("%s is damaged (%s); moved aside to %s: saved sessions start anew", path, damage, aside)
    return SQLiteRecords(str(path))


def favorites_file(data: Path, key: str) -> Tuple[str, Optional[str]]:
    """The favorites database for session `key` (its path, None), or (":memory:", why) when the
    file there cannot be handed to the library: not a regular file (a FIFO would block it) or
    not writable."""
    path = data / "favorites" / f"{key}.sqlite"
    for suffix in ("", "-wal", "-shm", "-journal"):
        try:
            info = os.lstat(f"{path}{suffix}")
        except FileNotFoundError:
            continue
        if not stat.S_ISREG(info.st_mode):
            return ":memory:", f"{path}{suffix} is {kind_of(info.st_mode)}"
    try:
        os.close(os.open(path, os.O_RDWR | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_NOCTTY))
    except FileNotFoundError:
        pass
    except OSError as problem:
        return ":memory:", f"{path} cannot be written ({problem.strerror})"
    return str(path), None   # (a damaged database is the library's to name: it refuses it, unchanged)
