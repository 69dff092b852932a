#!/usr/bin/env python3
"""Prints the C header that compiles a catalog index's stamp into the library.

    tools/index-stamp.py INDEX > HEADER

Reads the `meta` table of INDEX (format, data, library: see CatalogIndex.swift) and prints a
header defining CATALOG_INDEX_STAMP as "<format>\\t<data>\\t<library>", which
Sources/CinematicCatalogData/catalog_data.c returns from catalog_index_stamp(): the library
checks its embedded index's stamp without opening SQLite. `make lib` writes it beside the
index, replacing the header only when its text changed (replace_if_changed, mk/build.mk).
"""
import sqlite3
import sys


def main() -> None:
    index = sys.argv[1]
    connection = sqlite3.connect(f"file:{index}?mode=ro&immutable=1", uri=True)
    meta = dict(connection.execute("SELECT key, value FROM meta"))
    connection.close()
    fields = [meta["format"], meta["data"], meta["library"]]
    if any("\t" in field or '"' in field or "\\" in field for field in fields):
        sys.exit(f"index-stamp: {index}'s stamp holds a tab, quote or backslash: {fields}")
    print('#define CATALOG_INDEX_STAMP "%s"' % "\\t".join(fields))


if __name__ == "__main__":
    main()
