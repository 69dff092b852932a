"""Helpers of the hostile-recording tests (test_from_recording_hostile.py,
test_from_recording_malformed.py): real recordings made with the library, a payload put
anywhere in one of their lines, the generator run in-process, and the two ways a generated
test may be inert: refused (exit 2, one line on stderr), or generated as nothing but our
calls on literals (an AST allow-list) that runs no payload when executed."""

from __future__ import annotations

import ast
import contextlib
import copy
import io
import json
import re
import subprocess
import sys
import tokenize
import warnings
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional, Sequence, Tuple

import cinematic
from cinematic.testing import from_recording
from conftest import REPO, ScriptedCatalog

Line = Dict[str, Any]
#: A member of a line: the keys leading to it.
Where = Tuple[str, ...]
PLACEHOLDER = "\u0000PAYLOAD\u0000"

#: The only names a generated test may use, the methods it may call, and their keywords.
MODULE_NAMES = {"SOURCE", "LIBRARY", "CATALOG", "CLOCK", "NOTES"}
STORE_VARIABLE = re.compile(r"^(search|discover|favorites|detail)[0-9]*$")
CALLS = {("rt", "advance"), ("rt", "store"), ("rt.catalog", "answer"), ("rt.catalog", "wait_for"),
         ("store", "send"), ("store", "receive"), ("store", "receive_all"), ("store", "revert"),
         ("store", "finish")}
KEYWORDS = {"delay_ms", "times", "count", "still_running", "op", "query", "page", "section", "id"}
COMMENTS = {"# never answered"}


def host_recording(path: Path) -> None:
    """A manual-clock session on a host catalog with history: Search (a search, a revert),
    Discover (opened only: its nine sections would make every case slower), Favorites and
    Detail (a favorite toggled), every line type the library writes."""
    def answer(request: Dict[str, Any]) -> Optional[Dict[str, Any]]:
        dune = {"id": 15249, "title": "Dune", "year": 1984}
        return {"movie": dune} if request["op"] == "movie" else {"movies": [dune]}

    config = {"clock": "manual", "catalog": "host", "offlineCache": False, "record": str(path), "history": 100}
    with cinematic.Runtime(config) as rt:
        rt.set_provider(ScriptedCatalog(auto=answer))
        with rt.search() as search, rt.favorites() as favorites, rt.discover():
            favorites.task()
            search.query_changed("dune")
            rt.advance_clock(250)
            search.settle(5)
            search.query_changed("dunes")
            search.revert(1)
            with rt.detail(15249) as detail:
                detail.task()
                detail.wait_for(lambda state: state["detail"]["phase"] == "loaded", 5)
                detail.favorite_toggled()
                detail.wait_for(lambda state: not state["isSaving"], 5)
            rt.advance_clock(10)
            favorites.wait_for(lambda state: state["favorites"].get("value") not in (None, []), 5)


def embedded_recording(path: Path) -> None:
    """A manual-clock session on the embedded catalog: answers come as ``answer`` lines."""
    with cinematic.Runtime({"clock": "manual", "record": str(path)}) as rt:
        with rt.search() as search:
            search.query_changed("dune")
            rt.advance_clock(250)
            search.settle(5)


def lines_of(path: Path) -> List[Line]:
    return [json.loads(text) for text in path.read_text().splitlines()]


def members(value: Any, where: Where = ()) -> Iterator[Where]:
    """Every member of a line, two levels deep (a state's members, a request's, ...)."""
    if isinstance(value, dict) and len(where) < 2:
        for key, member in value.items():
            yield where + (key,)
            yield from members(member, where + (key,))


def texts_of(lines: Sequence[Line]) -> List[str]:
    """Each line as the recording's text holds it (with its line break)."""
    return [json.dumps(line, separators=(",", ":")) + "\n" for line in lines]


