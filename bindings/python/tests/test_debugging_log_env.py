"""Debugging from Python: the CINEMATIC_LOG variable. "stderr" logs there, empty is unset,
and any other value is reported once per process on stderr (without control characters)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest


# A child process that opens two runtimes, searches in each and closes them: what does it
# write on stderr for a CINEMATIC_LOG value?
_OPEN_TWO_RUNTIMES = """
import cinematic
for _ in range(2):
    with cinematic.Runtime() as runtime, runtime.search() as store:
        store.query_changed("dune")
        store.submitted()
        store.wait_for(lambda s: s["results"]["phase"] == "loaded", timeout=30)
print("done")
"""


def _stderr_with_log(value: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "CINEMATIC_LOG": value}
    return subprocess.run([sys.executable, "-c", _OPEN_TWO_RUNTIMES], env=env, capture_output=True,
                          text=True, timeout=120)


@pytest.mark.parametrize("value", ["STDERR", "stdout", "1", "debug"])
def test_an_unknown_cinematic_log_value_is_reported_once_on_stderr(value: str):
    done = _stderr_with_log(value)
    assert done.returncode == 0 and done.stdout == "done\n", done.stderr
    lines = done.stderr.splitlines()
    # One line for the whole process (two runtimes opened), naming the value and the one
    # value understood; nothing is logged.
    assert lines == [f'cinematic: CINEMATIC_LOG="{value}" is not understood (the only value is "stderr"); not logging']


def test_an_unknown_cinematic_log_value_is_shown_without_control_characters():
    done = _stderr_with_log("x\x1b[2Jy")
    assert done.stderr == 'cinematic: CINEMATIC_LOG="x?[2Jy" is not understood (the only value is "stderr"); not logging\n'


def test_an_empty_cinematic_log_is_unset_and_stderr_logs():
    assert _stderr_with_log("").stderr == ""
    logged = _stderr_with_log("stderr").stderr.splitlines()
    assert logged and all(" search#" in line or " runtime " in line for line in logged), logged[:5]
