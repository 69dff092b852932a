"""The example catalog server (examples/catalog-server) on a free port, in a subprocess, for
the suites that talk to a live catalog over HTTP (test_offline_cache.py, test_http_provider.py,
test_terminal_offline.py): ``CatalogServer``, and the ``server`` fixture, imported by the test
modules that use it."""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.request
from typing import Any, Iterator

import pytest

from conftest import REPO

SERVER = REPO / "examples" / "catalog-server" / "server.py"


class CatalogServer:
    """examples/catalog-server on a free port, in a subprocess."""

    def __init__(self, *args: str) -> None:
        self.process = subprocess.Popen([sys.executable, str(SERVER), "--port", "0", "--quiet", *args],
                                        stdout=subprocess.PIPE, text=True)
        assert self.process.stdout is not None
        first = self.process.stdout.readline().strip()
        assert first.startswith("listening on http://"), first
        self.url = first.split()[-1]

    def control(self, **settings: Any) -> None:
        request = urllib.request.Request(self.url + "/_control", data=json.dumps(settings).encode(), method="POST")
        with urllib.request.urlopen(request, timeout=5) as response:
            assert response.status == 200

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)
        if self.process.stdout:
            self.process.stdout.close()


@pytest.fixture
def server() -> Iterator[CatalogServer]:
    running = CatalogServer()
    yield running
    running.stop()
