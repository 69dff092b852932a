"""Movies for tests: as a provider answers them, or as a state shows them."""

from __future__ import annotations

from typing import Any, Dict

__all__ = ["movie", "movie_detail"]


def movie(id: int, title: str, year: int = 0, *, full: bool = False, **members: Any) -> Dict[str, Any]:
    """A movie as a provider answers it (``{"id", "title", "year", ...}``), or with ``full``
    as a state shows it (every member, defaults filled in: runtime 0, rating 0, votes 0,
    genres [], mpaa None)."""
    value: Dict[str, Any] = {"id": id, "title": title, "year": year}
    if full:
        value.update({"runtime": 0, "rating": 0, "votes": 0, "genres": [], "mpaa": None})
    value.update(members)
    return value


def movie_detail(id: int, title: str, year: int = 0, *, full: bool = False, **members: Any) -> Dict[str, Any]:
    """A movie's detail as a provider answers it, or with ``full`` as a state shows it
    (budget None, ratingDistribution [] added to :func:`movie`'s defaults)."""
    value = movie(id, title, year, full=full, **members)
    if full:
        value.setdefault("budget", None)
        value.setdefault("ratingDistribution", [])
    return value
