#!/usr/bin/env python3
"""Writes the C header that compiles a catalog index's stamp into the library.

    tools/index-stamp.py INDEX HEADER [TOUCH]

Reads the `meta` table of INDEX (format, data, library: see CatalogIndex.swift) and writes
HEADER defining CATALOG_INDEX_STAMP as "<format>\\t<data>\\t<library>", which
Sources/CinematicCatalogData/catalog_data.c returns from catalog_index_stamp(): the library
checks its embedded index's stamp without opening SQLite. HEADER is rewritten only when its
text changes, and then TOUCH (the C file including it) is touched so that it is compiled again.
"""
import os
import sqlite3
import sys


def main() -> None:
    index, header = sys.argv[1], sys.argv[2]
    touch = sys.argv[3] if len(sys.argv) > 3 else None
    connection = sqlite3.connect(f"file:{index}?mode=ro&immutable=1", uri=True)
    meta = dict(connection.execute("SELECT key, value FROM meta"))
    connection.close()
    fields = [meta["format"], meta["data"], meta["library"]]
    if any("\t" in field or '"' in field or "\\" in field for field in fields):
        sys.exit(f"index-stamp: {index}'s stamp holds a tab, quote or backslash: {fields}")
    text = '#define CATALOG_INDEX_STAMP "%s"\n' % "\\t".join(fields)
    if os.path.exists(header) and open(header).read() == text:
        return
    with open(header + ".new", "w") as out:
        out.write(text)
    os.replace(header + ".new", header)
    if touch:
        os.utime(touch)


if __name__ == "__main__":
    main()
