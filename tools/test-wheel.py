#!/usr/bin/env python3
"""`make test-wheel`: the wheel as a new user installs it.

Installs build/dist/cinematic-*.whl into a scratch venv outside the repository, then, from a
scratch directory with no CINEMATIC_LIBRARY, checks that the package loads the copy of the
library it carries, opens a runtime and searches; that `ldd` resolves every dependency of the
installed library from the wheel or the base system; and the `cinematic` console script's
output and exit status for good and bad input.
"""
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
passed, failed = 0, 0


def check(name, ok, detail=""):
    global passed, failed
    if ok:
        passed += 1
        print(f"ok   {name}")
    else:
        failed += 1
        print(f"FAIL {name}\n     {detail}")


def main():
    wheels = glob.glob(os.path.join(ROOT, "build", "dist", "cinematic-*.whl"))
    if len(wheels) != 1:
        print(f"test-wheel: expected one wheel in build/dist, found {wheels}; run `make wheel`")
        return 1
    scratch = tempfile.mkdtemp(prefix="cinematic-wheel-")
    try:
        venv = os.path.join(scratch, "venv")
        subprocess.run([sys.executable, "-m", "venv", venv], check=True)
        python = os.path.join(venv, "bin", "python")
        subprocess.run([python, "-m", "pip", "install", "-q", "--disable-pip-version-check", wheels[0]], check=True)
        home = os.path.join(scratch, "home")
        os.mkdir(home)
        env = {k: v for k, v in os.environ.items() if k not in ("CINEMATIC_LIBRARY", "PYTHONPATH", "LD_LIBRARY_PATH")}
        env["PATH"] = os.path.join(venv, "bin") + os.pathsep + env.get("PATH", "")
        # An empty home: the embedded catalog's index is inside the library, nothing is
        # written there (checked below).
        env["HOME"] = home
        env["XDG_CACHE_HOME"] = os.path.join(home, ".cache")

        def run(*args):
            return subprocess.run(list(args), cwd=home, env=env, capture_output=True, text=True, timeout=120)

        probe = run(python, "-c", "import cinematic, json\n"
                    "with cinematic.Runtime() as rt, rt.search() as s:\n"
                    "    s.query_changed('dune'); s.settle(timeout=30)\n"
                    "    m = s.state['results']['value'][0]\n"
                    "print(json.dumps({'path': cinematic.library_path(), 'first': [m['title'], m['year']]}))")
        site = os.path.join(venv, "lib")
        try:
            answer = json.loads(probe.stdout)
        except ValueError:
            answer = {}
        check("the installed package finds the library it carries, from another directory",
              probe.returncode == 0 and answer.get("path", "").startswith(site), probe.stdout + probe.stderr)
        check("it opens a runtime and searches: dune finds Dune (1984)", answer.get("first") == ["Dune", 1984], probe.stdout)
        check("opening the embedded catalog wrote nothing under HOME or XDG_CACHE_HOME",
              not os.path.exists(env["XDG_CACHE_HOME"]) and os.listdir(home) == [], str(os.listdir(home)))

        installed = glob.glob(os.path.join(site, "python*", "site-packages", "cinematic", "libcinematic.so.0"))
        ldd = run("ldd", installed[0]) if installed else None
        check("ldd resolves every dependency of the installed library",
              ldd is not None and ldd.returncode == 0 and "not found" not in ldd.stdout, ldd.stdout if ldd else "no library")
        check("jansson and SQLite come from the wheel",
              ldd is not None and all(f"cinematic.libs/lib{name}" in ldd.stdout for name in ("jansson", "sqlite3")),
              ldd.stdout if ldd else "")

        search = run("cinematic", "search", "dune")
        check("`cinematic search dune` prints Dune (1984) first, exit 0",
              search.returncode == 0 and "Dune (1984)" in search.stdout.splitlines()[0], search.stdout + search.stderr)
        typo = run("cinematic", "search", "godfathr", "2", "--json")
        try:
            first = json.loads(typo.stdout)[0]["title"]
        except (ValueError, IndexError, KeyError):
            first = None
        check("`cinematic search godfathr 2 --json` is JSON, The Godfather: Part II first",
              typo.returncode == 0 and first == "The Godfather: Part II", typo.stdout + typo.stderr)
        nothing = run("cinematic", "search", "qqxqqxqqz")
        check("a search that finds nothing says so, exit 0", nothing.returncode == 0 and "no movies match" in nothing.stdout,
              nothing.stdout + nothing.stderr)
        detail = run("cinematic", "detail", "15249")
        check("`cinematic detail 15249` shows Dune, exit 0", detail.returncode == 0 and detail.stdout.startswith("Dune (1984)"),
              detail.stdout + detail.stderr)
        missing = run("cinematic", "detail", "999999999")
        check("an id not in the catalog: notFound on stderr, exit 1",
              missing.returncode == 1 and "notFound" in missing.stderr and not missing.stdout, missing.stdout + missing.stderr)
        discover = run("cinematic", "discover", "--section", "topRated")
        check("`cinematic discover --section topRated` lists The Shawshank Redemption first",
              discover.returncode == 0 and "The Shawshank Redemption" in discover.stdout.splitlines()[1], discover.stdout)
        for args, why in ((["discover", "--section", "nope"], "an unknown section"),
                          (["frobnicate"], "an unknown command"),
                          (["detail", "dune"], "an id that is no number"),
                          (["search", "a" * 300], "a query over 256 characters"),
                          (["search", "a"], "a query under 2 characters")):
            bad = run("cinematic", *args)
            check(f"{why}: a message on stderr, exit 2", bad.returncode == 2 and bad.stderr and not bad.stdout,
                  f"status {bad.returncode}: {bad.stdout}{bad.stderr}")
        version = run("cinematic", "--version")
        check("`cinematic --version`", version.returncode == 0 and version.stdout.strip().startswith("cinematic "), version.stdout)
        recorded = run(python, "-c", "import cinematic\n"
                       "with cinematic.Runtime(record='session.jsonl') as rt, rt.search() as s:\n"
                       "    s.query_changed('dune'); s.settle(timeout=30)")
        replayed = run(python, "-m", "cinematic.replay", "session.jsonl")
        check("a session recorded with the installed package replays: `python -m cinematic.replay`, exit 0",
              recorded.returncode == 0 and replayed.returncode == 0 and replayed.stdout.startswith("replay matched"),
              f"{recorded.stderr} status {replayed.returncode}: {replayed.stdout}{replayed.stderr}")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    print(f"wheel check: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
