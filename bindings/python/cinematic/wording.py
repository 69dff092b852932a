"""The words and figures every host of the movie app shows for the same state, so the terminal
app and the desktop app say the same thing: what an empty list means and what to type, what
failed and what the person can do (with the host's own key), where shown results come from
(live, or saved earlier and when), and the rating histogram on a fixed 0–100% scale::

    from cinematic import wording
    wording.failure("Search failed", error, "Enter")   # ("Search failed: network: ...", "Check ... Enter tries again.")
    wording.bar_fraction(14.5)                       # 0.145: the bar's share of the whole width

The state itself (what is loading, failed, empty, offline) is the library's; this module only
words it.
"""

from __future__ import annotations

import time
from typing import Any, List, Mapping, Optional, Tuple, cast

__all__ = [
    "CATALOG", "HISTOGRAM_HEADING", "HISTOGRAM_NOTE", "SEARCH_IDLE", "bar_fraction", "count_text", "failure",
    "favorites_empty", "histogram", "saved_at", "search_empty", "section_empty", "source_note",
]

#: What the embedded catalog holds, in one phrase.
CATALOG = "58,788 films (1893-2005, IMDb figures from the ggplot2movies data set)"

#: Search before two characters are typed.
SEARCH_IDLE = (f"Type at least two characters to search {CATALOG}: a title ('dune'), a series "
               "('die hard 3'), or a title and a year ('king kong 1933').")

#: The histogram's heading and the note under it (the catalog's figures are 10-point bands).
HISTOGRAM_HEADING = "Share of votes per star rating (bars on a 0-100% scale)"
HISTOGRAM_NOTE = ("The catalog gives each share as a band of 10 points and shows its middle: "
                  "4.5% means 0-10%, 14.5% means 10-20%; so the shares need not add up to 100%.")


def search_empty(query: str) -> str:
    """A search that found nothing: what to try next."""
    return (f"No film in the catalog matches '{query.strip()}'. Try fewer words, another spelling, "
            "or part of the title; the catalog knows titles, years and genres.")


def section_empty(title: str) -> str:
    """A Discover section with no films."""
    return f"{title} has no films in this catalog."


def favorites_empty(heart_key: str) -> str:
    """The Favorites list with none yet; ``heart_key`` is the host's key for the heart."""
    return (f"No favorites yet. Open a film (Enter on a row) and press {heart_key} or click the heart; "
            "it is kept here, and in every app that shares your favorites file.")


def failure(what: str, error: Mapping[str, Any], retry_key: str, live_url: Optional[str] = None) -> Tuple[str, str]:
    """(what failed, what the person can do) for a failed load; ``what`` says what failed
    ("Search failed", "Could not load Popular") and ``retry_key`` is the host's key that
    tries again."""
    code, message = str(error.get("code", "unknown")), str(error.get("message", ""))
    said = f"{what}: {code}: {message}" if message else f"{what}: {code}"
    if code in ("network", "timeout"):
        where = f"the movie server at {live_url}" if live_url else "the movie server"
        advice = f"Nothing is saved for this yet. Check that {where} is running and reachable"
    elif code == "notFound":
        advice = "The catalog has no such film; go back and choose another"
    elif code == "storage":
        advice = "Check that the favorites file can be written (disk space, permissions)"
    elif code == "invalidResponse":
        advice = "The movie server answered something this app cannot read; check its version"
    else:
        advice = "Something unexpected went wrong"
    return said, f"{advice}; {retry_key} tries again."


def saved_at(seconds: float) -> str:
    """When a saved answer was saved: "14:03" today, else "2026-11-30 14:03"."""
    moment = time.localtime(seconds)
    today = time.localtime()
    same_day = (moment.tm_year, moment.tm_yday) == (today.tm_year, today.tm_yday)
    return time.strftime("%H:%M" if same_day else "%Y-%m-%d %H:%M", moment)


def source_note(phase: Mapping[str, object], live_url: Optional[str]) -> str:
    """Where a loaded value came from, for a live catalog: "live from URL", or offline, the
    source and the time of what is shown: "offline, showing saved results from 14:03 (URL
    does not answer)"; "" for the embedded catalog or a value not loaded."""
    source = phase.get("source") if phase.get("phase") == "loaded" else None
    if source == "cache":
        saved = saved_at(float(cast(int, phase.get("cachedAt", 0))))
        where = f"{live_url} does not answer" if live_url else "the movie server does not answer"
        return f"offline, showing saved results from {saved} ({where})"
    if source == "live":
        return f"live from {live_url}" if live_url else "live"
    return ""


def count_text(count: int, paged: Mapping[str, object]) -> str:
    """How many films a loaded, paged list shows: "N movies" once every page is loaded, else
    "N shown, more available" (the catalog does not say how many there are in all)."""
    if paged.get("isExhausted"):
        return f"{count} movie{'s' if count != 1 else ''}"
    return f"{count} shown, more available"


def histogram(distribution: List[float]) -> List[Tuple[int, float]]:
    """(stars, share in percent) from 10 stars down to 1, for ``ratingDistribution`` (the
    share of votes per star in percent); empty when there is none."""
    shares = [float(x) for x in distribution[:10]]
    return [(stars, shares[stars - 1]) for stars in range(len(shares), 0, -1)]


def bar_fraction(share: float) -> float:
    """A bar's length as a fraction of the whole width: the share on a fixed 0-100% scale
    (14.5% is 0.145 of the width, whatever the other bars are)."""
    return min(1.0, max(0.0, share / 100.0))
