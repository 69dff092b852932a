"""Every API name the Python README spells exists (issue 38, item 2): the converse of
test_readme_api, which checks that every name of the code appears in the README.

In the README's code (blocks and spans): `runtime.X`, `cinematic.X`, `wire.X`, `store.X` and
every `...Store` class name must name something the package has. In the feature table, each
row's opener, store class, helpers and wire intent types must belong together: the helper
`load_more()` of `SearchStore` exists and sends `"loadMore"`, one of that store's intents."""

from __future__ import annotations

import importlib.util
import inspect
import re
from typing import List, Optional

import cinematic
import cinematic.testing
import cinematic.wire
from test_readme_api import KOTLIN, README, code_of, kotlin_public_api

#: Every public member of a store class of the package (what `store.X` may name).
STORE_MEMBERS = {name for _, cls in inspect.getmembers(cinematic, inspect.isclass)
                 if issubclass(cls, cinematic.Store) for name in dir(cls) if not name.startswith("_")}


#: `cinematic.X` names that are files, not Python: the C header, the wheel's library folder.
NOT_PYTHON = {"h", "libs"}


def camel(snake: str) -> str:
    head, *rest = snake.split("_")
    return head + "".join(word.title() for word in rest)


def unknown_in_code(markdown: str) -> List[str]:
    """Names in the README's code that the package does not have."""
    missing = []
    for text in code_of(markdown):
        missing += [f"runtime.{n}" for n in re.findall(r"\bruntime\.(\w+)", text) if not hasattr(cinematic.Runtime, n)]
        missing += [f"cinematic.{n}" for n in re.findall(r"(?<![/\w.])cinematic\.(\w+)\b(?!\.json)", text)
                    if not hasattr(cinematic, n) and not hasattr(cinematic.testing, n)
                    and importlib.util.find_spec(f"cinematic.{n}") is None and n not in NOT_PYTHON]
        missing += [f"wire.{n}" for n in re.findall(r"(?<![/\w])wire\.(\w+)", text)
                    if not hasattr(cinematic.wire, n) and n != "py"]
        missing += [f"store.{n}" for n in re.findall(r"\bstore\.(\w+)", text) if n not in STORE_MEMBERS]
        missing += [n for n in re.findall(r"\b([A-Z]\w*Store)\b", text)
                    if not hasattr(cinematic, n) and not hasattr(cinematic.testing, n)]
    return sorted(set(missing))


def table_mismatches(markdown: str) -> List[str]:
    """Rows of the feature table whose opener, class, helpers and intents do not belong together."""
    problems: List[str] = []
    store: Optional[type] = None
    for line in markdown.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) != 4 or not line.startswith("|") or "\"type\"" not in cells[3]:
            continue
        if cells[0]:   # a feature's first row: `feature` (`runtime.opener(...)`) | `Class`, `wire.State`
            feature = re.match(r"`(\w+)`", cells[0])
            opener = re.search(r"`runtime\.(\w+)\(", cells[0])
            name = re.match(r"`(\w+)`", cells[1])
            store = getattr(cinematic, name.group(1), None) if name else None
            if store is None or feature is None or store.FEATURE != feature.group(1):
                problems.append(f"{line}: no store class of feature {feature and feature.group(1)}")
                store = None
            elif opener is None or not hasattr(cinematic.Runtime, opener.group(1)):
                problems.append(f"{line}: no opener runtime.{opener and opener.group(1)}")
        if store is None:
            continue
        helpers = re.findall(r"`(\w+)\(", cells[2])
        intents = re.findall(r"\"type\": \"(\w+)\"", cells[3])
        problems += [f"{line}: {store.__name__} has no {helper}()" for helper in helpers if not hasattr(store, helper)]
        problems += [f"{line}: {intent!r} is not one of {store.INTENTS}" for intent in intents if intent not in store.INTENTS]
        if len(helpers) == len(intents):   # one helper per intent, in order: each sends its own
            problems += [f"{line}: {helper}() does not send {intent!r}" for helper, intent in zip(helpers, intents)
                         if camel(helper) != intent]
    return problems


def test_every_name_in_the_readme_exists():
    text = README.read_text()
    assert unknown_in_code(text) == []
    assert table_mismatches(text) == []


def test_a_misspelled_name_in_the_readme_fails():
    text = README.read_text()
    assert "runtime.serch" in unknown_in_code(text.replace("runtime.search()", "runtime.serch()", 1))
    assert "SaerchStore" in unknown_in_code(text.replace("`SearchStore`", "`SaerchStore`", 1))
    assert "wire.SearchStat" in unknown_in_code(text.replace("wire.SearchState", "wire.SearchStat", 1))
    for right, wrong in (("`query_changed(query)`", "`query_chaged(query)`"), ('"loadMore"}', '"loadMroe"}'),
                         ("`DiscoverStore`", "`FavoritesStore`"), ("`runtime.detail(movie_id)`", "`runtime.detial(movie_id)`")):
        assert right in text
        assert table_mismatches(text.replace(right, wrong, 1)) != [], wrong


# ------------------------------------------------------------------------------------ Kotlin

def kotlin_unknown_in_code(markdown: str) -> List[str]:
    """Names in the Kotlin README's code that the binding's sources do not declare:
    `runtime.X` (a Runtime member or extension), `store.X` (a member of a store class or an
    extension), and every `…Store` class."""
    api = kotlin_public_api()
    members = {name.rpartition(".")[2] for name in api}
    runtime = {name.rpartition(".")[2] for name in api if name.startswith("Runtime.") or "." not in name}
    store = {name.rpartition(".")[2] for name in api if name.split(".")[0].endswith("Store") or "." not in name}
    missing = []
    for text in code_of(markdown):
        missing += [f"runtime.{n}" for n in re.findall(r"\bruntime\.(\w+)", text) if n not in runtime]
        missing += [f"store.{n}" for n in re.findall(r"\bstore\.(\w+)", text) if n not in store]
        missing += [n for n in re.findall(r"\b([A-Z]\w*Store)\b", text) if n not in members]
    return sorted(set(missing))


def test_every_name_in_the_kotlin_readme_exists():
    text = (KOTLIN / "README.md").read_text()
    assert kotlin_unknown_in_code(text) == []
    for right, wrong in (("runtime.openSearch", "runtime.openSerch"), ("store.pendingEffects", "store.pendingEfects"),
                         ("ShownDetailStore", "ShownDetialStore")):
        assert right in text and wrong.split(".")[-1] in " ".join(kotlin_unknown_in_code(text.replace(right, wrong, 1)))
