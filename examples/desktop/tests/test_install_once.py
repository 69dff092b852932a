"""Setup installs once (issue 34, "Install once"): with everything present, ensure-qt.sh and
ensure-xvfb.sh install nothing, run after run (apt-get is stubbed: a call is written down, never
made); when something is missing, root gets apt-get and anyone else the exact command."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
from pathlib import Path
from typing import Dict, List, Tuple

import pytest

from conftest import REPO

HERE = REPO / "examples" / "desktop"
QT_PACKAGES = "libgl1 libegl1 libxkbcommon0 libfontconfig1 libdbus-1-3 libglib2.0-0 fonts-dejavu-core"


def script(path: Path, text: str) -> Path:
    path.write_text(text)
    path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return path


def stubs(tmp_path: Path, uid: int) -> Tuple[Dict[str, str], Path]:
    """An environment whose apt-get (and sudo) only write their arguments to a log, and whose
    ``id -u`` says ``uid``."""
    bin_dir = tmp_path / "stub-bin"
    bin_dir.mkdir(exist_ok=True)
    log = tmp_path / "apt.log"
    script(bin_dir / "apt-get", f'#!/bin/sh\necho "apt-get $*" >> "{log}"\n')
    script(bin_dir / "sudo", f'#!/bin/sh\necho "sudo $*" >> "{log}"\n')
    script(bin_dir / "id", f'#!/bin/sh\nif [ "$1" = -u ]; then echo {uid}; else exec /usr/bin/id "$@"; fi\n')
    env = dict(os.environ, PATH=f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    return env, log


def apt_calls(log: Path) -> List[str]:
    return log.read_text().splitlines() if log.exists() else []


def test_with_everything_present_nothing_is_installed_run_after_run(tmp_path: Path) -> None:
    env, log = stubs(tmp_path, uid=0)          # as root: the old scripts would call apt-get
    for _ in range(5):                         # the old font check failed 4 runs in 5
        qt = subprocess.run([str(HERE / "ensure-qt.sh")], env=env, capture_output=True, text=True, timeout=300)
        assert qt.returncode == 0, qt.stderr
        assert "installing" not in qt.stderr, qt.stderr
        vpy = qt.stdout.strip()
        xvfb = subprocess.run([str(HERE / "ensure-xvfb.sh"), vpy], env=env, capture_output=True, text=True, timeout=300)
        assert xvfb.returncode == 0, xvfb.stderr
        assert "installing" not in xvfb.stderr, xvfb.stderr
    assert apt_calls(log) == []


def scratch_tree(tmp_path: Path, python: str) -> Path:
    """A copy of the scripts over a venv whose python is ``python`` (a stub)."""
    root = tmp_path / "repo"
    (root / "tools").mkdir(parents=True)
    (root / "examples" / "desktop").mkdir(parents=True)
    for name in ("ensure-qt.sh", "ensure-xvfb.sh"):
        shutil.copy2(HERE / name, root / "examples" / "desktop" / name)
    stub_python = script(tmp_path / "python", python)
    script(root / "tools" / "ensure-venv.sh", f'#!/bin/sh\necho "{stub_python}"\n')
    return root


# A venv whose PySide6 imports but whose Qt cannot start (a system library is missing).
QT_BROKEN = '#!/bin/sh\ncase "$2" in *pytestqt*) exit 0;; *) exit 1;; esac\n'


@pytest.mark.parametrize("uid", [1000, 0])
def test_qt_that_cannot_start_is_installed_as_root_and_told_otherwise(tmp_path: Path, uid: int) -> None:
    root = scratch_tree(tmp_path, QT_BROKEN)
    env, log = stubs(tmp_path, uid)
    done = subprocess.run([str(root / "examples" / "desktop" / "ensure-qt.sh")], env=env, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 1
    if uid == 0:
        assert apt_calls(log)[-1].endswith(f"install -y -qq {QT_PACKAGES}"), apt_calls(log)
        assert "still does not start" in done.stderr
    else:
        assert apt_calls(log) == []
        assert f"sudo apt-get install -y {QT_PACKAGES}" in done.stderr.splitlines()[-1]


def test_missing_x_libraries_tell_a_user_the_exact_command(tmp_path: Path) -> None:
    fake_qt = tmp_path / "qt-lib"
    fake_qt.mkdir()
    shutil.copy2("/bin/true", fake_qt / "libQt6XcbQpa.so.6")      # ldd reads it: nothing missing
    # libXtst does not load: that alone is "missing".
    root = scratch_tree(tmp_path, f'#!/bin/sh\ncase "$2" in *PySide6.__file__*) echo "{fake_qt}";; *) exit 1;; esac\n')
    env, log = stubs(tmp_path, uid=1000)
    done = subprocess.run([str(root / "examples" / "desktop" / "ensure-xvfb.sh"), str(tmp_path / "python")],
                          env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and apt_calls(log) == []
    assert done.stderr.splitlines()[-1].strip().startswith("sudo apt-get install -y xvfb libxcb-cursor0"), done.stderr