def injected(lines: Sequence[Line], index: int, where: Where, payload: str, rename: bool = False,
             texts: Optional[Sequence[str]] = None) -> str:
    """The recording's text with the member at ``where`` of line ``index`` replaced by the raw
    JSON text ``payload`` (or, with ``rename``, its key renamed to the JSON string
    ``payload``); ``texts`` is :func:`texts_of` the lines, when the caller has it."""
    line = copy.deepcopy(lines[index])
    parent = line
    for key in where[:-1]:
        parent = parent[key]
    if rename:
        replaced = {PLACEHOLDER if key == where[-1] else key: value for key, value in parent.items()}
        parent.clear()
        parent.update(replaced)
    else:
        parent[where[-1]] = PLACEHOLDER
    texts = texts_of(lines) if texts is None else texts
    changed = json.dumps(line, separators=(",", ":")).replace(json.dumps(PLACEHOLDER), payload) + "\n"
    return "".join(texts[:index]) + changed + "".join(texts[index + 1:])


def generate(recording: Path, output: Optional[Path] = None) -> Tuple[Any, str, str]:
    """Runs the generator in-process: (its exit status, or the exception it raised; stderr;
    the test it wrote, to ``output`` or to its standard output when there is none)."""
    err, out = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stderr(err):
            status: Any = from_recording.main([str(recording)] + (["-o", str(output)] if output else []), out)
    except SystemExit as exit_:
        status = f"SystemExit({exit_.code})"
    except BaseException as error:  # what the test is looking for: a traceback
        status = f"{type(error).__name__}: {error}"[:200]
    return status, err.getvalue(), output.read_text() if output and status == 0 else out.getvalue()


def refused_properly(status: Any, stderr: str, recording: Path) -> Optional[str]:
    """None when the generator refused with exit 2 and one line naming the file, else why not."""
    if status != 2:
        return f"exit {status!r}"
    if stderr.count("\n") != 1 or not stderr.endswith("\n") or "Traceback" in stderr:
        return f"not one line: {stderr[:300]!r}"
    if not stderr.startswith(f"from_recording: {recording}: "):
        return f"does not name the file: {stderr[:300]!r}"
    return None


def _literal(node: ast.AST) -> bool:
    try:
        ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return False
    return True


def _call_problem(call: ast.AST, stores: set) -> Optional[str]:
    if not isinstance(call, ast.Call) or not isinstance(call.func, ast.Attribute):
        return f"not a method call: {ast.dump(call)[:200]}"
    owner = ast.unparse(call.func.value)
    kind = "store" if owner in stores else owner
    if (kind, call.func.attr) not in CALLS:
        return f"calls {owner}.{call.func.attr}"
    for keyword in call.keywords:
        if keyword.arg not in KEYWORDS or not _literal(keyword.value):
            return f"keyword {keyword.arg!r}"
    if not all(_literal(arg) for arg in call.args):
        return f"an argument of {owner}.{call.func.attr} is not a literal"
    return None


def _comments(line: str) -> List[str]:
    """The comments of one line of generated code (its strings never span lines)."""
    found = []
    try:
        for token in tokenize.generate_tokens(io.StringIO(line).readline):
            if token.type == tokenize.COMMENT:
                found.append(token.string)
    except tokenize.TokenError:   # a line of a literal that spans several
        pass
    return found


