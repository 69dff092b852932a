"""The catalog server's films: the shipped movie file in memory (:class:`Catalog`) with the
lists the API serves, and its searches answered by libcinematic's own engine
(:class:`LibrarySearch`)."""

from __future__ import annotations

import gzip
import sys
import tempfile
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

__all__ = ["Catalog", "LibrarySearch", "BadSearch", "Movie", "page_of", "display_title", "shown_names", "import_cinematic",
           "PAGE_SIZE", "TOP_RATED_MIN_VOTES", "ARTICLES", "REPO", "DEFAULT_DATA", "SEARCH_TIMEOUT"]

PAGE_SIZE = 20
TOP_RATED_MIN_VOTES = 1000
ARTICLES = {"The", "A", "An", "La", "Le", "Les", "El", "Il", "L'", "Der", "Die", "Das", "Du", "Des", "De"}
REPO = Path(__file__).resolve().parents[2]
DEFAULT_DATA = REPO / "data" / "ggplot2movies.tsv.gz"
#: The names shown beside the shipped films' titles (the library embeds the same file).
ALTERNATE_TITLES = REPO / "data" / "alternate-titles.tsv"
#: Seconds a search may take in the library before the request fails with 503.
SEARCH_TIMEOUT = 30.0

Movie = Dict[str, Any]

def display_title(title: str) -> str:
    """"Godfather, The" -> "The Godfather"."""
    head, sep, article = title.rpartition(", ")
    if sep and article in ARTICLES:
        return f"{article}{'' if article.endswith(chr(39)) else ' '}{head}"
    return title


def shown_names(path: Path) -> Dict[int, str]:
    """Per film id, the English name shown beside its title (data/alternate-titles.tsv: the
    first line of kind "title"), as the library shows it: "Shichinin no samurai (Seven Samurai)"."""
    names: Dict[int, str] = {}
    with open(path, encoding="utf-8") as lines:
        header = next(lines).rstrip("\n").split("\t")
        for line in lines:
            row = dict(zip(header, line.rstrip("\n").split("\t")))
            if row.get("kind", "title") == "title":
                names.setdefault(int(row["id"]), row["alternate"])
    return names


def import_cinematic() -> Any:
    """The ``cinematic`` package: installed, or this repository's ``bindings/python``."""
    try:
        import cinematic
    except ImportError:
        sys.path.insert(0, str(REPO / "bindings" / "python"))
        import cinematic
    return cinematic


class BadSearch(Exception):
    """A search the library refuses (a query over 256 characters): 400."""


class LibrarySearch:
    """Search answered by libcinematic's own engine, so the live and embedded answers agree.

    The shipped movie file is the one compiled into the library: its embedded catalog is
    used as is. Another ``--data`` file is indexed (``cinematic.build_index``) into a
    temporary directory when the server starts.
    """

    def __init__(self, data: Path) -> None:
        self.cinematic = import_cinematic()
        self.directory: Optional[tempfile.TemporaryDirectory] = None
        catalog: Any = "embedded"
        if data.resolve() != DEFAULT_DATA.resolve():
            self.directory = tempfile.TemporaryDirectory(prefix="cinematic-catalog-server-")
            index = Path(self.directory.name) / "catalog.idx"
            self.cinematic.build_index(str(data), str(index))
            catalog = {"path": str(index)}
        self.runtime = self.cinematic.Runtime({"catalog": catalog})

    def close(self) -> None:
        """Closes the runtime and removes the temporary index, if any."""
        self.runtime.close()
        if self.directory is not None:
            self.directory.cleanup()

    def search(self, query: str, page: int) -> Tuple[List[int], int, bool]:
        """The ids of page ``page`` of ``query``'s results, how many results were read, and
        whether more remain. Raises BadSearch for a query the library refuses."""
        store = self.runtime.search()
        try:
            try:
                store.query_changed(query)
            except self.cinematic.InvalidError as error:
                raise BadSearch(str(error)) from None
            store.submitted()
            store.settle(SEARCH_TIMEOUT)
            state = store.state
            while state["pagesLoaded"] < page and not state["isExhausted"] and state["results"]["phase"] == "loaded":
                store.load_more()
                store.settle(SEARCH_TIMEOUT)
                state = store.state
                if state["loadMoreError"] is not None:
                    raise RuntimeError(f"search {query!r}: {state['loadMoreError']}")
        finally:
            store.close()
        results = state["results"]
        if results["phase"] == "idle":
            return [], 0, False
        if results["phase"] != "loaded":
            raise RuntimeError(f"search {query!r}: {results}")
        ids = [movie["id"] for movie in results["value"]]
        start = (page - 1) * PAGE_SIZE
        return ids[start:start + PAGE_SIZE], len(ids), not state["isExhausted"]


class Catalog:
    """The films in memory, with the lists the API serves."""

    def __init__(self, path: Path, searcher: Optional[LibrarySearch] = None) -> None:
        self.movies: Dict[int, Movie] = {}
        self.details: Dict[int, Movie] = {}
        self.searcher = searcher
        shown = shown_names(ALTERNATE_TITLES) if path.resolve() == DEFAULT_DATA.resolve() else {}
        with gzip.open(path, "rt", encoding="utf-8") as lines:
            header = next(lines).rstrip("\n").split("\t")
            for line in lines:
                row = dict(zip(header, line.rstrip("\n").split("\t")))
                movie: Movie = {
                    "id": int(row["id"]), "title": display_title(row["title"])
                    + (f" ({shown[int(row['id'])]})" if int(row["id"]) in shown else ""),
                    "release_year": int(row["year"] or 0), "runtime": int(row["length"] or 0),
                    "vote_average": float(row["rating"] or 0), "vote_count": int(row["votes"] or 0),
                    "genres": [g for g in row["genres"].split(",") if g],
                    "certification": row["mpaa"] or None,
                }
                self.movies[movie["id"]] = movie
                self.details[movie["id"]] = {
                    **movie, "budget": int(row["budget"]) if row["budget"] else None,
                    "rating_distribution": [float(row[f"r{i}"] or 0) for i in range(1, 11)],
                }
        by_votes = sorted(self.movies.values(), key=lambda m: (-m["vote_count"], m["id"]))
        self.popular = by_votes
        self.top_rated = sorted((m for m in by_votes if m["vote_count"] >= TOP_RATED_MIN_VOTES),
                                key=lambda m: (-m["vote_average"], -m["vote_count"], m["id"]))
        self.genres: Dict[str, List[Movie]] = {}
        for movie in by_votes:
            for genre in movie["genres"]:
                self.genres.setdefault(genre.lower(), []).append(movie)

    def search(self, query: str, page: int) -> Dict[str, Any]:
        """Page ``page`` of the films ``query`` finds, by the library's search (see
        LibrarySearch): the body of GET /search/movie. Raises BadSearch."""
        assert self.searcher is not None, "no LibrarySearch"
        ids, found, more = self.searcher.search(query, page)
        pages = (found + PAGE_SIZE - 1) // PAGE_SIZE
        return {"page": page, "results": [self.movies[i] for i in ids if i in self.movies],
                "total_pages": max(pages, page + 1) if more else pages, "total_results": found}


def page_of(movies: List[Movie], page: int) -> Dict[str, Any]:
    """Page ``page`` (20 films) of ``movies``: the body of a list request."""
    start = (page - 1) * PAGE_SIZE
    return {"page": page, "results": movies[start:start + PAGE_SIZE],
            "total_pages": (len(movies) + PAGE_SIZE - 1) // PAGE_SIZE, "total_results": len(movies)}
