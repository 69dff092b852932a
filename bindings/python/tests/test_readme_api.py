"""The binding READMEs name every public API the code has (issue 25, item 5).

Python (bindings/python/README.md): each name of ``cinematic.__all__`` and of the public
submodules' ``__all__``, and each public member of those classes, appears in the README's
code (a code span or block). Kotlin (bindings/kotlin/README.md): each public declaration of
the common and JVM sources, read from the sources (top-level classes, objects, functions and
properties, and the public members of public classes; for the generated wire types and the
platform interface, the type names). A name added to the code without a word in the README
fails here."""

from __future__ import annotations

import importlib
import inspect
import re
from typing import List, Set

from conftest import REPO

from pathlib import Path
from typing import Tuple

README = REPO / "bindings" / "python" / "README.md"
#: The modules whose ``__all__`` is public API (``cinematic`` itself and the documented ones).
MODULES = ("cinematic", "cinematic.http_provider", "cinematic.replay", "cinematic.testing", "cinematic.hosting",
           "cinematic.places", "cinematic.timetravel")


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


# ------------------------------------------------------------------------------------ Kotlin

KOTLIN = REPO / "bindings" / "kotlin"
KOTLIN_SOURCES = (KOTLIN / "common" / "src" / "commonMain" / "kotlin", KOTLIN / "jvm" / "src" / "main" / "kotlin")
#: Files whose members are not for applications: only their type names must be named.
TYPE_NAMES_ONLY = ("Wire.kt", "NativeLibrary.kt")
_DECLARATION = re.compile(
    r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*((?:(?:public|private|internal|protected|open|abstract|sealed|data|inline|"
    r"override|suspend|operator|infix|const|lateinit|enum|annotation|actual|expect|inner|companion|external|"
    r"tailrec|final|vararg)\s+)*)(class|interface|object|fun|val|var|typealias)\b\s*(?:<(?:[^<>]|<[^<>]*>)*>\s*)?"
    r"(?:[\w<>?,\s*]+\.)*`?(\w+)`?")
_HIDDEN = {"private", "internal", "protected", "override"}


def kotlin_code_only(text: str) -> str:
    """``text`` without comments and string literals (their braces and words are not code)."""
    keep_lines = lambda m: "\"\"" + "\n" * m.group(0).count("\n")  # noqa: E731
    text = re.sub(r'"""(?:.|\n)*?"""', keep_lines, text)
    text = re.sub(r"/\*(?:.|\n)*?\*/", lambda m: "\n" * m.group(0).count("\n"), text)
    text = re.sub(r"//[^\n]*", "", text)
    text = re.sub(r'"(?:\\.|[^"\\\n])*"', '""', text)
    return re.sub(r"'(?:\\.|[^'\\\n])'", "''", text)


def kotlin_declarations(text: str) -> List[Tuple[str, str]]:
    """(owner, name) of each public declaration in Kotlin source ``text``: at the top level
    (owner ""), or a member of a public class (its constructor's val/var included)."""
    found: List[Tuple[str, str]] = []
    scopes: List[Tuple[str, bool]] = []          # each "{": (class name or "", public class?)
    pending: "Tuple[str, bool] | None" = None    # a class whose body's "{" has not come yet
    parens = 0
    for line in kotlin_code_only(text).splitlines():
        match = _DECLARATION.match(line)
        if match:
            modifiers, kind, name = set(match.group(1).split()), match.group(2), match.group(3)
            hidden = bool(modifiers & _HIDDEN)
            owner = ".".join(scope for scope, _ in scopes if scope)
            if parens > 0 and pending is not None:   # a constructor parameter
                if kind in ("val", "var") and pending[1] and not hidden:
                    found.append((".".join(filter(None, [owner, pending[0]])), name))
            else:
                public = all(is_public for _, is_public in scopes) and not hidden
                if "companion" in modifiers:
                    name = ""
                elif public:
                    found.append((owner, name))
                pending = (name, public) if kind in ("class", "interface", "object") else None
                if pending is not None and public:   # a constructor's val/var on this line
                    for hide, member in re.findall(r"(?:^|[(,])\s*((?:\w+\s+)*?)(?:val|var)\s+(\w+)",
                                                   line[match.end():]):
                        if not set(hide.split()) & _HIDDEN:
                            found.append((".".join(filter(None, [owner, name])), member))
        for char in line:
            if char == "(":
                parens += 1
            elif char == ")":
                parens -= 1
            elif char == "{":
                scopes.append(pending if pending is not None and parens == 0 else ("", False))
                pending = None
            elif char == "}" and scopes:
                scopes.pop()
    return found


def kotlin_public_api() -> List[str]:
    names = []
    for root in KOTLIN_SOURCES:
        for path in sorted(root.rglob("*.kt")):
            for owner, name in kotlin_declarations(path.read_text()):
                if path.name in TYPE_NAMES_ONLY and owner:
                    continue
                names.append(f"{owner}.{name}" if owner else name)
    return names


def kotlin_undocumented(markdown: str) -> List[str]:
    code = code_of(markdown)
    missing = []
    for qualified in kotlin_public_api():
        owner, _, name = qualified.rpartition(".")
        if owner:   # a member: `.name`, or a code span that starts with it
            documented = any(re.search(rf"\.{name}\b", t) or re.match(rf"{name}\b", t) for t in code)
        else:
            documented = any(re.search(rf"(?<!\w){name}\b", t) for t in code)
        if not documented:
            missing.append(qualified)
    return sorted(set(missing))


def test_the_kotlin_readme_names_every_public_declaration():
    api = kotlin_public_api()
    # The reader sees what the sources declare (a sample of each kind).
    assert {"Runtime", "Store.history", "Store.revert", "Runtime.patches", "SearchStore.loadMore",
            "testing.TestStore.receiveAll".split(".", 1)[1], "Json.parse", "SearchState", "openSearch"} <= set(api)
    assert "Store.handle" not in api and "Runtime.library" not in api          # internal, private
    assert kotlin_undocumented((KOTLIN / "README.md").read_text()) == []


def test_the_kotlin_check_sees_a_declaration_the_readme_leaves_out():
    text = (KOTLIN / "README.md").read_text()
    assert "Store.historyJson" in kotlin_undocumented(text.replace("historyJson", "histJson"))
    assert "TestCatalog.awaitCancelled" in kotlin_undocumented(text.replace("awaitCancelled", "awaitCanceled"))
    source = "class Shown(val a: Int, private val b: Int) {\n    fun c() = 1\n    internal fun d() = 2\n}\n" \
             "private class Hidden { fun e() = 3 }\nfun Shown.f(): Int = 4\n"
    assert kotlin_declarations(source) == [("", "Shown"), ("Shown", "a"), ("Shown", "c"), ("", "f")]
