"""The section table of a 64-bit little-endian ELF file, read once for the ELF tools.

Used by tools/normalize-elf.py (every `make lib`) and tools/elf-diff.py (`make dist-check`).
"""
from __future__ import annotations

import struct
from typing import NamedTuple


class Section(NamedTuple):
    """One section header: its name, type (SHT_*), flags (SHF_*), file offset and size."""
    name: str
    kind: int
    flags: int
    offset: int
    size: int


SHT_NOBITS = 8
SHF_ALLOC = 0x2


def sections(data: bytes) -> dict[str, Section]:
    """Section name -> its header; SystemExit when ``data`` is not a 64-bit little-endian ELF file."""
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        raise SystemExit("not a 64-bit little-endian ELF file")
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    headers = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize) for i in range(shnum)]
    names = headers[shstrndx][4]
    found = {}
    for name, kind, flags, _addr, offset, size, *_ in headers:
        label = data[names + name:data.index(b"\0", names + name)].decode()
        found[label] = Section(label, kind, flags, offset, size)
    return found
