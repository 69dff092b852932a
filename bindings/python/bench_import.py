"""`make bench`: what ``import cinematic`` costs a Python host, measured with ``python -X importtime``.

Fresh interpreters, alternating: ``import ctypes, json`` (the floor: every host of a C library
through ctypes pays it) and ``import cinematic``. Each run's cost is the sum of the cumulative
times ``-X importtime`` reports for the imports the command made (everything after the
interpreter's own start-up, ``site``). Prints both medians, what the package adds over the
floor and the ratio, the modules it imports that the floor does not (the slowest first), and
the verdict. Bytecode is cached as after ``pip install`` (in a temporary
``PYTHONPYCACHEPREFIX``, written by a first, untimed run of each command; the source tree is
left alone, whatever ``PYTHONDONTWRITEBYTECODE`` says). Target: ``import cinematic`` at most 40 ms over ``import ctypes, json``, with no
asyncio (it is imported by ``cinematic.aio`` only, when a host asks for a state stream).

    PYTHONPATH=bindings/python python bindings/python/bench_import.py [RUNS]
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
from typing import Dict, List, Tuple

RUNS = 21
TARGET_MS = 40.0


def import_times(code: str, env: Dict[str, str]) -> Tuple[float, Dict[str, Tuple[int, int]]]:
    """(milliseconds the imports made by ``code`` took, module -> (self µs, depth)) in a
    fresh interpreter."""
    result = subprocess.run([sys.executable, "-X", "importtime", "-c", code],
                            env=env, capture_output=True, text=True, timeout=60)
    if result.returncode != 0:
        raise SystemExit(f"bench_import: {code!r} failed:\n{result.stderr}")
    lines = [line for line in result.stderr.splitlines() if line.startswith("import time:")]
    after_site = False
    total_us = 0
    modules: Dict[str, Tuple[int, int]] = {}
    for line in lines[1:]:  # the first line is the column header
        self_us, cumulative_us, name = line[len("import time:"):].split("|")
        depth = (len(name) - len(name.lstrip())) // 2
        module = name.strip()
        if not after_site:
            after_site = depth == 0 and module == "site"
            continue
        modules[module] = (int(self_us), depth)
        if depth == 0:
            total_us += int(cumulative_us)
    if not after_site:
        raise SystemExit("bench_import: -X importtime printed no 'site' line")
    return total_us / 1000, modules


def main(argv: List[str]) -> int:
    runs = int(argv[1]) if len(argv) > 1 else RUNS
    with tempfile.TemporaryDirectory(prefix="cinematic-bench-pycache-") as cache:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["PYTHONPYCACHEPREFIX"] = cache
        return measure(runs, env)


def measure(runs: int, env: Dict[str, str]) -> int:
    floor_code, package_code = "import ctypes, json", "import cinematic"
    import_times(floor_code, env)  # writes the .pyc files of both, once
    import_times(package_code, env)
    floor: List[float] = []
    package: List[float] = []
    added: Dict[str, List[int]] = {}
    for _ in range(runs):
        floor_ms, floor_modules = import_times(floor_code, env)
        package_ms, package_modules = import_times(package_code, env)
        floor.append(floor_ms)
        package.append(package_ms)
        for module, (self_us, _) in package_modules.items():
            if module not in floor_modules:
                added.setdefault(module, []).append(self_us)
    floor_median, package_median = statistics.median(floor), statistics.median(package)
    over = package_median - floor_median
    print(f"import cost (python -X importtime, fresh interpreters, bytecode cached, {runs} runs each, alternating)")
    print(f"  import ctypes, json   median {floor_median:7.2f} ms")
    print(f"  import cinematic      median {package_median:7.2f} ms   over ctypes+json {over:6.2f} ms"
          f"   ratio {package_median / floor_median:.2f}x")
    slowest = sorted(added.items(), key=lambda item: -statistics.median(item[1]))[:8]
    print("  modules it adds, slowest first (median self time): "
          + ", ".join(f"{module} {statistics.median(times) / 1000:.1f} ms" for module, times in slowest))
    lazy = sorted(module for module in ("asyncio", "logging", "subprocess", "pathlib", "ctypes.util")
                  if module in added)
    print(f"  imported although unused: {', '.join(lazy) if lazy else 'none'} (asyncio, logging, subprocess, pathlib, ctypes.util)")
    met = over <= TARGET_MS and "asyncio" not in added
    print(f"  target: import cinematic <= {TARGET_MS:.0f} ms over import ctypes, json, no asyncio: {'met' if met else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
