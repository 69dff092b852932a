"""Data at rest (issue 46): a full disk is retried and then told, never a dropped delivery or
a 500; an unusable favorites file still leaves search and discover; a damaged records file is
named in one line; the data folder is private whatever was there before, or refused."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import os
import sqlite3
import stat
import subprocess
import time
from pathlib import Path

import pytest
from yarl import URL

from conftest import Client, WebServer, no_traceback, results, type_query

DISK_FULL = Path(__file__).resolve().parent / "diskfull.py"


async def told_about(client: Client, words: str, timeout: float = 10) -> dict:
    """The first notice (an "error" frame) saying `words`, read for if not received yet."""
    deadline = time.monotonic() + timeout
    while not any(words in e["message"] for e in client.errors):
        assert time.monotonic() < deadline, f"not told {words!r}: {client.errors}"
        with contextlib.suppress(asyncio.TimeoutError):
            await client.next(max(0.1, deadline - time.monotonic()))
    return next(e for e in client.errors if words in e["message"])


async def test_a_full_disk_is_retried_then_told_and_no_delivery_is_dropped(tmp_path: Path) -> None:
    """Issue 46: a failed save was an uncaught sqlite3 error, the delivery was dropped, and
    newcomers got HTTP 500."""
    full = tmp_path / "full"
    server = WebServer(tmp_path / "data", script=DISK_FULL, env={"CINEMATIC_DISK_FULL": str(full)}).start()
    person, newcomer = Client(server), Client(server)
    try:
        await person.page()
        await person.connect()
        await type_query(person, "heat")
        full.touch()                                   # the disk is full from now on
        await person.send({"type": "queryChanged", "query": "dune"})
        await person.wait(lambda s: s["search"]["results"].get("query") == "dune" and results(s))   # delivered
        told = await told_about(person, "not being saved")
        assert told["code"] == "storage", told
        assert (await newcomer.page()).status == 200   # newcomers are served as ever
        await newcomer.connect()
        await type_query(newcomer, "alien")
        full.unlink()                                  # room again: the retry saves, and says so
        again = await told_about(person, "saved again", timeout=20)
        assert again["code"] == "storage", again
        server.kill()
        server.start()
        await person.connect()                         # what the person saw was saved after all
        assert person.state["search"]["query"] == "dune"
    finally:
        await person.close()
        await newcomer.close()
        server.kill()
    no_traceback(tmp_path)
    log = (tmp_path / "server.log").read_text()
    assert log.count("not saved (database or disk is full)") <= 2, log[-2000:]


def spoil(path: Path, kind: str, elsewhere: Path) -> None:
    """Makes the favorites file at `path` unusable in the way `kind` says."""
    if kind == "damaged":
        path.write_bytes(b"these are not the favorites you are looking for " * 100)
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind == "symlink":
        elsewhere.write_bytes(b"")
        path.symlink_to(elsewhere)
    else:                                              # read-only: 0444, and immutable for root
        path.write_bytes(b"")
        path.chmod(0o444)
        if os.geteuid() == 0:
            subprocess.run(["chattr", "+i", str(path)], check=True)


@pytest.mark.parametrize("kind", ["damaged", "readonly", "fifo", "symlink"])
async def test_an_unusable_favorites_file_still_searches_and_discovers(web: WebServer, tmp_path: Path, kind: str) -> None:
    """Issue 46: a damaged, read-only or FIFO favorites file gave HTTP 500 and "Reconnecting…"
    forever. Now the session opens with favorites in memory, and the page is told why."""
    client = Client(web)
    await client.page()
    cookie = client.http.cookie_jar.filter_cookies(URL(web.url))["cinematic_session"].value
    path = web.data / "favorites" / f"{hashlib.sha256(cookie.encode()).hexdigest()}.sqlite"
    spoil(path, kind, tmp_path / "someone-elses.sqlite")
    before = os.lstat(path)
    try:
        await client.connect()
        told = await client.wait_error()
        assert told["code"] == "favorites" and "search and discover work" in told["message"], told
        state = await type_query(client, "alien")
        await client.send({"type": "opened", "movieId": results(state)[0]["id"]})
        await client.wait(lambda s: s["details"] and s["details"][-1]["detail"]["phase"] == "loaded")
        await client.send({"type": "detail", "intent": {"type": "favoriteToggled"}})   # kept in memory
        await client.wait(lambda s: s["details"][-1]["isFavorite"] and not s["details"][-1]["isSaving"])
        await client.send({"type": "back"})
        await client.send({"type": "tabSelected", "tab": "discover"})
        await client.wait(lambda s: s["tab"] == "discover" and s["view"]["list"] and s["view"]["list"]["count"] >= 20)
        after = os.lstat(path)                         # and the file is left as it was
        assert (after.st_ino, after.st_size, stat.S_IFMT(after.st_mode)) == (before.st_ino, before.st_size, stat.S_IFMT(before.st_mode))
        assert kind != "symlink" or not (tmp_path / "someone-elses.sqlite").read_bytes()
    finally:
        await client.close()
        if kind == "readonly" and os.geteuid() == 0:
            subprocess.run(["chattr", "-i", str(path)], check=False)


def records_file(path: Path, kind: str) -> None:
    """A sessions.sqlite damaged in the way `kind` says (or another program's database)."""
    if kind == "garbage":
        path.write_bytes(b"not a database at all " * 400)
        return
    db = sqlite3.connect(path, isolation_level=None)
    table = "photos" if kind == "foreign" else "sessions"
    db.execute(f"CREATE TABLE {table} (key TEXT PRIMARY KEY, snapshot TEXT, updated REAL NOT NULL)")
    for i in range(300):
        db.execute(f"INSERT INTO {table} VALUES (?, ?, ?)", (f"{i:064x}", os.urandom(600).hex(), 1e10))
    db.close()
    if kind == "truncated":
        os.truncate(path, path.stat().st_size // 2)
    elif kind == "scribbled":
        with open(path, "r+b") as out:
            out.seek(3 * 4096)
            out.write(b"\xff" * 4096)


@pytest.mark.parametrize("kind", ["garbage", "truncated", "scribbled"])
async def test_a_damaged_records_file_is_moved_aside_in_one_line(tmp_path: Path, kind: str) -> None:
    """Issue 46: a damaged sessions.sqlite stopped the server with a bare traceback."""
    data = tmp_path / "data"
    data.mkdir(mode=0o700)
    records_file(data / "sessions.sqlite", kind)
    damaged = (data / "sessions.sqlite").read_bytes()
    server = WebServer(data).start()
    client = Client(server)
    try:
        await client.page()
        await client.connect()
        await type_query(client, "heat")
    finally:
        await client.close()
        server.kill()
    no_traceback(tmp_path)
    lines = [line for line in (tmp_path / "server.log").read_text().splitlines() if "sessions.sqlite" in line]
    assert len(lines) == 1 and "is damaged" in lines[0] and "moved aside to" in lines[0], lines
    aside = Path(lines[0].split("moved aside to ")[1].split(":")[0])
    assert aside.parent == data and aside.read_bytes() == damaged


@pytest.mark.parametrize("kind", ["foreign", "owner", "fifo", "symlink"])
def test_a_data_folder_not_ours_is_refused_with_the_reason(tmp_path: Path, kind: str) -> None:
    """Files are ours or untouched: another program's database, a folder of another user, a
    FIFO or a symlink where the records go stop the server with one line saying why."""
    data = tmp_path / "data"
    data.mkdir(mode=0o700)
    records = data / "sessions.sqlite"
    if kind == "foreign":
        records_file(records, "foreign")
    elif kind == "owner":
        os.chown(data, 65534, 65534)
    elif kind == "fifo":
        os.mkfifo(records)
    else:
        (tmp_path / "elsewhere.sqlite").write_bytes(b"")
        records.symlink_to(tmp_path / "elsewhere.sqlite")
    before = os.lstat(records) if os.path.lexists(records) else None
    server = WebServer(data)
    with pytest.raises(AssertionError):
        server.start()
    server.kill()
    assert server.process is not None and server.process.wait(10) != 0
    no_traceback(tmp_path)
    log = (tmp_path / "server.log").read_text().strip().splitlines()
    expected = {"foreign": "another program", "owner": "chown", "fifo": "is a FIFO", "symlink": "is a symlink"}[kind]
    assert len(log) == 1 and log[0].startswith("cinematic-web: ") and expected in log[0], log
    if before is not None:
        assert os.lstat(records).st_ino == before.st_ino and os.lstat(records).st_size == before.st_size


def modes(data: Path) -> dict:
    """Every folder's and file's permission bits under `data`, by relative path."""
    found = {".": stat.S_IMODE(os.lstat(data).st_mode)}
    for folder, names, files in os.walk(data):
        for name in names + files:
            path = Path(folder) / name
            found[str(path.relative_to(data))] = stat.S_IMODE(os.lstat(path).st_mode)
    return found


async def test_the_data_folder_is_made_private_whatever_was_there(tmp_path: Path) -> None:
    """Issue 46: an existing 0755 data folder was used as it was, its records and favorites
    0644 (readable by any local user)."""
    data = tmp_path / "data"
    data.mkdir(mode=0o755)
    data.chmod(0o755)
    server = WebServer(data).start()
    client = Client(server)
    try:
        await client.page()
        await client.connect()
        await client.wait(lambda s: s["favorites"]["favorites"]["phase"] == "loaded")   # (its favorites file)
        await type_query(client, "heat")
        server.kill()
        for path, mode in modes(data).items():
            (data / path).chmod(0o755 if (data / path).is_dir() else 0o644)
        assert set(modes(data).values()) == {0o755, 0o644}
        server.start()
        await client.connect()
        newcomer = Client(server)
        with contextlib.suppress(Exception):
            await newcomer.page()
            await newcomer.connect()
            await newcomer.wait(lambda s: s["favorites"]["favorites"]["phase"] == "loaded")
        await newcomer.close()
    finally:
        await client.close()
        server.kill()
    found = modes(data)
    assert len([p for p in found if p.startswith("favorites/") and p.endswith(".sqlite")]) == 2, found
    assert {p: m for p, m in found.items() if m != (0o700 if (data / p).is_dir() else 0o600)} == {}, found
