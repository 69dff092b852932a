"""The `cinematic` command line (cinematic.cli), in process against the built library.

The installed console script is exercised from a scratch venv by `make test-wheel`."""

import io
import json
from typing import List, Tuple

import pytest

from cinematic import cli


def run(*argv: str) -> Tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = cli.main(list(argv), out=out, err=err)
    return status, out.getvalue(), err.getvalue()


def test_search_prints_the_best_match_first() -> None:
    status, out, err = run("search", "dune")
    assert status == cli.EXIT_OK, err
    assert "Dune (1984)" in out.splitlines()[0]


def test_search_words_are_one_query_and_json_is_a_list_of_movies() -> None:
    status, out, _ = run("--json", "search", "star", "wras")
    movies = json.loads(out)
    assert status == 0 and movies[0]["title"] == "Star Wars" and {"id", "year", "votes"} <= set(movies[0])


def test_pages_load_more_results() -> None:
    _, one, _ = run("--json", "search", "love")
    _, three, _ = run("--json", "search", "love", "--pages", "3")
    assert len(json.loads(one)) == 20
    assert len(json.loads(three)) == 60 and json.loads(three)[:20] == json.loads(one)


def test_search_says_when_more_results_exist_and_how_to_get_them() -> None:
    status, out, err = run("search", "love")
    assert status == 0 and len(out.splitlines()) == 20
    assert err == "20 shown, more match: cinematic search love --pages 2\n"
    status, out, err = run("search", "the", "man", "--pages", "2")
    assert status == 0 and len(out.splitlines()) == 40
    assert err == "40 shown, more match: cinematic search the man --pages 3\n"
    # All of them shown: nothing more to say; JSON output says nothing on standard error.
    status, out, err = run("search", "godfather part ii")
    assert status == 0 and "The Godfather: Part II (1974)" in out.splitlines()[0] and len(out.splitlines()) < 20
    assert err == ""
    assert run("--json", "search", "love")[2] == ""


def test_search_says_what_the_catalog_cannot_answer() -> None:
    status, out, err = run("search", "tom", "hanks")
    assert status == 0
    assert err.startswith("note: \u201cTom Hanks\u201d looks like a person: the catalog knows films by title, year and genre")
    status, out, err = run("search", "horror")
    assert status == 0 and "Horror" in out.splitlines()[0]      # the titles holding the word, still listed
    assert err.startswith("note: The catalog has no horror genre: its genres are Action, Animation, Comedy,")
    assert err.endswith("more match: cinematic search horror --pages 2\n")
    assert run("search", "annie", "hall")[2] == ""               # a title, not a person


def test_nothing_found_is_an_answer() -> None:
    # With what the catalog holds (issue "Search that knows a film by every name").
    assert run("search", "qqxqqxqqz") == (0, "no movies match 'qqxqqxqqz'\n",
                                          "note: No film in the catalog matches “qqxqqxqqz”: it holds 58,788 films from 1893 to 2005 "
                                          "(IMDb's figures as of 2005, via R's ggplot2movies; ASCII titles only).\n")


def test_a_query_the_library_finds_too_short_answers_at_once() -> None:
    # Two code points, one character for the library ("e" + a combining acute): idle, not a wait.
    assert run("search", "e\u0301") == (0, "no movies match 'e\u0301'\n", "")


def test_detail_and_a_missing_movie() -> None:
    status, out, _ = run("detail", "15249")
    assert status == 0 and out.startswith("Dune (1984)\n")
    status, out, err = run("detail", "999999999")
    assert (status, out) == (cli.EXIT_FAILED, "") and "notFound" in err


def test_discover_a_section() -> None:
    status, out, _ = run("discover", "--section", "topRated")
    assert status == 0 and out.splitlines()[0] == "Top rated" and "The Shawshank Redemption" in out.splitlines()[1]


@pytest.mark.parametrize("argv", [
    ["discover", "top_rated"], ["discover", "toprated"], ["discover", "topRated"], ["discover", "Top-Rated"],
    ["discover", "--section", "top_rated"], ["discover", "--section=TOPRATED"], ["discover", "--json", "top_rated"],
    ["discover", "top_rated", "--section", "topRated"],
])
def test_a_section_as_people_type_it(argv: List[str]) -> None:
    """The section as a word after discover or with --section; any case, with or without _ or -."""
    status, out, err = run(*argv)
    assert (status, err) == (0, ""), err
    if "--json" in argv:
        assert json.loads(out)[0]["title"] == "The Shawshank Redemption"
    else:
        assert out.splitlines()[0] == "Top rated" and "The Shawshank Redemption" in out.splitlines()[1]
    status, out, _ = run("discover", "comedy")
    assert status == 0 and out.splitlines()[0] == "Comedy"


def test_a_section_given_twice_differently_or_unknown_is_bad_usage(capsys: pytest.CaptureFixture[str]) -> None:
    assert run("discover", "comedy", "--section", "drama") == (
        cli.EXIT_USAGE, "", "cinematic: two sections given: comedy and drama\n")
    status, _, err = run("discover", "top_ratd")
    err += capsys.readouterr().err
    assert status == cli.EXIT_USAGE and "unknown section 'top_ratd' (choose from popular, topRated," in err


@pytest.mark.parametrize("argv", [
    ["discover", "--section", "nope"], ["frobnicate"], [], ["detail", "dune"], ["search", "a" * 300],
    ["search", "a"], ["search", " ", " "],
])
def test_bad_usage_is_status_2_with_a_message(argv: List[str], capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(*argv)
    assert status == cli.EXIT_USAGE and out == ""
    assert err or capsys.readouterr().err   # argparse writes its usage to sys.stderr


def test_a_library_that_cannot_load_is_status_3(monkeypatch: pytest.MonkeyPatch) -> None:
    import cinematic._native as native

    def missing() -> None:
        raise native.LibraryNotFoundError(["/nowhere/libcinematic.so.0: not found"])

    monkeypatch.setattr(native, "lib", missing)
    status, out, err = run("search", "dune")
    assert status == cli.EXIT_NO_LIBRARY and out == "" and "/nowhere/libcinematic.so.0" in err
