"""The web host seen from outside: a server process (started, killed, restarted on its data
folder) and protocol clients with their own cookies that rebuild the state from deliveries.
Everything waits on messages (with a deadline), never on sleeps."""

from __future__ import annotations

import asyncio
import inspect
import json
import os
import resource
import select
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional

import aiohttp
import pytest

REPO = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(REPO / "bindings" / "python"))
from cinematic._patch import apply_patch  # noqa: E402  (the binding's own RFC 6902 applier)

SERVER = REPO / "examples" / "web" / "server.py"


def pytest_pyfunc_call(pyfuncitem: Any) -> Optional[bool]:
    """Runs `async def` tests in a fresh event loop (no plugin needed)."""
    if inspect.iscoroutinefunction(pyfuncitem.obj):
        args = {name: pyfuncitem.funcargs[name] for name in pyfuncitem._fixtureinfo.argnames}
        asyncio.run(asyncio.wait_for(pyfuncitem.obj(**args), timeout=120))
        return True
    return None


class WebServer:
    """examples/web/server.py in a process of its own, on a data folder that outlives it."""

    def __init__(self, data: Path, *options: str, script: Path = SERVER, nofile: Optional[int] = None,
                 env: Optional[Dict[str, str]] = None) -> None:
        """`script` runs instead of server.py (a wrapper that breaks something), under a file
        limit of `nofile` when given, with `env` added to the environment."""
        self.data, self.options, self.port = data, list(options), 0
        self.script, self.nofile, self.env = script, nofile, env or {}
        self.process: Optional[subprocess.Popen] = None
        self.url = ""

    def start(self) -> "WebServer":
        env = dict(os.environ, PYTHONPATH=str(REPO / "bindings" / "python"), **self.env)
        limit = self.nofile
        self.process = subprocess.Popen(
            [sys.executable, str(self.script), "--port", str(self.port), "--data", str(self.data), *self.options],
            env=env, stdout=subprocess.PIPE, stderr=open(self.data.parent / "server.log", "ab"), text=True,
            preexec_fn=(lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (limit, limit))) if limit else None)
        deadline = time.monotonic() + 30
        assert self.process.stdout is not None
        while time.monotonic() < deadline:
            ready, _, _ = select.select([self.process.stdout], [], [], 1)
            if ready:
                line = self.process.stdout.readline()
                if line.startswith("Cinematic web: "):
                    self.url = line.split(": ", 1)[1].strip()
                    self.port = int(self.url.rsplit(":", 1)[1].strip("/"))
                    return self
                assert line, "the server exited before printing its URL"
        raise AssertionError("the server printed no URL within 30 s")

    def kill(self) -> None:
        """SIGKILL: no goodbye, nothing saved at exit."""
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)

    @property
    def origin(self) -> str:
        return self.url.rstrip("/")


def no_traceback(tmp_path: Path) -> None:
    """Whatever a test sent, the server logged no unhandled exception."""
    log = tmp_path / "server.log"
    text = log.read_text(errors="replace") if log.exists() else ""
    assert "Traceback" not in text, text[text.index("Traceback"):][:2000]


@pytest.fixture
def web(tmp_path: Path):
    """A started server; killed after the test, whose log must hold no traceback."""
    server = WebServer(tmp_path / "data").start()
    yield server
    server.kill()
    no_traceback(tmp_path)


@pytest.fixture
def start(tmp_path: Path):
    """Starts servers with options (`start("--idle", "1")`); all killed after the test."""
    started: List[WebServer] = []

    def starter(*options: str) -> WebServer:
        server = WebServer(tmp_path / "data", *options).start()
        started.append(server)
        return server

    yield starter
    for server in started:
        server.kill()
    no_traceback(tmp_path)


class Client:
    """One browser: a cookie jar, a socket, and the app state rebuilt from its deliveries."""

    def __init__(self, server: WebServer) -> None:
        self.server = server
        self.http = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))
        self.ws: Optional[aiohttp.ClientWebSocketResponse] = None
        self.state: Dict[str, Any] = {}
        self.seq = 0
        self.frames: List[str] = []     # every text frame received, for "never another's state"
        self.errors: List[Dict[str, Any]] = []

    async def page(self) -> aiohttp.ClientResponse:
        async with self.http.get(self.server.url) as response:
            await response.read()
            return response

    async def connect(self, origin: Optional[str] = None) -> None:
        """Opens the socket and waits for the whole state (seq 1)."""
        self.ws = await self.http.ws_connect(self.server.url + "ws", headers={"Origin": origin or self.server.origin})
        self.seq = 0
        await self.next()
        assert self.seq == 1

    async def send(self, intent: Any) -> None:
        assert self.ws is not None
        await self.ws.send_str(intent if isinstance(intent, str) else json.dumps(intent))

    async def next(self, timeout: float = 15) -> Dict[str, Any]:
        """The next frame, applied to the state; deliveries must come without gaps."""
        assert self.ws is not None
        message = await self.ws.receive(timeout=timeout)
        if message.type != aiohttp.WSMsgType.TEXT:
            raise ConnectionError(f"socket ended: {message.type} {message.data} {message.extra}")
        self.frames.append(message.data)
        frame = json.loads(message.data)
        if "error" in frame:
            self.errors.append(frame["error"])
        elif "state" in frame:
            assert frame["seq"] == 1
            self.state, self.seq = frame["state"], 1
        else:
            assert frame["seq"] == self.seq + 1, f"delivery {frame['seq']} after {self.seq}"
            self.state, self.seq = apply_patch(self.state, frame["patch"]), frame["seq"]
        return frame

    async def wait(self, predicate: Callable[[Dict[str, Any]], Any], timeout: float = 20) -> Dict[str, Any]:
        """Reads frames until the state satisfies `predicate`."""
        deadline = time.monotonic() + timeout
        while not (self.state and predicate(self.state)):
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no such state within {timeout} s; last: {json.dumps(self.state)[:600]}")
            await self.next(left)
        return self.state

    async def wait_error(self, timeout: float = 10) -> Dict[str, Any]:
        """Reads frames until an error frame; returns it."""
        count = len(self.errors)
        while len(self.errors) == count:
            await self.next(timeout)
        return self.errors[-1]

    async def closed(self, timeout: float = 15) -> int:
        """Reads until the server closes the socket; its close code."""
        assert self.ws is not None
        while True:
            message = await self.ws.receive(timeout=timeout)
            if message.type == aiohttp.WSMsgType.CLOSE:
                return int(message.data)    # the code the server sent (close_code may say how *we* closed)
            if message.type in (aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.CLOSING):
                return self.ws.close_code or 0
            if message.type == aiohttp.WSMsgType.TEXT:
                self.frames.append(message.data)
                frame = json.loads(message.data)
                if "error" in frame:
                    self.errors.append(frame["error"])

    async def disconnect(self) -> None:
        if self.ws is not None:
            await self.ws.close()

    async def close(self) -> None:
        await self.disconnect()
        await self.http.close()


def results(state: Dict[str, Any]) -> List[Dict[str, Any]]:
    """Search's films (empty unless loaded)."""
    phase = state["search"]["results"]
    return phase["value"] if phase["phase"] == "loaded" else []


async def type_query(client: Client, text: str) -> Dict[str, Any]:
    """Types `text` key by key, then waits for its results."""
    for i in range(1, len(text) + 1):
        await client.send({"type": "queryChanged", "query": text[:i]})
    return await client.wait(lambda s: s["search"]["results"].get("query") == text.strip() and results(s))
