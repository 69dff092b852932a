"""The ``cinematic`` command's arguments: its argparse parser, with the checks of IDs, page
counts and Discover sections (see :mod:`cinematic.cli`)."""

from __future__ import annotations

import argparse
import re
from typing import Callable

from . import wire

__all__ = ["parser", "MAX_ID", "MAX_PAGES"]

#: The largest movie ID (IDs are 64-bit on the wire) and the most pages a search may load.
MAX_ID = 2 ** 63 - 1
MAX_PAGES = 1000

_EPILOG = """exit status:
  0    answered (a search may find nothing; also when a pipe's reader went away early)
  1    failed: the library reported a failure (e.g. notFound), or the answer could not be
       written (standard output closed or full)
  2    bad usage (unknown command or section, a query under 2 or over 256 characters, an ID
       or --pages not a whole number in ASCII digits within range, an argument not UTF-8)
  3    the library could not be loaded
  130  interrupted"""


def _whole_number(low: int, high: int) -> Callable[[str], int]:
    """An argparse type: ASCII digits only (int() also takes "\u0663", "+3", " 3" and "1_0"),
    from ``low`` to ``high``."""
    def parse(text: str) -> int:
        if re.fullmatch(r"[0-9]{1,20}", text) is None or not low <= int(text) <= high:
            raise argparse.ArgumentTypeError(f"must be a whole number from {low} to {high} in ASCII digits, not {text!r}")
        return int(text)
    return parse


def _section_key(text: str) -> str:
    return re.sub(r"[_\-\s]", "", text).lower()


#: Each section by its key: lowercase, without _ or - ("top_rated", "TopRated" and "toprated"
#: are topRated).
_SECTIONS = {_section_key(section): section for section in wire.SECTION_ID_VALUES}


def _section(text: str) -> str:
    """An argparse type: a Discover section in any spelling people type."""
    section = _SECTIONS.get(_section_key(text))
    if section is None:
        raise argparse.ArgumentTypeError(f"unknown section {text!r} (choose from {', '.join(wire.SECTION_ID_VALUES)})")
    return section



def parser() -> argparse.ArgumentParser:
    """The parser of the ``cinematic`` command line (its ``--help`` lists the exit statuses)."""
    parser = argparse.ArgumentParser(
        prog="cinematic",
        description="Search, discover and look up movies in the Cinematic catalog (58,788 films).",
        epilog=_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"cinematic {wire.VERSION}")
    parser.add_argument("--json", action="store_true", help="print the answer as JSON")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    search = commands.add_parser(
        "search", help="search titles (typos, numerals, years, decades and genres are understood: 1994, 90s comedy); "
                       "standard error says what the catalog cannot answer (people, genres it lacks) and when more "
                       "results exist")
    search.add_argument("query", nargs="+", help="what to search for, e.g. godfather 2")
    search.add_argument("--pages", type=_whole_number(1, MAX_PAGES), default=1, metavar="N",
                        help=f"pages of 20 results to show (default 1, at most {MAX_PAGES})")
    discover = commands.add_parser("discover", help="a browsing section")
    discover.add_argument("section", nargs="?", type=_section, metavar="SECTION",
                          help=f"{', '.join(wire.SECTION_ID_VALUES)} (default: popular); "
                               "any case, with or without _ or - (top_rated)")
    discover.add_argument("--section", dest="section_option", type=_section, metavar="SECTION",
                          help="the same as SECTION")
    detail = commands.add_parser("detail", help="one movie by its id")
    detail.add_argument("movie_id", type=_whole_number(1, MAX_ID), metavar="ID", help="the movie's id, e.g. 15249")
    for sub in (search, discover, detail):
        sub.add_argument("--json", action="store_true", default=argparse.SUPPRESS, help="print the answer as JSON")
    return parser

