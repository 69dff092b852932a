#!/usr/bin/env python3
"""Check data/alternate-titles.tsv against the catalog data/ggplot2movies.tsv.gz.

Every line of alternate-titles.tsv names one catalog film by id, title, year and length
and gives one other name people use for it (an English release title of a film stored
under its original title, or a common short name). This proves each line lands on the
film it names and is well formed:

  - the header is exactly: id catalog_title year length alternate kind source
  - every line has 7 tab-separated fields
  - kind is "title" (an English release title of a film stored under another language's
    title: the app shows it beside the stored one) or "alias" (another name people use for
    it: found, not shown)
  - the id is in the catalog, and catalog_title, year and length equal that row's
  - alternate is non-empty, at most 200 bytes, printable ASCII (so no tab), with no
    leading or trailing space
  - alternate is not the stored title again once both are normalized (lowercased, a
    leading or trailing article such as ", The" / ", Il" / ", L'" dropped, punctuation
    dropped)
  - no (id, alternate) pair appears twice
  - source is non-empty printable ASCII

  tools/check-alternate-titles.py [--tsv FILE] [--catalog FILE]

Exit status 0 with a one-line summary, or 1 with one line per problem naming the line.
"""
from __future__ import annotations

import argparse
import gzip
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HEADER = ["id", "catalog_title", "year", "length", "alternate", "kind", "source"]
KINDS = ("title", "alias")
MAX_ALTERNATE_BYTES = 200
#: Articles the catalog moves to the end of a title ("Godfather, The", "Boot, Das").
ARTICLES = (
    "the a an il la le les l' lo gli i un una une uno das der die den det de het een ein "
    "eine el los las o os as ta to"
).split()
_WORDS = "|".join(re.escape(a) for a in sorted(ARTICLES, key=len, reverse=True) if a != "l'")
TRAILING_ARTICLE = re.compile(rf",\s*(?:{_WORDS}|l')$")
LEADING_ARTICLE = re.compile(rf"^(?:(?:{_WORDS})\s+|l'\s*)")


def normalize(title: str) -> str:
    """The title lowercased, without a leading/trailing article or punctuation."""
    text = title.lower().strip()
    text = TRAILING_ARTICLE.sub("", text)
    text = LEADING_ARTICLE.sub("", text, count=1)
    text = re.sub(r"[^a-z0-9]+", " ", text)
    return " ".join(text.split())


def printable(text: str) -> bool:
    return all(" " <= ch <= "~" for ch in text)


def read_catalog(path: Path) -> dict[str, list[str]]:
    """Catalog rows by id: [id, title, year, length, ...]."""
    rows: dict[str, list[str]] = {}
    with gzip.open(path, "rt", encoding="ascii", newline="\n") as handle:
        next(handle)
        for line in handle:
            fields = line.rstrip("\n").split("\t")
            rows[fields[0]] = fields
    return rows


def check(tsv: Path, catalog: dict[str, list[str]]) -> tuple[list[str], int, int]:
    """Problems found (one per line), and the number of titles and of films."""
    problems: list[str] = []
    seen: set[tuple[str, str]] = set()
    films: set[str] = set()
    titles = 0
    shown = tsv.resolve().relative_to(ROOT) if tsv.resolve().is_relative_to(ROOT) else tsv
    # latin-1 maps each byte to one character, so lengths are byte counts
    lines = tsv.read_bytes().decode("latin-1").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if not lines or lines[0].split("\t") != HEADER:
        problems.append(f"{shown}:1: header must be exactly: {' '.join(HEADER)} (tab-separated)")
    for number, line in enumerate(lines[1:], start=2):
        where = f"{shown}:{number}"
        fields = line.split("\t")
        if len(fields) != len(HEADER):
            problems.append(f"{where}: {len(fields)} fields, expected {len(HEADER)}")
            continue
        film_id, title, year, length, alternate, kind, source = fields
        if kind not in KINDS:
            problems.append(f"{where}: kind {kind!r} is not one of {', '.join(KINDS)}")
        row = catalog.get(film_id)
        if row is None:
            problems.append(f"{where}: id {film_id!r} is not in the catalog")
        else:
            for name, value, expected in (("catalog_title", title, row[1]),
                                          ("year", year, row[2]), ("length", length, row[3])):
                if value != expected:
                    problems.append(f"{where}: {name} {value!r} but catalog id {film_id} has {expected!r}")
        size = len(alternate)
        if not alternate:
            problems.append(f"{where}: alternate is empty")
        elif size > MAX_ALTERNATE_BYTES:
            problems.append(f"{where}: alternate is {size} bytes (limit {MAX_ALTERNATE_BYTES})")
        if not printable(alternate):
            problems.append(f"{where}: alternate {alternate!r} is not printable ASCII")
        elif alternate != alternate.strip():
            problems.append(f"{where}: alternate {alternate!r} has leading or trailing space")
        if alternate and row is not None and normalize(alternate) == normalize(row[1]):
            problems.append(f"{where}: alternate {alternate!r} is the stored title {row[1]!r} again")
        if (film_id, alternate) in seen:
            problems.append(f"{where}: alternate {alternate!r} for id {film_id} appears twice")
        seen.add((film_id, alternate))
        if not source.strip():
            problems.append(f"{where}: source is empty")
        elif not printable(source):
            problems.append(f"{where}: source {source!r} is not printable ASCII")
        titles += 1
        films.add(film_id)
    return problems, titles, len(films)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tsv", type=Path, default=ROOT / "data" / "alternate-titles.tsv")
    parser.add_argument("--catalog", type=Path, default=ROOT / "data" / "ggplot2movies.tsv.gz")
    args = parser.parse_args(argv)
    problems, titles, films = check(args.tsv, read_catalog(args.catalog))
    for problem in problems:
        print(problem)
    if problems:
        return 1
    print(f"alternate titles: {titles} titles for {films} films, checked against the catalog")
    return 0


if __name__ == "__main__":
    sys.exit(main())
