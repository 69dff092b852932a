"""bindings/python/README.md names every public API the package has (issue 25, item 5): each
name of ``cinematic.__all__`` and of the public submodules' ``__all__``, and each public
member of those classes, appears in the README's code (a code span or block). A name added
to the code without a word in the README fails here."""

from __future__ import annotations

import importlib
import inspect
import re
from typing import List, Set

from conftest import REPO

README = REPO / "bindings" / "python" / "README.md"
#: The modules whose ``__all__`` is public API (``cinematic`` itself and the documented ones).
MODULES = ("cinematic", "cinematic.http_provider", "cinematic.replay", "cinematic.testing")


def code_of(markdown: str) -> List[str]:
    """The README's code: fenced blocks and inline code spans."""
    blocks = re.findall(r"^```[^\n]*\n(.*?)^```", markdown, re.S | re.M)
    prose = re.sub(r"^```[^\n]*\n.*?^```", "", markdown, flags=re.S | re.M)
    return blocks + re.findall(r"`([^`\n]+)`", prose)


def public_members(cls: type) -> Set[str]:
    """The public attributes a class of the package defines (or inherits from one)."""
    names: Set[str] = set()
    for klass in cls.__mro__:
        if (klass.__module__ or "").startswith("cinematic"):
            names.update(name for name in vars(klass) if not name.startswith("_"))
    return names


def undocumented(markdown: str) -> List[str]:
    code = code_of(markdown)
    missing = []
    for module_name in MODULES:
        module = importlib.import_module(module_name)
        for name in module.__all__:
            if not any(re.search(rf"(?:^|[^\w.]|cinematic\.){re.escape(name)}\b", text) for text in code):
                missing.append(f"{module_name}.{name}")
            value = getattr(module, name)
            if inspect.isclass(value):
                for member in sorted(public_members(value)):
                    # `.member` anywhere in code, or a code span that starts with it (`task()`).
                    if not any(re.search(rf"\.{re.escape(member)}\b", text) or re.match(rf"{re.escape(member)}\b", text)
                               for text in code):
                        missing.append(f"{module_name}.{name}.{member}")
    return missing


def test_the_readme_names_every_public_name_and_member():
    assert undocumented(README.read_text()) == []


def test_the_check_sees_a_name_or_member_the_readme_leaves_out():
    text = README.read_text()
    without_history = re.sub(r"store\.history\b", "store.h1story", text)
    assert "cinematic.Store.history" in undocumented(without_history)
    without_load_more = text.replace("load_more", "loadMore_")
    assert {"cinematic.SearchStore.load_more", "cinematic.DiscoverStore.load_more"} <= set(undocumented(without_load_more))
    assert "cinematic.testing.format_diff" in undocumented(text.replace("format_diff", "fmt_diff"))
