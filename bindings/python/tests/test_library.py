"""Loading the library: lookup order, the error naming everything tried, versions."""

from __future__ import annotations

import ctypes.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import cinematic
from cinematic import _native
from conftest import REPO

PACKAGE = Path(cinematic.__file__).resolve().parent


def run_python(code: str, cwd: Path, env_extra: dict, pythonpath: Path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("CINEMATIC_LIBRARY", "PYTHONPATH", "LD_LIBRARY_PATH")}
    env.update(env_extra)
    env["PYTHONPATH"] = str(pythonpath)
    return subprocess.run([sys.executable, "-c", code], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=60)


def test_versions_match():
    assert cinematic.library_version() == cinematic.HEADER_VERSION == cinematic.__version__
    assert Path(cinematic.library_path()).name.startswith("libcinematic.so")


def test_lookup_order():
    paths = _native.candidate_paths()
    assert paths[0] == os.environ.get("CINEMATIC_LIBRARY", str(PACKAGE / "libcinematic.so.0"))
    repo_build = str(REPO / "build" / "lib" / "libcinematic.so.0")
    assert repo_build in paths
    assert str(Path.cwd() / "build" / "lib" / "libcinematic.so.0") in paths
    # The environment variable, then the bundled copy, come before the build output.
    bundled = paths.index(str(PACKAGE / "libcinematic.so.0"))
    assert bundled <= 1 and bundled < paths.index(repo_build)


@pytest.mark.skipif(ctypes.util.find_library("cinematic") is not None,
                    reason="libcinematic is installed system-wide: the lookup cannot fail")
def test_missing_library_error_names_everything_tried(tmp_path):
    copy = tmp_path / "site"
    shutil.copytree(PACKAGE, copy / "cinematic", ignore=shutil.ignore_patterns("*.so*", "__pycache__"))
    result = run_python(
        "import cinematic\n"
        "try:\n"
        "    cinematic.library_version()\n"
        "except cinematic.LibraryNotFoundError as error:\n"
        "    print(error)\n"
        "    print('TRIED', len(error.tried))\n",
        cwd=tmp_path, env_extra={"CINEMATIC_LIBRARY": str(tmp_path / "nowhere.so")}, pythonpath=copy)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert str(tmp_path / "nowhere.so") in out and "CINEMATIC_LIBRARY" in out
    assert str(copy / "cinematic" / "libcinematic.so.0") in out          # bundled copy
    assert str(tmp_path / "build" / "lib" / "libcinematic.so.0") in out   # walk up / cwd
    assert "find_library" in out                                         # the system
    assert "make lib" in out


def test_environment_variable_wins(tmp_path):
    copy = tmp_path / "libcinematic-copy.so"
    shutil.copy(REPO / "build" / "lib" / "libcinematic.so.0", copy)
    result = run_python("import cinematic; print(cinematic.library_path())", cwd=tmp_path,
                        env_extra={"CINEMATIC_LIBRARY": str(copy)}, pythonpath=PACKAGE.parent)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == str(copy)


def test_bundled_copy_and_cwd_build(tmp_path):
    # A copy of the package with no repository around it finds the library in the current
    # directory's build/lib (a venv inside the repository, run from the repository root).
    site = tmp_path / "venv" / "site"
    shutil.copytree(PACKAGE, site / "cinematic", ignore=shutil.ignore_patterns("*.so*", "__pycache__"))
    work = tmp_path / "work"
    (work / "build" / "lib").mkdir(parents=True)
    shutil.copy(REPO / "build" / "lib" / "libcinematic.so.0", work / "build" / "lib" / "libcinematic.so.0")
    result = run_python("import cinematic; print(cinematic.library_path())", cwd=work,
                        env_extra={}, pythonpath=site)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == str(work / "build" / "lib" / "libcinematic.so.0")
    # A bundled copy next to the module wins over the build output.
    shutil.copy(REPO / "build" / "lib" / "libcinematic.so.0", site / "cinematic" / "libcinematic.so.0")
    result = run_python("import cinematic; print(cinematic.library_path())", cwd=work,
                        env_extra={}, pythonpath=site)
    assert result.stdout.strip() == str(site / "cinematic" / "libcinematic.so.0")


def test_installed_package_is_typed():
    assert (PACKAGE / "py.typed").exists()
