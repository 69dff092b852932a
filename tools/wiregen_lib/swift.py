"""Swift and C: Sources/Cinematic/Generated, the header block."""

from __future__ import annotations

import re
from typing import Any, Dict, List, Optional, Tuple

from .schema import *  # noqa: F401,F403

# --------------------------------------------------------------------------------------
# Swift and C

def swift(meta: Schema) -> str:
    cases = "\n".join(f"    /// {s['doc']}\n    case {camel(s['name'])} = {s['value']}" for s in meta["statuses"])
    names = "\n".join(f'        case .{camel(s["name"])}: "{s["name"]}"' for s in meta["statuses"])
    return f"""{HEADER.replace('/*', '//').replace(' */', '')}

/// The library's version (CINEMATIC_VERSION in include/cinematic.h, `cinematic_version()`).
let libraryVersion: StaticString = "{meta['version']}"

/// The statuses of the C API, as in include/cinematic.h. Values never change (the ABI only grows).
enum Status: Int32, Sendable, CaseIterable {{
{cases}

    /// The static name `cinematic_status_name` returns.
    var name: StaticString {{
        switch self {{
{names}
        }}
    }}
}}
"""


def camel(snake: str) -> str:
    head, *rest = snake.split("_")
    return head + "".join(part.capitalize() for part in rest)


def header_block(meta: Schema) -> str:
    major, minor, patch = meta["version"].split(".")
    lines = [
        "/* BEGIN GENERATED: version and statuses (tools/wiregen.py from schema/cinematic.schema.json) */",
        "/** The version this header describes. Compare with cinematic_version() at run time. */",
        f"#define CINEMATIC_VERSION_MAJOR {major}",
        f"#define CINEMATIC_VERSION_MINOR {minor}",
        f"#define CINEMATIC_VERSION_PATCH {patch}",
        f'#define CINEMATIC_VERSION "{meta["version"]}"',
        "/** MAJOR * 10000 + MINOR * 100 + PATCH, for compile-time comparisons. */",
        f"#define CINEMATIC_VERSION_NUMBER {version_number(meta['version'])}",
        "",
        "/** Statuses: every function returns one (as int). Values never change; new ones may be",
        " *  added. cinematic_status_name gives the name in parentheses. */",
        "typedef enum cinematic_status {",
    ]
    for i, status in enumerate(meta["statuses"]):
        comma = "," if i < len(meta["statuses"]) - 1 else ""
        lines.append(f"    CINEMATIC_{status['constant']} = {status['value']}{comma} /**< {status['doc']} (\"{status['name']}\") */")
    lines.append("} cinematic_status;")
    lines.append("/* END GENERATED */")
    return "\n".join(lines)


def splice(text: str, block: str) -> str:
    pattern = re.compile(r"/\* BEGIN GENERATED: version and statuses.*?/\* END GENERATED \*/", re.S)
    if not pattern.search(text):
        raise SystemExit("include/cinematic.h has no GENERATED markers")
    return pattern.sub(lambda _: block, text)
