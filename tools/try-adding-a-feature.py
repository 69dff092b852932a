#!/usr/bin/env python3
"""Follows docs/adding-a-feature.md literally in a scratch copy of the repository, then
misspells each wire name of the page's wire file in turn.

    tools/try-adding-a-feature.py [--keep] [--scratch DIR] [--no-misspellings]

Copies the working tree (tracked and untracked, not ignored) to a scratch directory, writes
every block of the walkthrough marked `<!-- file: PATH -->`, runs `make generate`, counts the
files written by hand (at most 4), builds the library in debug (`swift build --product
cinematic`: seconds, where a release build takes minutes) and runs the C, Python and Kotlin
golden checks against it, and the page's C and Python snippets ("From the hosts", each wrapped in a
program that opens a runtime and fails on any status but OK). Then, for each occurrence of a
wire name in the wire file (each intent's type, each member, each state member, in the
declaration, the golden lines and the prose's code spans) and in the page's snippets, it
writes that one occurrence misspelled and expects a named gate to fail: `generate`
(tools/wiregen.py, which also checks the prose's names), `compile` (the debug build), `golden`
(the Python golden checks) or `snippets`; then each wire name in the page's Swift files (reducer,
codec, tests), where the debug build, the golden checks or the page's tests (built and run)
must fail. Exits non-zero, saying which step failed or which
misspelling passed every gate. Standard library only.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import List, Optional, Tuple

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "adding-a-feature.md"
MAX_HAND_WRITTEN = 4
BLOCK = re.compile(r"<!-- file: (\S+) -->\s*(`{3,})\w*\n(.*?)\n\2\n", re.S)
WIRE_BLOCK = re.compile(r"```json wire\n(.*?)```", re.S)


def blocks() -> List[Tuple[str, str]]:
    found = [(path, text + "\n") for path, _, text in BLOCK.findall(DOC.read_text())]
    if not found:
        raise SystemExit(f"{DOC}: no marked blocks")
    return found


def copy_tree(scratch: Path) -> None:
    files = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=ROOT, check=True,
                           capture_output=True).stdout.decode().split("\0")
    for name in filter(None, files):
        source = ROOT / name
        if source.is_file():
            target = scratch / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)


def run(step: str, command: List[str], cwd: Path, env: Optional[dict] = None, quiet: bool = False) -> bool:
    if not quiet:
        print(f"== {step}: {' '.join(command)}", flush=True)
    result = subprocess.run(command, cwd=cwd, env={**os.environ, **(env or {})},
                            stdout=subprocess.DEVNULL if quiet else None, stderr=subprocess.DEVNULL if quiet else None)
    return result.returncode == 0


def must(step: str, command: List[str], cwd: Path, env: Optional[dict] = None) -> None:
    if not run(step, command, cwd, env):
        raise SystemExit(f"try-adding-a-feature: {step} failed in {cwd}")


def git(scratch: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=scratch, check=True, capture_output=True, text=True).stdout


def touched(scratch: Path) -> Tuple[List[str], List[str]]:
    """(hand-written, generated) files the walkthrough changed or added."""
    names = [line[3:] for line in git(scratch, "status", "--porcelain", "--untracked-files=all").splitlines()]
    generated_paths = subprocess.run([sys.executable, "-c",
                                      "import sys; sys.path.insert(0, 'tools'); import wiregen; "
                                      "print('\\n'.join(str(p.relative_to(wiregen.ROOT)) for p in wiregen.outputs()))"],
                                     cwd=scratch, check=True, capture_output=True, text=True).stdout.split()
    generated = [name for name in names if name in generated_paths]
    return [name for name in names if name not in generated], generated


def python_golden() -> List[str]:
    venv_python = ROOT / "build" / "venv" / "bin" / "python"
    python = str(venv_python) if venv_python.exists() else subprocess.run(
        [str(ROOT / "tools" / "ensure-venv.sh")], check=True, capture_output=True, text=True).stdout.strip()
    return [python, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", "bindings/python/tests/test_golden.py"]


#: The debug build's library, what every check of the scratch copy runs against.
DEBUG_LIB = Path(".build") / "debug"
DEBUG_BUILD = ["swift", "build", "--product", "cinematic"]


def python_env(scratch: Path) -> dict:
    return {"PYTHONPATH": str(scratch / "bindings" / "python"),
            "CINEMATIC_LIBRARY": str(scratch / DEBUG_LIB / "libcinematic.so")}


SNIPPET = re.compile(r"^```(c|python)\n(.*?)^```\n", re.S | re.M)
C_PROGRAM = """#include <cinematic.h>
#include <stdio.h>
#include <stdlib.h>
static int checked(int status, const char *call) {
    if (status == CINEMATIC_OK) return status;
    fprintf(stderr, "snippet: %s: %s %s\\n", call, cinematic_status_name(status), cinematic_last_error() ? cinematic_last_error() : "");
    exit(1);
}
#define cinematic_store_open(...) checked(cinematic_store_open(__VA_ARGS__), "cinematic_store_open")
#define cinematic_store_send(...) checked(cinematic_store_send(__VA_ARGS__), "cinematic_store_send")
#define cinematic_store_settle(...) checked(cinematic_store_settle(__VA_ARGS__), "cinematic_store_settle")
int main(void) {
    cinematic_runtime *rt;
    if (cinematic_runtime_open("{\\"favorites\\":\\":memory:\\"}", &rt) != CINEMATIC_OK) return 2;
    {
@SNIPPET@
    }
    return cinematic_runtime_close(rt) == CINEMATIC_OK ? 0 : 1;
}
"""


def snippets() -> List[Tuple[str, str]]:
    """The page's host snippets ("From the hosts"): (language, code), C and Python."""
    text = DOC.read_text()
    return [(language, code) for language, code in SNIPPET.findall(text[text.index("## From the hosts"):])]


