#!/usr/bin/env python3
"""Makes a linked Swift library's bytes a function of its sources (`make lib`, for `make dist`).

  tools/normalize-elf.py LIBRARY

swiftc stamps every module it compiles with a module hash (the `.swift_modhash` section,
16 bytes per module) that differs from one compile of the same sources to the next, and the
linker's build id is a hash of the output, so it differs with it. Nothing reads either at
run time (the section is for linkers and debuggers; the build id names the file for
debuggers). This rewrites both in place, keeping the file's layout: the module hashes become
zeros, and the build id becomes the SHA-1 of the file with both zeroed, so it still
identifies the content. Idempotent.
"""
from __future__ import annotations

import hashlib
import struct
import sys
from pathlib import Path

from elf_sections import sections


def normalize(path: Path) -> str:
    """Zeroes the module hashes and recomputes the build id; returns the new build id."""
    data = bytearray(path.read_bytes())
    table = sections(bytes(data))
    if ".swift_modhash" in table:
        offset, size = table[".swift_modhash"].offset, table[".swift_modhash"].size
        data[offset:offset + size] = bytes(size)
    build_id = ""
    if ".note.gnu.build-id" in table:
        offset, size = table[".note.gnu.build-id"].offset, table[".note.gnu.build-id"].size
        name_size, desc_size, _ = struct.unpack_from("<III", data, offset)
        desc = offset + 12 + (name_size + 3) // 4 * 4
        data[desc:desc + desc_size] = bytes(desc_size)
        digest = hashlib.sha1(data).digest()[:desc_size]
        data[desc:desc + desc_size] = digest
        build_id = digest.hex()
    path.write_bytes(data)
    return build_id


if __name__ == "__main__":
    for argument in sys.argv[1:]:
        print(f"normalize-elf: {argument}: build id {normalize(Path(argument))}")
