"""What the ``cinematic`` command's subcommands do: search, discover and detail, each
answering with the text to write (see :mod:`cinematic.cli`)."""

from __future__ import annotations

import json
import shlex
from typing import Any, Dict, List, Mapping, NamedTuple

from . import wire
from .runtime import Runtime

__all__ = ["Failed", "Answer", "search", "discover", "detail", "TIMEOUT"]


class Failed(Exception):
    """The library answered with a failure phase."""


#: How long a command waits for the library's answer, in seconds.
TIMEOUT = 30.0


def _line(movie: Dict[str, Any]) -> str:
    return f"{movie['id']:>6}  {movie['title']} ({movie['year']})  {movie['rating']:.1f}/10, {movie['votes']:,} votes"


def _phase_value(phase: Mapping[str, Any]) -> Any:
    if phase["phase"] == "failed":
        error = phase["error"]
        raise Failed(f"{error['code']}: {error.get('message', '')}".rstrip(": "))
    return phase.get("value")


def _json_text(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False) + "\n"


class Answer(NamedTuple):
    """What a command writes: the answer (standard output) and notes on standard error,
    before it (a search's hint) and after it (more results exist)."""
    text: str
    before: str = ""
    after: str = ""


def search(runtime: Runtime, words: List[str], pages: int, as_json: bool) -> Answer:
    """``cinematic search WORDS --pages N``: the movies of the first ``pages`` pages, with a
    note on what the catalog cannot answer and the command that shows more."""
    query = " ".join(words)
    with runtime.search() as store:
        store.query_changed(query)
        store.submitted()
        # `submitted` reduces synchronously: a searchable query is loading now; a short one idle.
        state = store.wait_for(lambda s: s["results"]["phase"] != "loading", timeout=TIMEOUT)
        movies: List[Dict[str, Any]] = list(_phase_value(state["results"]) or [])
        while state["results"]["phase"] == "loaded" and state["pagesLoaded"] < pages and not state["isExhausted"]:
            wanted = state["pagesLoaded"] + 1
            store.load_more()
            state = store.wait_for(lambda s: s["pagesLoaded"] >= wanted or s["loadMoreError"] is not None, timeout=TIMEOUT)
            if state["loadMoreError"] is not None:
                raise Failed(state["loadMoreError"]["code"])
            movies = list(_phase_value(state["results"]) or [])
    if as_json:
        return Answer(_json_text(movies))
    # What the catalog cannot answer ("tom hanks": no people), then whether more results exist.
    found = state.get("hint")
    hint = f"note: {found['text']}\n" if found is not None else ""
    if not movies:
        return Answer(f"no movies match {query!r}\n", hint)
    more = ""
    if state["results"]["phase"] == "loaded" and not state["isExhausted"]:
        command = shlex.join(["cinematic", "search", *words, "--pages", str(state["pagesLoaded"] + 1)])
        more = f"{len(movies)} shown, more match: {command}\n"
    return Answer("".join(_line(movie) + "\n" for movie in movies), hint, more)


def discover(runtime: Runtime, section_id: str, as_json: bool) -> Answer:
    """``cinematic discover SECTION``: the section's title and its first page of movies."""
    with runtime.discover() as store:
        store.task()

        def section_of(state: wire.DiscoverState) -> wire.DiscoverSection:
            return next(s for s in state["sections"] if s["section"] == section_id)

        state = store.wait_for(lambda s: section_of(s)["movies"]["phase"] in ("loaded", "failed"), timeout=TIMEOUT)
        section = section_of(state)
        movies = list(_phase_value(section["movies"]) or [])
    if as_json:
        return Answer(_json_text(movies))
    return Answer(f"{section['title']}\n" + "".join(_line(movie) + "\n" for movie in movies))


def detail(runtime: Runtime, movie_id: int, as_json: bool) -> Answer:
    """``cinematic detail ID``: one movie's detail."""
    with runtime.detail(movie_id) as store:
        store.task()
        state = store.wait_for(lambda s: s["detail"]["phase"] in ("loaded", "failed"), timeout=TIMEOUT)
        movie = _phase_value(state["detail"])
    if as_json:
        return Answer(_json_text(movie))
    text = (f"{movie['title']} ({movie['year']})\n"
            f"  {', '.join(movie['genres']) or 'no genre'}; {movie['runtime']} min; MPAA {movie['mpaa'] or 'unknown'}\n"
            f"  rated {movie['rating']:.1f}/10 by {movie['votes']:,} IMDb users\n")
    if movie.get("budget"):
        text += f"  budget ${movie['budget']:,}\n"
    return Answer(text)

