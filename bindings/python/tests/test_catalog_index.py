"""The catalog index from Python: build one from a movie file, open it by path, bad input."""
import os

import pytest

import cinematic

HEADER = "id\ttitle\tyear\tlength\tbudget\trating\tvotes\t" + "\t".join(f"r{i}" for i in range(1, 11)) + "\tmpaa\tgenres\n"


def film(id_, title, votes):
    return f"{id_}\t{title}\t1999\t100\t\t7.5\t{votes}\t" + "\t".join(["4.5"] * 10) + "\tPG\tDrama\n"


def test_an_index_of_your_own_is_built_and_searched(tmp_path):
    movies, index = tmp_path / "movies.tsv", tmp_path / "movies.idx"
    movies.write_text(HEADER + film(1, "Matrix, The", 1000) + film(2, "Zardoz", 50))
    cinematic.build_index(movies, index)
    with cinematic.Runtime({"catalog": {"path": str(index)}}) as rt, rt.search() as s:
        s.query_changed("zardos")
        s.settle(timeout=30)
        assert [m["title"] for m in s.state["results"]["value"]] == ["Zardoz"]
        assert rt.catalog_state() == {"phase": "loaded"}


def test_the_embedded_catalog_is_loaded_or_loading_never_failed():
    with cinematic.Runtime() as rt:
        state = rt.catalog_state()
        assert state["phase"] in ("loading", "loaded")
        if state["phase"] == "loading":
            assert 0 <= state["progress"] <= 1
    with cinematic.Runtime({"catalog": "host"}) as rt:
        assert rt.catalog_state() == {"phase": "loaded"}


def test_a_malformed_line_is_named_and_nothing_is_written(tmp_path):
    movies, index = tmp_path / "movies.tsv", tmp_path / "movies.idx"
    movies.write_text(HEADER + film(1, "Fine", 3) + "2\tBroken\n")
    with pytest.raises(cinematic.CinematicIOError, match="line 3"):
        cinematic.build_index(movies, index)
    assert sorted(os.listdir(tmp_path)) == ["movies.tsv"]


def test_a_file_that_is_not_an_index_is_refused_untouched(tmp_path):
    notes = tmp_path / "notes.txt"
    notes.write_bytes(b"not an index")
    with pytest.raises(cinematic.CinematicIOError, match="not a cinematic catalog index"):
        cinematic.Runtime({"catalog": {"path": str(notes)}})
    assert notes.read_bytes() == b"not an index"


def test_a_path_that_is_not_utf8_is_refused_and_nothing_is_written(tmp_path):
    movies = tmp_path / "movies.tsv"
    movies.write_text(HEADER + film(1, "Fine", 3))
    index = os.fsdecode(os.fsencode(tmp_path) + b"/caf\xe9.idx")   # a str holding a non-UTF-8 byte
    with pytest.raises(cinematic.InvalidError, match="index_path is not valid UTF-8"):
        cinematic.build_index(movies, index)
    assert sorted(os.listdir(tmp_path)) == ["movies.tsv"]
    cinematic.build_index(movies, tmp_path / "café ★.idx")   # UTF-8 is used byte for byte
    assert sorted(os.listdir(tmp_path)) == ["café ★.idx", "movies.tsv"]


def test_bounds_of_a_movie_file_are_named(tmp_path):
    movies, index = tmp_path / "movies.tsv", tmp_path / "movies.idx"
    movies.write_text(HEADER + film(1, "x" * 1025, 3))
    with pytest.raises(cinematic.CinematicIOError, match="line 2: the title is 1025 characters long"):
        cinematic.build_index(movies, index)
    movies.write_text(HEADER + film(1, "Fine", 3).replace("\t4.5\t", "\tnan\t", 1))
    with pytest.raises(cinematic.CinematicIOError, match='line 2: r1 "nan" is not a number in 0...100'):
        cinematic.build_index(movies, index)
    assert sorted(os.listdir(tmp_path)) == ["movies.tsv"]
