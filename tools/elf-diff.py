#!/usr/bin/env python3
"""Which sections of two builds of a library differ (`make dist-check` prints it on a mismatch).

  tools/elf-diff.py FIRST SECOND

Lists each section whose bytes differ, with its size and how many bytes differ, loaded
sections (code and data a host runs) apart from the rest (debug information, symbol tables).
"""
from __future__ import annotations

import struct
import sys
from pathlib import Path

SHF_ALLOC = 0x2


def sections(data: bytes) -> dict[str, tuple[bytes, bool]]:
    """Section name -> (its bytes, whether it is loaded) of a 64-bit little-endian ELF file."""
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    headers = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize) for i in range(shnum)]
    names = headers[shstrndx][4]
    found = {}
    for name, kind, flags, _addr, offset, size, *_ in headers:
        label = data[names + name:data.index(b"\0", names + name)].decode()
        found[label] = (b"" if kind == 8 else data[offset:offset + size], bool(flags & SHF_ALLOC))
    return found


def main() -> int:
    first, second = (sections(Path(path).read_bytes()) for path in sys.argv[1:3])
    differing = 0
    for name in sorted(set(first) | set(second)):
        a, loaded = first.get(name, (b"", False))
        b, _ = second.get(name, (b"", False))
        if a != b:
            differing += 1
            changed = sum(x != y for x, y in zip(a, b)) + abs(len(a) - len(b))
            print(f"elf-diff: {'loaded' if loaded else 'not loaded'} section {name}: {len(a)} / {len(b)} bytes, "
                  f"{changed} differ")
    print(f"elf-diff: {differing} section(s) differ")
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main())
