"""`import cinematic` imports only what every caller uses (ctypes, json, typing, threading):
asyncio, logging, subprocess (ctypes.util), pathlib, the wire TypedDicts, the HTTP provider and
the testing helpers are imported by the features that need them, when they are first used,
and every public name still resolves. Checked in fresh interpreters through ``sys.modules``
(what the import costs is measured by `make bench`: bindings/python/bench_import.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Set

import cinematic

#: Modules `import cinematic` must not import (beyond what `import ctypes, json` imports).
LAZY = (
    "asyncio", "cinematic.aio", "concurrent.futures", "logging", "ctypes.util", "subprocess",
    "pathlib", "cinematic._wire_types", "cinematic.http_provider", "cinematic.hosting",
    "cinematic.testing", "cinematic.cli", "cinematic.replay", "socket", "ssl", "tempfile",
    "urllib.parse",
)


def modules_after(code: str) -> Set[str]:
    """The modules loaded in a fresh interpreter after running `code` (which must succeed)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = str(Path(cinematic.__file__).resolve().parents[1])
    result = subprocess.run(
        [sys.executable, "-c", code + "\nimport json as _j, sys as _s\nprint(_j.dumps(sorted(_s.modules)))"],
        env=env, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    return set(json.loads(result.stdout.splitlines()[-1]))


def test_import_cinematic_imports_nothing_lazy():
    baseline = modules_after("import ctypes, json")
    added = modules_after("import cinematic") - baseline
    assert "cinematic.store" in added and "cinematic.runtime" in added  # (the check sees imports)
    assert sorted(added & set(LAZY)) == []


def test_every_public_name_still_resolves():
    # Star import walks __all__, lazy names included; each is the object its module defines.
    loaded = modules_after(
        "import cinematic\n"
        "names = {}\n"
        "exec('from cinematic import *', names)\n"
        "missing = [n for n in cinematic.__all__ if n not in names]\n"
        "assert not missing, missing\n"
        "from cinematic.aio import StateStream\n"
        "assert names['StateStream'] is StateStream is cinematic.StateStream\n"
        "assert cinematic.__version__ == cinematic.wire.VERSION\n"
        "try:\n"
        "    cinematic.NoSuchName\n"
        "except AttributeError as error:\n"
        "    assert 'NoSuchName' in str(error)\n"
        "else:\n"
        "    raise AssertionError('cinematic.NoSuchName resolved')\n")
    assert {"asyncio", "cinematic.aio"} <= loaded


def test_lazy_state_stream_imports_asyncio_when_asked_for():
    loaded = modules_after("import cinematic, sys\n"
                           "assert 'asyncio' not in sys.modules\n"
                           "stream = cinematic.StateStream\n"
                           "assert stream.__module__ == 'cinematic.aio'\n"
                           "from cinematic import StateStream\n"
                           "assert StateStream is stream")
    assert {"asyncio", "cinematic.aio"} <= loaded


def test_wire_types_are_built_when_first_asked_for():
    loaded = modules_after(
        "import sys, typing\n"
        "from cinematic import wire\n"
        "assert 'cinematic._wire_types' not in sys.modules\n"
        "assert wire.SECTION_ID_VALUES[0] == 'popular' and wire.ERR_INVALID == 2\n"
        "from cinematic.wire import Movie\n"
        "assert typing.is_typeddict(Movie) and 'title' in Movie.__annotations__\n"
        "assert wire.SearchState is sys.modules['cinematic._wire_types'].SearchState\n"
        "assert set(wire.TYPE_NAMES) <= set(dir(wire))\n"
        "try:\n"
        "    wire.NoSuchType\n"
        "except AttributeError as error:\n"
        "    assert 'NoSuchType' in str(error)\n"
        "else:\n"
        "    raise AssertionError('wire.NoSuchType resolved')\n")
    assert "cinematic._wire_types" in loaded


def test_a_synchronous_host_never_imports_asyncio_or_logging():
    loaded = modules_after(
        "import cinematic, sys\n"
        "with cinematic.Runtime() as runtime, runtime.search() as search:\n"
        "    search.query_changed('dune')\n"
        "    search.settle(10)\n"
        "    assert search.state['results']['phase'] == 'loaded'\n"
        "    assert 'asyncio' not in sys.modules, 'a synchronous host needs no asyncio'\n"
        "    assert 'logging' not in sys.modules, 'nothing failed: nothing was logged'\n"
        "    stream = search.states()\n"
        "    assert type(stream).__name__ == 'StateStream'\n")
    assert "asyncio" in loaded
