"""The names a wire file's prose uses are the wire's: in each code span (`queryChanged`,
`{"type":"added","movieId":1}`), a bare identifier, every camelCase word, every JSON member and
every `"type"` value must be a name the schema declares (a member, an intent type, a def, a
constant or an enum value), so a misspelled name in the prose fails `make generate` like one
in the declaration does, naming the file and line."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, List, Set

#: JSON's own words, which a code span may hold as they are.
JSON_WORDS = {"null", "true", "false"}
SPAN = re.compile(r"`([^`\n]+)`")
BLOCK = re.compile(r"^```json wire\n.*?^```\n?", re.S | re.M)


def declared_names(schema: Any) -> Set[str]:
    """Every member, intent type, def, constant and enum value the schema declares."""
    names: Set[str] = set(schema.get("$defs", {}))
    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "properties" and isinstance(value, dict):
                    names.update(value)
                elif key == "const" and isinstance(value, str):
                    names.add(value)
                elif key == "enum" and isinstance(value, list):
                    names.update(item for item in value if isinstance(item, str))
                walk(value)
        elif isinstance(node, list):
            for item in node:
                walk(item)
    walk(schema)
    return names


def span_names(span: str) -> List[str]:
    """The wire names a code span uses: itself when it is an identifier, its camelCase words,
    its JSON members and `"type"` values."""
    found = [span] if re.fullmatch(r"[a-z][A-Za-z0-9]*", span) and span not in JSON_WORDS else []
    found += re.findall(r"\b[a-z]+[A-Z][A-Za-z0-9]*\b", span)
    found += re.findall(r'"([a-z][A-Za-z0-9]*)"\s*:', span)
    found += re.findall(r'"type"\s*:\s*"([A-Za-z0-9]+)"', span)
    return list(dict.fromkeys(found))


def misnamed(path: Path, known: Set[str]) -> List[str]:
    """'FILE:LINE: `name` ...' for each name of the prose of the wire file at `path` that the
    schema does not declare."""
    text = path.read_text()
    prose = BLOCK.sub(lambda block: "\n" * block.group(0).count("\n"), text)   # lines kept
    problems = []
    for number, line in enumerate(prose.splitlines(), 1):
        for span in SPAN.findall(line):
            for name in span_names(span):
                if name not in known:
                    problems.append(f"{path.name}:{number}: `{name}` (in `{span}`) is no name the wire declares")
    return problems
