"""Load program for the web host (make bench-web): SESSIONS browsers at once on loopback, each
typing a query key by key (one intent per key, KEY_MS apart, like a person) and then paging.

Reports, over every keystroke of every session: intent sent -> the delivery showing it (p50,
p99), keystroke -> results of the full query, page -> its films, bytes per keystroke on the wire
(both ways), and the server's CPU time and resident memory per session. Bounded: a fixed number
of sessions and keys, a deadline, loopback only.

    python examples/web/bench.py [--sessions 200] [--key-ms 150]
    python examples/web/bench.py --soak-minutes 30 [--sessions 200]

The soak mode keeps SESSIONS people busy for that long (typing, paging, opening films,
hearting, switching tabs, reconnecting, and now and then a new browser, so sessions open, go
idle and close all along) and prints the server's resident memory every minute: it must level
off (README.md, "Flat under time").
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import aiohttp

sys.path.insert(0, str(Path(__file__).resolve().parent / "tests"))
from conftest import Client, WebServer, results  # noqa: E402

QUERIES = ["alien", "dune", "star wars", "godfather", "heat", "matrix", "titanic", "comedy 1990s"]
TICKS = os.sysconf("SC_CLK_TCK")


def live_runtimes(pid: int) -> int:
    """How many runtimes the server has open (each holds one eventfd): its live sessions."""
    count = 0
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            count += os.readlink(f"/proc/{pid}/fd/{fd}") == "anon_inode:[eventfd]"
        except OSError:
            pass
    return count


def server_usage(pid: int) -> tuple:
    """(CPU seconds, resident MiB) of the server process."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    cpu = (int(fields[11]) + int(fields[12])) / TICKS
    rss = next(int(line.split()[1]) for line in Path(f"/proc/{pid}/status").read_text().splitlines()
               if line.startswith("VmRSS:")) / 1024
    return cpu, rss


async def person(server: WebServer, index: int, count: int, key_ms: float, start: asyncio.Event, out: dict) -> None:
    """One browser: connects, waits for `start`, types its query key by key, then pages once."""
    client = Client(server)
    try:
        await client.page()
        await client.connect()
        await client.wait(lambda s: s["favorites"]["favorites"]["phase"] == "loaded")
        out["ready"] += 1
        await start.wait()
        await asyncio.sleep(index / count * key_ms / 1000)   # people do not type in step
        query = QUERIES[index % len(QUERIES)]
        received = sum(len(frame) for frame in client.frames)
        for i in range(1, len(query) + 1):
            text = query[:i]
            sent, before = time.monotonic(), len(client.frames)
            intent = json.dumps({"type": "queryChanged", "query": text})
            out["up"] += len(intent)
            await client.send(intent)
            await client.wait(lambda s: s["search"]["query"] == text)
            out["echo"].append(time.monotonic() - sent)
            out["echo_bytes"].append(sum(len(frame) for frame in client.frames[before:]))
            await asyncio.sleep(max(0.0, key_ms / 1000 - (time.monotonic() - sent)))
        await client.wait(lambda s: s["search"]["results"]["phase"] == "loaded"
                          and s["search"]["results"]["query"] == query.strip(), timeout=60)
        out["results"].append(time.monotonic() - sent)   # from the last key sent
        out["down"] += sum(len(frame) for frame in client.frames) - received
        out["keys"] += len(query)
        shown = len(results(client.state))
        if not client.state["search"]["isExhausted"] and shown:
            sent = time.monotonic()
            await client.send({"type": "moved", "list": "search", "selection": shown, "firstVisible": shown - 10})
            await client.wait(lambda s: len(results(s)) > shown, timeout=60)
            out["page"].append(time.monotonic() - sent)
    except (AssertionError, ConnectionError, aiohttp.ClientError, asyncio.TimeoutError) as problem:
        out["failed"].append(f"session {index}: {problem}"[:200])
    finally:
        await client.close()


