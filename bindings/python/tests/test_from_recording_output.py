"""``from_recording -o`` writes under the files rule: a test it wrote (or nothing) is replaced
atomically; another program's file, a symbolic link, a FIFO or a directory is refused with
one line and exit status 2, left unchanged, and no temporary file stays behind."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import hostile_recordings as hostile


@pytest.fixture(scope="module")
def recording(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("recording") / "host.jsonl"
    hostile.host_recording(path)
    return path


def write(recording: Path, output: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cinematic.testing.from_recording", str(recording), "-o", str(output)],
                          capture_output=True, text=True, timeout=60, cwd=str(hostile.REPO))


def test_a_test_it_wrote_is_replaced_and_nothing_else_is_left(recording, tmp_path):
    output = tmp_path / "test_session.py"
    assert write(recording, output).returncode == 0
    first = output.read_text()
    output.write_text(first.replace("def test_", "def test_old_"))   # still ours: its docstring
    done = write(recording, output)
    assert done.returncode == 0, done.stderr
    assert output.read_text() == first
    assert sorted(os.listdir(tmp_path)) == ["test_session.py"]


@pytest.mark.parametrize("kind", ["foreign", "symlink", "fifo", "directory"])
def test_what_it_did_not_write_is_refused_unchanged(recording, tmp_path, kind):
    output = tmp_path / "target.py"
    precious = tmp_path / "precious.py"
    precious.write_text("print('mine')\n")
    if kind == "foreign":
        output.write_text("print('mine')\n")
    elif kind == "symlink":
        output.symlink_to(precious)
    elif kind == "fifo":
        os.mkfifo(output)
    else:
        output.mkdir()
    before = sorted(os.listdir(tmp_path))
    done = write(recording, output)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "from_recording: " in done.stderr, done.stderr
    assert precious.read_text() == "print('mine')\n"
    if kind == "foreign":
        assert output.read_text() == "print('mine')\n"
    assert sorted(os.listdir(tmp_path)) == before, "no temporary file is left"
