#!/usr/bin/env python3
"""Which sections of two builds of a library differ (`make dist-check` prints it on a mismatch).

  tools/elf-diff.py FIRST SECOND

Lists each section whose bytes differ, with its size and how many bytes differ, loaded
sections (code and data a host runs) apart from the rest (debug information, symbol tables).
"""
from __future__ import annotations

import sys
from pathlib import Path

from elf_sections import SHF_ALLOC, SHT_NOBITS, sections

def contents(data: bytes) -> dict[str, tuple[bytes, bool]]:
    """Section name -> (its bytes, whether it is loaded)."""
    return {name: (b"" if section.kind == SHT_NOBITS else data[section.offset:section.offset + section.size],
                   bool(section.flags & SHF_ALLOC)) for name, section in sections(data).items()}


def main() -> int:
    first, second = (contents(Path(path).read_bytes()) for path in sys.argv[1:3])
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