def snippet_gate(scratch: Path, language: str, code: str) -> List[str]:
    """A command running one snippet against the scratch library (writing its program first)."""
    folder = scratch / "build" / "snippets"
    folder.mkdir(parents=True, exist_ok=True)
    if language == "c":
        (folder / "snippet.c").write_text(C_PROGRAM.replace("@SNIPPET@", code))
        return ["sh", "-c", f"cc -std=c11 -Wall -Werror -Wno-unused-variable -Iinclude {folder}/snippet.c -L{DEBUG_LIB} -lcinematic "
                f"-Wl,-rpath,{scratch / DEBUG_LIB} -o {folder}/snippet && {folder}/snippet"]
    body = "".join("    " + line + "\n" for line in code.splitlines())
    # An intent a comment shows (`# {"type": "added", ...}`) is sent too: the store must take it.
    shown = "".join(f"    store.send({text!r})\n" for text in re.findall(r"#\s*(\{.*\})", code))
    (folder / "snippet.py").write_text("import cinematic\n\nwith cinematic.Runtime({\"favorites\": \":memory:\"}) as runtime:\n"
                                       + body + shown)
    return [python_golden()[0], str(folder / "snippet.py")]


def wire_names(declaration: dict) -> List[str]:
    """The wire names a wire file declares: intent types, their members, the state's members."""
    names = []
    for wire, body in declaration["intents"].items():
        names += [wire] + list(body.get("properties", {}))
    names += list(declaration["state"].get("properties", {}))
    return list(dict.fromkeys(names))


Gate = Tuple[str, List[str], dict]


def verdict(scratch: Path, gates: List[Gate], name: str, where: str) -> Optional[str]:
    """Runs `gates` in order on the misspelling of `name` at `where`, prints which failed, and
    returns a complaint when none did."""
    failed = next((gate for gate, command, env in gates if not run(gate, command, scratch, env, quiet=True)), None)
    print(f"misspelled {name!r} → {misspelled(name)!r} ({where}): "
          + (f"the {failed} gate failed" if failed else "PASSED EVERY GATE"), flush=True)
    return None if failed else f"{name} ({where})"


def misspelled(name: str) -> str:
    return name[:-2] + name[-1] + name[-2] if name[-1] != name[-2] else name + "x"


#: The page's test suite, built and run (debug) as `make test` would.
PAGE_TESTS = ["sh", "-c", "swift build --build-tests >/dev/null && swift test --skip-build --filter WatchlistReducerTests"]


def try_swift_misspellings(scratch: Path, names: List[str], swift_files: List[str]) -> List[str]:
    """Each wire name in the code of each hand-written Swift file (the reducer, the codec, the
    tests; comments aside) misspelled alone: the debug build, the golden checks or the page's
    tests must fail."""
    gates: List[Gate] = [("compile", DEBUG_BUILD, {}), ("golden", python_golden(), python_env(scratch)), ("tests", PAGE_TESTS, {})]
    complaints: List[Optional[str]] = []
    for path in swift_files:
        original = (scratch / path).read_text()
        for name in names:
            for m in re.finditer(rf"\b{re.escape(name)}\b", original):
                if "//" in original[original.rfind("\n", 0, m.start()) + 1:m.start()]:
                    continue   # a comment's English ("most recently added"), not the wire's name
                (scratch / path).write_text(original[:m.start()] + misspelled(name) + original[m.end():])
                complaints.append(verdict(scratch, gates, name, f"{path}, line {original.count(chr(10), 0, m.start()) + 1}"))
        (scratch / path).write_text(original)
    return [complaint for complaint in complaints if complaint]