def code_problem(text: str, docstring: str) -> Optional[str]:
    """None when the generated module is our fixed frame around literals (see the module)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")   # an invalid escape sequence, say, is a problem too
            tree = ast.parse(text)
        comments = {comment for line in text.splitlines() if "#" in line for comment in _comments(line)}
    except (SyntaxError, ValueError, Warning, RecursionError, MemoryError) as error:
        return f"does not compile: {type(error).__name__}: {error}"[:300]
    if comments - COMMENTS:
        return f"comments hold data: {sorted(comments - COMMENTS)[:2]}"
    if ast.get_docstring(tree) != docstring:
        return f"the docstring holds data: {ast.get_docstring(tree)!r:.200}"
    header, *rest = tree.body[1:]
    if ast.unparse(header) != "from cinematic.testing import TestRuntime":
        return f"imports {ast.unparse(header)}"
    functions = [node for node in rest if not isinstance(node, ast.Assign)]
    for node in rest:
        if isinstance(node, ast.Assign) and ([ast.unparse(t) for t in node.targets][0] not in MODULE_NAMES
                                             or len(node.targets) != 1 or not _literal(node.value)):
            return f"module statement {ast.unparse(node)[:200]}"
    if len(functions) != 1 or not isinstance(functions[0], ast.FunctionDef) or functions[0].decorator_list \
            or not re.fullmatch(r"test_\w+", functions[0].name) or ast.unparse(functions[0].args):
        return f"not one plain test function: {[ast.dump(node)[:100] for node in functions]}"
    [block] = functions[0].body
    if not isinstance(block, ast.With) or len(block.items) != 1:
        return "the test is not one with-block"
    opening = block.items[0]
    if (ast.unparse(opening.context_expr.func) != "TestRuntime" or opening.context_expr.keywords  # type: ignore[attr-defined]
            or not all(_literal(arg) for arg in opening.context_expr.args)  # type: ignore[attr-defined]
            or ast.unparse(opening.optional_vars) != "rt"):  # type: ignore[arg-type]
        return f"opens {ast.unparse(opening)[:200]}"
    stores: set = set()
    for statement in block.body:
        if isinstance(statement, ast.Pass):
            continue
        if isinstance(statement, ast.Assign):
            target = ast.unparse(statement.targets[0])
            if len(statement.targets) != 1 or not STORE_VARIABLE.match(target):
                return f"assigns {target[:100]}"
            problem = _call_problem(statement.value, stores)
            if problem is not None or ast.unparse(statement.value.func) != "rt.store":  # type: ignore[attr-defined]
                return f"{ast.unparse(statement)[:200]}: {problem}"
            stores.add(target)
        elif isinstance(statement, ast.Expr):
            problem = _call_problem(statement.value, stores)
            if problem is not None:
                return f"{ast.unparse(statement)[:200]}: {problem}"
        else:
            return f"statement {ast.unparse(statement)[:200]}"
    return None


#: Executes generated tests with a TestRuntime that accepts anything (no library involved):
#: what the module or the test body would run besides our calls would run here.
RUNNER = """
import json, sys
import cinematic.testing

class Anything:
    def __getattr__(self, name): return self
    def __call__(self, *args, **kwargs): return self
    def __enter__(self): return self
    def __exit__(self, *rest): return False

cinematic.testing.TestRuntime = Anything()
failures = []
for path in sys.argv[1:]:
    namespace = {"__name__": "generated_test"}
    try:
        exec(compile(open(path, encoding="utf-8").read(), path, "exec"), namespace)
        for name, value in list(namespace.items()):
            if name.startswith("test_") and callable(value):
                value()
    except Exception as error:
        failures.append(f"{path}: {type(error).__name__}: {error}"[:300])
print(json.dumps(failures))
"""


def execute(tests: Sequence[Path], sentinel: Path) -> List[str]:
    """Runs the generated tests in one subprocess; what went wrong (a payload ran: the
    sentinel file exists, or the process exited 99; a test did not run)."""
    problems: List[str] = []
    for start in range(0, len(tests), 500):
        done = subprocess.run([sys.executable, "-c", RUNNER, *map(str, tests[start:start + 500])],
                              capture_output=True, text=True, timeout=300, cwd=str(REPO))
        if done.returncode == 99:
            problems.append("a payload ran: the generated tests exited with status 99")
        elif done.returncode != 0:
            problems.append(f"the runner failed: {done.stderr[-2000:]}")
        else:
            problems += json.loads(done.stdout.strip().splitlines()[-1])
    if sentinel.exists():
        problems.append(f"a payload ran: {sentinel} was written")
    return problems
