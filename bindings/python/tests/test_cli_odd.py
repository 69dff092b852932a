"""The `cinematic` console script in odd situations (issue 26, item 6), as a subprocess: a
closed or full standard output, a closed pipe, arguments that are not UTF-8, IDs out of range,
negative or in another script's digits, empty arguments. Each gets a one-line message and
the documented exit status (cinematic.cli: 0 answered, 1 failed, 2 bad usage), never a
traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Union

import pytest

import cinematic
from cinematic import cli

Arg = Union[str, bytes]
PACKAGE_ROOT = Path(cinematic.__file__).resolve().parent.parent


def command() -> List[str]:
    """The installed console script when the imported package is the installed one (the venv
    of run-tests.sh), else ``python -m cinematic`` on the imported package's sources."""
    script = Path(sys.executable).with_name("cinematic")
    installed = Path(cinematic.__file__).resolve().is_relative_to(Path(sys.prefix).resolve())
    return [str(script)] if script.exists() and installed else [sys.executable, "-m", "cinematic"]


def environment() -> Dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(PACKAGE_ROOT), env.get("PYTHONPATH")]))
    return env


def run(args: Sequence[Arg], shell_redirect: str = "", stdout: Optional[int] = subprocess.PIPE,
        stdout_file: Optional[str] = None) -> subprocess.CompletedProcess:  # type: ignore[type-arg]
    """Runs the console script with ``args`` (str or raw bytes). ``shell_redirect`` (e.g.
    ``>&-``) is applied by ``sh`` around an ``exec`` of it."""
    argv: List[Arg] = [*command(), *args]
    if shell_redirect:
        argv = ["sh", "-c", f'exec "$@" {shell_redirect}', "sh", *argv]
    if stdout_file is not None:
        with open(stdout_file, "wb") as sink:
            return subprocess.run(argv, stdout=sink, stderr=subprocess.PIPE, env=environment(), timeout=120)
    return subprocess.run(argv, stdout=stdout, stderr=subprocess.PIPE, env=environment(), timeout=120)


def message(result: subprocess.CompletedProcess) -> str:  # type: ignore[type-arg]
    text: str = result.stderr.decode("utf-8", "replace")
    assert "Traceback" not in text and "Exception ignored" not in text, text
    return text


@pytest.mark.parametrize("args,fragment", [
    (["detail", "99999999999999999999"], "from 1 to 9223372036854775807"),
    (["detail", "9223372036854775808"], "from 1 to 9223372036854775807"),
    (["detail", "\u0663"], "ASCII digits"),              # an Arabic-Indic three is not the id 3
    (["detail", "\uff11\uff15\uff12\uff14\uff19"], "ASCII digits"),   # full-width 15249
    (["detail", "-5"], "from 1"),
    (["detail", "0"], "from 1"),
    (["detail", "+3"], "ASCII digits"),
    (["detail", " 3"], "ASCII digits"),
    (["detail", "1_0"], "ASCII digits"),
    (["detail", ""], "ASCII digits"),
    (["detail"], "required"),
    (["search", "dune", "--pages", "\u0663"], "ASCII digits"),
    (["search", "dune", "--pages", "0"], "from 1 to 1000"),
    (["search", "dune", "--pages", "99999999999999999999"], "from 1 to 1000"),
    ([], "required"),
    ([""], "invalid choice"),
    (["search", ""], "at least 2 characters"),
    (["search"], "required"),
    ([b"search", b"du\xffne"], "not valid UTF-8: 'du\\xffne'"),
    ([b"detail", b"\xff"], "not valid UTF-8"),
    ([b"\xc3"], "not valid UTF-8"),
], ids=lambda value: repr(value)[:40] if isinstance(value, list) else None)
def test_odd_arguments_are_usage_errors_with_a_message(args: List[Arg], fragment: str) -> None:
    result = run(args)
    assert result.returncode == cli.EXIT_USAGE and result.stdout == b""
    assert fragment in message(result)


def test_a_closed_stdout_is_a_failure_with_a_message() -> None:
    result = run(["search", "dune"], shell_redirect=">&-", stdout=None)
    assert result.returncode == cli.EXIT_FAILED
    assert "standard output is closed" in message(result)


def test_help_to_a_closed_stdout_is_a_failure_too() -> None:
    result = run(["--help"], shell_redirect=">&-", stdout=None)
    assert result.returncode == cli.EXIT_FAILED and "standard output is closed" in message(result)


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
@pytest.mark.parametrize("args", [["search", "dune"], ["--json", "search", "love", "--pages", "3"], ["--help"]])
def test_a_full_stdout_is_a_failure_with_a_message(args: List[str]) -> None:
    result = run(args, stdout_file="/dev/full")
    assert result.returncode == cli.EXIT_FAILED
    assert "cannot write the answer to standard output: No space left on device" in message(result)


def test_closed_stdout_and_stderr_still_exit_with_the_status() -> None:
    result = run(["search", "dune"], shell_redirect=">&- 2>&-", stdout=None)
    assert result.returncode == cli.EXIT_FAILED and result.stderr == b""


def test_a_pipe_closed_before_the_answer_is_not_an_error() -> None:
    process = subprocess.Popen([*command(), "--json", "search", "love", "--pages", "5"], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, env=environment())
    assert process.stdout is not None and process.stderr is not None
    process.stdout.close()                         # `| head -c0`: nobody will read
    err = process.stderr.read()
    assert process.wait(timeout=120) == cli.EXIT_OK and err == b""


def test_a_pipe_closed_after_one_byte_is_not_an_error() -> None:
    """`cinematic ... | head -c1`, with an answer larger than a pipe's buffer."""
    process = subprocess.Popen([*command(), "--json", "search", "love", "--pages", "20"], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, env=environment())
    assert process.stdout is not None and process.stderr is not None
    assert process.stdout.read(1) == b"["
    process.stdout.close()
    err = process.stderr.read()
    assert process.wait(timeout=120) == cli.EXIT_OK and err == b""


def test_the_exit_statuses_are_in_the_help() -> None:
    result = run(["--help"])
    out = result.stdout.decode()
    assert result.returncode == 0 and "exit status:" in out
    for line in ("0    answered", "1    failed", "2    bad usage", "3    the library", "130  interrupted"):
        assert line in out


def test_an_id_in_range_still_answers() -> None:
    result = run(["detail", "15249"])
    assert result.returncode == 0 and result.stdout.startswith(b"Dune (1984)\n")
    result = run(["detail", "9223372036854775807"])
    assert result.returncode == cli.EXIT_FAILED and "notFound" in message(result)