def try_misspellings(scratch: Path, wire_path: Path) -> List[str]:
    """Each occurrence of each wire name misspelled alone: the gate that failed, or a complaint."""
    original = wire_path.read_text()
    block = WIRE_BLOCK.search(original)
    assert block, f"{wire_path}: no wire block"
    names = wire_names(json.loads(block.group(1)))
    occurrences = [(name, m.start(1) + block.start(1)) for name in names
                   for m in re.finditer(rf'"(?:\$\.)?({re.escape(name)})"', block.group(1))]   # a name, or a refusal's path
    # ...and in the prose's code spans (outside the wire block).
    prose_spans = [(m.start(1), m.group(1)) for m in re.finditer(r"`([^`\n]+)`", original)
                   if not block.start() <= m.start() < block.end()]
    occurrences += [(name, at + n.start()) for at, span in prose_spans for name in names
                    for n in re.finditer(rf"\b{re.escape(name)}\b", span)]
    # Golden lines first: they need no new library; each declaration change rebuilds it.
    golden_at = block.group(1).find('"golden"') + block.start(1)
    occurrences.sort(key=lambda item: (item[1] < golden_at, item[1]))
    gates: List[Gate] = [("generate", [sys.executable, "tools/wiregen.py"], {}), ("compile", DEBUG_BUILD, {}),
                         ("golden", python_golden(), python_env(scratch))]
    complaints: List[Optional[str]] = []
    for name, at in occurrences:
        wire_path.write_text(original[:at] + misspelled(name) + original[at + len(name):])
        where = ("prose" if not block.start() <= at < block.end() else "golden line" if at > golden_at else "declaration")
        complaints.append(verdict(scratch, gates, name, f"{where}, line {original.count(chr(10), 0, at) + 1}"))
    wire_path.write_text(original)
    # Back to the page as written: generated files and library (the last gate left them misspelled).
    must("generate (the page as written)", [sys.executable, "tools/wiregen.py"], scratch)
    must("debug build (the page as written)", DEBUG_BUILD, scratch)
    for language, code in snippets():
        must(f"the page's {language} snippet (as written)", snippet_gate(scratch, language, code), scratch, python_env(scratch))
        for name in names:
            for m in re.finditer(rf"\b{re.escape(name)}\b", code):
                wrong = code[:m.start()] + misspelled(name) + code[m.end():]
                complaints.append(verdict(scratch, [("snippets", snippet_gate(scratch, language, wrong), python_env(scratch))],
                                          name, f"the page's {language} snippet"))
    return [complaint for complaint in complaints if complaint]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keep", action="store_true", help="keep the scratch copy")
    parser.add_argument("--scratch", type=Path, help="where to build (default: a new temporary directory)")
    parser.add_argument("--no-misspellings", action="store_true", help="follow the page only")
    options = parser.parse_args()
    scratch = options.scratch or Path(tempfile.mkdtemp(prefix="cinematic-new-feature-"))
    try:
        copy_tree(scratch)
        git(scratch, "init", "-q")
        git(scratch, "add", "-A")
        git(scratch, "-c", "user.name=scratch", "-c", "user.email=scratch@invalid", "commit", "-qm", "before")
        for path, text in blocks():
            (scratch / path).parent.mkdir(parents=True, exist_ok=True)
            (scratch / path).write_text(text)
        must("make generate", ["make", "generate"], scratch)
        hand, generated = touched(scratch)
        print(f"files written by hand ({len(hand)}): {', '.join(hand)}")
        print(f"files generated by make generate ({len(generated)}): {', '.join(generated)}")
        if len(hand) > MAX_HAND_WRITTEN:
            raise SystemExit(f"try-adding-a-feature: the walkthrough writes {len(hand)} files by hand (at most {MAX_HAND_WRITTEN})")
        must("debug build, Python and C golden checks", ["make", "golden-debug"], scratch)
        must("Kotlin golden checks", ["bindings/kotlin/jvm/build-and-test.sh", "golden"], scratch,
             {"CINEMATIC_LIB_DIR": str(scratch / DEBUG_LIB)})
        must("the page's tests", PAGE_TESTS, scratch)
        for language, code in snippets():
            must(f"the page's {language} snippet", snippet_gate(scratch, language, code), scratch, python_env(scratch))
        print(f"adding a feature: the walkthrough works ({len(hand)} files by hand, {len(generated)} generated)")
        if options.no_misspellings:
            return 0
        wire_file = next(scratch / path for path in hand if path.endswith(".wire.md"))
        complaints = try_misspellings(scratch, wire_file)
        declared = wire_names(json.loads(WIRE_BLOCK.search(wire_file.read_text()).group(1)))
        complaints += try_swift_misspellings(scratch, declared, [path for path in hand if path.endswith(".swift")])
        if complaints:
            raise SystemExit(f"try-adding-a-feature: misspellings no gate caught: {', '.join(complaints)}")
        print("adding a feature: every misspelled wire name failed a named gate")
        return 0
    finally:
        if options.keep or options.scratch:
            print(f"scratch copy kept at {scratch}")
        else:
            shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
