"""Every claim of the help texts, run (issue 25, "help that matches"): `cinematic --help`
and its commands' help (the jar prints the same texts: bindings/kotlin/jvm/cli-parity.py
checks that case for case), the module's examples, the exit statuses the epilog lists, and
the terminal and desktop apps' `--help` against their options.

The "years are understood" claim of `search` is checked like the others (issue 25, "Queries
people type": a year alone lists that year's films, most popular first)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from typing import List, Tuple

import pytest

from conftest import REPO

ENV = dict(os.environ, COLUMNS="80", PYTHONPATH=str(REPO / "bindings" / "python"), PYTHONIOENCODING="utf-8")


def cinematic(*args: str) -> Tuple[int, str, str]:
    done = subprocess.run([sys.executable, "-m", "cinematic", *args], capture_output=True, text=True,
                          timeout=120, env=ENV, cwd="/")
    return done.returncode, done.stdout, done.stderr


def first_titles(out: str, count: int = 3) -> List[str]:
    return [line.split("  ")[1] if "  " in line.strip() else line for line in out.strip().splitlines()[:count]]


def test_the_help_lists_every_command_and_option_the_parser_has() -> None:
    status, out, _ = cinematic("--help")
    assert status == 0
    from cinematic.cli import _parser
    parser = _parser()
    commands = next(a for a in parser._actions if a.dest == "command").choices  # type: ignore[attr-defined]
    for name in commands:
        assert re.search(rf"^\s+{name}\s+\S", out, re.M), f"{name} is not in --help:\n{out}"
        status, sub, _ = cinematic(name, "--help")
        assert status == 0
        for action in commands[name]._actions:
            for flag in action.option_strings:
                assert flag in sub, f"{name} {flag} missing from its help"
    for flag in ("--help", "--version", "--json"):
        assert flag in out


def test_the_documented_examples_do_what_the_help_says() -> None:
    # "what to search for, e.g. godfather 2"; numerals are understood (2 = II)
    status, out, _ = cinematic("search", "godfather", "2")
    assert status == 0 and "The Godfather: Part II (1974)" in out.splitlines()[0]
    # typos are understood
    status, out, _ = cinematic("search", "godfathr")
    assert status == 0 and "The Godfather (1972)" in out.splitlines()[0]
    # "the movie's id, e.g. 15249"
    status, out, _ = cinematic("detail", "15249")
    assert status == 0 and out.startswith("Dune (1984)\n")
    # the module's examples: search dune [--json], discover --section topRated, detail 15249
    status, out, _ = cinematic("search", "dune")
    assert status == 0 and "Dune (1984)" in out.splitlines()[0] and len(out.splitlines()) <= 20  # the first page
    status, out, _ = cinematic("search", "dune", "--json")
    import json
    movies = json.loads(out)
    assert status == 0 and movies[0]["title"] == "Dune" and movies[0]["year"] == 1984
    status, out, _ = cinematic("discover", "--section", "topRated")
    assert status == 0 and out.startswith("Top rated\n") and len(out.splitlines()) > 10
    # "cinematic discover top_rated  # or topRated, toprated, --section topRated"; the help of
    # discover: "any case, with or without _ or - (top_rated)"
    for spelling in (["top_rated"], ["topRated"], ["toprated"], ["TOP-RATED"], ["--section", "top_rated"]):
        assert cinematic("discover", *spelling) == (status, out, ""), spelling
    # --pages N: pages of 20 results
    status, out, _ = cinematic("search", "love", "--pages", "2")
    assert status == 0 and len(out.splitlines()) == 40
    # "(58,788 films)": the catalog's size, as the embedded catalog reports it
    status, out, _ = cinematic("--help")
    assert "58,788 films" in out


def test_years_are_understood_as_the_search_help_says() -> None:
    status, out, _ = cinematic("search", "1994")
    assert status == 0 and "(1994)" in out.splitlines()[0], out


def test_the_exit_statuses_of_the_epilog() -> None:
    _, help_text, _ = cinematic("--help")
    listed = dict(re.findall(r"^  (\d+)\s+(\S.*)$", help_text.split("exit status:")[1], re.M))
    assert set(listed) == {"0", "1", "2", "3", "130"}, listed
    assert cinematic("search", "zzzqqqxx")[0] == 0                      # a search may find nothing
    assert cinematic("detail", "99999999")[0] == 1                      # e.g. notFound
    for args in (["bogus"], ["discover", "--section", "nope"], ["search", "d"], ["search", "a" * 257],
                 ["detail", "x"], ["detail", "0"], ["search", "dune", "--pages", "0"]):
        assert cinematic(*args)[0] == 2, args                           # bad usage


def test_the_terminal_app_help_lists_the_options_its_docstring_documents() -> None:
    done = subprocess.run([str(REPO / "examples" / "python" / "run.sh"), "--help"], capture_output=True,
                          text=True, timeout=60, env=dict(ENV, PYTHON=sys.executable))
    assert done.returncode == 0, done.stderr
    sys.path.insert(0, str(REPO / "examples" / "python"))
    import cinematic_tui.app as app
    documented = set(re.findall(r"``(--[a-z]+)", app.__doc__ or ""))
    shown = set(re.findall(r"(--[a-z]+)", done.stdout)) - {"--help"}
    assert documented == shown, (documented, shown)
    assert "python -m cinematic.replay FILE" in done.stdout   # run by test_terminal_debug.py's replays
    assert "$XDG_DATA_HOME/cinematic/favorites.sqlite" in done.stdout  # test_terminal_app checks the file


def test_the_desktop_app_help() -> None:
    pytest.importorskip("PySide6")
    done = subprocess.run([sys.executable, "-m", "cinematic_desktop", "--help"], capture_output=True, text=True,
                          timeout=60, env=dict(ENV, PYTHONPATH=os.pathsep.join(
                              [str(REPO / "bindings" / "python"), str(REPO / "examples" / "python"),
                               str(REPO / "examples" / "desktop")]), QT_QPA_PLATFORM="offscreen"))
    assert done.returncode == 0, done.stderr
    for flag in ("--favorites", "--catalog", "--record", "--live"):
        assert flag in done.stdout
