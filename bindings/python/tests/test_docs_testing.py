"""docs/testing.md cannot rot: its Python examples run here with pytest, its Kotlin example
is the Kotlin suite's TestStoreDocTest and its C example the C suite's test_search_dune
(both checked to be the same text as the page)."""

from __future__ import annotations

import re
import subprocess
import sys

from conftest import REPO

DOC = (REPO / "docs" / "testing.md").read_text()


def blocks(language: str):
    return re.findall(rf"```{language}\n(.*?)```", DOC, re.S)


def test_the_python_examples_pass(tmp_path):
    examples = blocks("python")
    assert len(examples) >= 2
    for index, code in enumerate(examples):
        (tmp_path / f"test_example_{index}.py").write_text(code)
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(tmp_path)],
                         cwd=str(tmp_path), capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    assert f"{len(examples)} passed" in run.stdout


def test_the_kotlin_example_is_the_one_the_kotlin_suite_runs():
    [example] = blocks("kotlin")
    source = (REPO / "bindings/kotlin/jvm/src/test/kotlin/cinematic/tests/TestStoreDocTest.kt").read_text()
    assert example in source
    assert "typingDuneSearchesOnceAfterTheDebounce()" in source.split(example)[1]


def test_the_c_example_is_the_one_test_c_runs():
    [example] = blocks("c")
    source = (REPO / "Tests/c/test_teststore.c").read_text()
    assert example in source
    assert "RUN_TEST(test_search_dune);" in source