def percentile(values: list, p: float) -> float:
    """The p-th percentile of `values` (seconds) in milliseconds."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))] * 1000 if ordered else float("nan")


async def run(args: argparse.Namespace) -> None:
    """Starts a server on a scratch folder, runs the sessions, prints the figures."""
    with tempfile.TemporaryDirectory() as scratch:
        server = WebServer(Path(scratch) / "data", "--max-sessions", str(args.sessions + 10)).start()
        try:
            assert server.process is not None
            pid = server.process.pid
            cpu0, rss0 = server_usage(pid)
            out = {"ready": 0, "echo": [], "echo_bytes": [], "results": [], "page": [], "up": 0, "down": 0, "keys": 0, "failed": []}
            start = asyncio.Event()
            tasks = [asyncio.ensure_future(person(server, i, args.sessions, args.key_ms, start, out)) for i in range(args.sessions)]
            deadline = time.monotonic() + 120
            while out["ready"] + len(out["failed"]) < args.sessions and time.monotonic() < deadline:
                await asyncio.sleep(0.05)
            cpu1, rss1 = server_usage(pid)
            began = time.monotonic()
            start.set()
            await asyncio.wait_for(asyncio.gather(*tasks), timeout=300)
            elapsed = time.monotonic() - began
            cpu2, rss2 = server_usage(pid)
        finally:
            server.kill()
    n = max(1, out["ready"])
    print(f"web host: {args.sessions} sessions ({out['ready']} connected, {len(out['failed'])} failed), "
          f"one key every {args.key_ms:.0f} ms, loopback, {os.cpu_count()} CPUs")
    print(f"  keystroke -> its delivery   p50 {percentile(out['echo'], 50):7.1f} ms   p99 {percentile(out['echo'], 99):7.1f} ms"
          f"   ({len(out['echo'])} keystrokes)")
    print(f"  last key -> its results     p50 {percentile(out['results'], 50):7.1f} ms   p99 {percentile(out['results'], 99):7.1f} ms"
          "   (includes the 250 ms debounce)")
    print(f"  page -> its films           p50 {percentile(out['page'], 50):7.1f} ms   p99 {percentile(out['page'], 99):7.1f} ms")
    keys = max(1, out["keys"])
    echo = statistics.median(out["echo_bytes"]) if out["echo_bytes"] else float("nan")
    print(f"  bytes per keystroke         {echo:.0f} down for the keystroke's own patch (median), up {out['up'] / keys:.0f};"
          f" {out['down'] / keys:.0f} down with the results each query brings")
    print(f"  server                      {(rss1 - rss0) / n:6.2f} MiB per live session (RSS {rss0:.0f} -> {rss1:.0f} -> {rss2:.0f} MiB)")
    print(f"                              CPU {cpu1 - cpu0:.1f} s to open them, {cpu2 - cpu1:.1f} s over {elapsed:.1f} s of typing and paging"
          f" ({(cpu2 - cpu1) / keys * 1000:.2f} ms per keystroke; the clients share the same CPUs)")
    for line in out["failed"][:5]:
        print("  failed:", line)


async def soak_person(server: WebServer, index: int, end: float, out: dict) -> None:
    """One person for the whole soak: rounds of typing, paging, a film hearted, tabs, and a
    reconnect every round. Even people keep their browser (one session all along); odd ones
    take a new browser (a new session) every fourth round, so sessions open, idle and close."""
    client, rounds = None, 0
    while time.monotonic() < end:
        try:
            if client is None or (index % 2 and rounds % 4 == 0):
                if client is not None:
                    await client.close()
                client = Client(server)
                await client.page()
            await client.connect()
            query = QUERIES[(index + rounds) % len(QUERIES)]
            for i in range(1, len(query) + 1):
                await client.send({"type": "queryChanged", "query": query[:i]})
                await asyncio.sleep(0.15)
            state = await client.wait(lambda s: s["search"]["results"].get("query") == query and s["search"]["results"]["phase"] == "loaded", timeout=60)
            shown = len(results(state))
            if shown and not state["search"]["isExhausted"]:
                await client.send({"type": "moved", "list": "search", "selection": shown, "firstVisible": shown - 10})
                state = await client.wait(lambda s: len(results(s)) > shown, timeout=60)
            if results(state):
                await client.send({"type": "opened", "movieId": results(state)[index % len(results(state))]["id"]})
                await client.wait(lambda s: s["details"] and s["details"][-1]["detail"]["phase"] != "loading", timeout=60)
                await client.send({"type": "detail", "intent": {"type": "favoriteToggled"}})
                await asyncio.sleep(0.5)
                await client.send({"type": "back"})
            for tab in ("favorites", "discover", "search"):
                await asyncio.sleep(0.5)
                await client.send({"type": "tabSelected", "tab": tab})
            await asyncio.sleep(1.0)
            out["rounds"] += 1
            client.frames.clear()
            await client.disconnect()
        except (AssertionError, ConnectionError, aiohttp.ClientError, asyncio.TimeoutError) as problem:
            out["failed"].append(f"session {index}: {problem}"[:200])
            if client is not None:
                await client.close()
            client = None
            await asyncio.sleep(1.0)
        rounds += 1
    if client is not None:
        await client.close()


async def soak(args: argparse.Namespace) -> None:
    """Runs the soak (bounded: at most 60 minutes, loopback) and prints RSS every minute."""
    minutes = max(1, min(60, args.soak_minutes))
    with tempfile.TemporaryDirectory() as scratch:
        server = WebServer(Path(scratch) / "data", "--max-sessions", str(2 * args.sessions + 10), "--idle", "60").start()
        try:
            assert server.process is not None
            pid = server.process.pid
            base, began = live_runtimes(pid), time.monotonic()
            out: dict = {"rounds": 0, "failed": []}
            people = [asyncio.ensure_future(soak_person(server, i, began + minutes * 60, out)) for i in range(args.sessions)]
            print(f"soak: {args.sessions} people for {minutes} min on loopback, {os.cpu_count()} CPUs; server RSS per minute:")
            series = []
            for minute in range(minutes + 1):
                await asyncio.sleep(max(0.0, began + minute * 60 - time.monotonic()))
                cpu, rss = server_usage(pid)
                series.append(rss)
                print(f"  minute {minute:3d}: RSS {rss:7.1f} MiB, {live_runtimes(pid) - base:4d} live sessions, "
                      f"CPU {cpu:7.1f} s, {out['rounds']} rounds, {len(out['failed'])} failed", flush=True)
            await asyncio.wait_for(asyncio.gather(*people), timeout=120)
        finally:
            server.kill()
    tail = series[max(2, len(series) - 11):] or series   # the last ten minutes, past the first two (warming up)
    spread = (max(tail) - min(tail)) / min(tail) * 100
    print(f"  RSS over the last {len(tail) - 1} minutes: {min(tail):.1f} .. {max(tail):.1f} MiB ({spread:.1f}%;"
          " flat means within 5%)")
    for line in out["failed"][:5]:
        print("  failed:", line)


def main() -> None:
    """Runs the load and prints the figures."""
    parser = argparse.ArgumentParser(prog="bench-web")
    parser.add_argument("--sessions", type=int, default=200)
    parser.add_argument("--key-ms", type=float, default=150.0)
    parser.add_argument("--soak-minutes", type=int, default=0, help="soak mode: minutes (at most 60)")
    args = parser.parse_args()
    asyncio.run(soak(args) if args.soak_minutes else run(args))


if __name__ == "__main__":
    main()
