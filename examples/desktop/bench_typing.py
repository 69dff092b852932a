"""How long the GUI thread stalls while a person types: the desktop app (offscreen) gets
"the lord of the rings" key by key, 20 ms apart, while a 1 ms precise timer ticks on the
same event loop; the longest gap between two ticks is the longest stall (a frame at 60 Hz is
16 ms). Part of `make bench`; the typing test (tests/test_desktop.py) measures it the same way
and prints it, and asserts only the structural guarantee (every state arrives through the
runtime fd's notifier; the GUI thread never waits on the core).

    examples/desktop/bench-typing.sh [--rounds N]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, List, Optional, Tuple

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QElapsedTimer, QSettings, Qt, QTimer  # noqa: E402
from PySide6.QtTest import QTest  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from drive import run_loop, type_slowly, wait_until  # noqa: E402

QUERY = "the lord of the rings"
PER_KEY_MS = 20
FRAME_MS = 16


class StallProbe:
    """A 1 ms PreciseTimer on the GUI thread's loop. ``worst_ms``: the longest gap between two
    of its ticks since ``start`` (wall clock: what a person sees, including time the machine
    gave to other processes). ``worst_cpu_ms``: the most CPU the GUI thread used between two
    ticks (the app's own longest piece of work, whatever the machine's load)."""

    def __init__(self) -> None:
        self.clock = QElapsedTimer()
        self.last = 0
        self.cpu_last = 0.0
        self.worst_ms = 0
        self.worst_cpu_ms = 0.0
        self.ticks = 0
        self.timer = QTimer()
        self.timer.setTimerType(Qt.TimerType.PreciseTimer)
        self.timer.setInterval(1)
        self.timer.timeout.connect(self._tick)

    def _tick(self) -> None:
        now, cpu = self.clock.elapsed(), time.thread_time()
        self.worst_ms = max(self.worst_ms, now - self.last)
        self.worst_cpu_ms = max(self.worst_cpu_ms, (cpu - self.cpu_last) * 1000)
        self.last, self.cpu_last = now, cpu
        self.ticks += 1

    def start(self) -> None:
        self.clock.start()
        self.last, self.cpu_last = 0, time.thread_time()
        self.worst_ms, self.worst_cpu_ms = 0, 0.0
        self.ticks = 0
        self.timer.start()

    def stop(self) -> int:
        self._tick()          # a stall still running at the end counts too
        self.timer.stop()
        return self.worst_ms


def one_round(window: Any) -> Tuple[int, float]:
    """Types the query into an empty field; the longest stall (ms) until its results show, and
    the most GUI-thread CPU (ms) between two ticks."""
    window.search_field.clear()
    window.send({"type": "queryChanged", "query": ""})   # the app forgets the last round
    window.search_field.setFocus()
    run_loop(50)          # the window settles before measuring
    probe = StallProbe()
    probe.start()
    type_slowly(window.search_field, QUERY, PER_KEY_MS)
    wait_until(lambda: window.search_state is not None and window.search_state["results"]["phase"] == "loaded"
               and window.search_state["results"]["query"] == QUERY, "the results")
    return probe.stop(), probe.worst_cpu_ms


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args(argv)
    import cinematic
    from cinematic_desktop.window import MainWindow

    app = QApplication.instance() or QApplication(sys.argv[:1])
    with tempfile.TemporaryDirectory() as scratch, \
            cinematic.Runtime({"delivery": "queued", "favorites": str(Path(scratch) / "f.sqlite")}) as runtime:
        window = MainWindow(runtime, settings=QSettings(str(Path(scratch) / "s.ini"), QSettings.Format.IniFormat))
        window.show()
        QTest.qWaitForWindowExposed(window)
        rounds = [one_round(window) for _ in range(args.rounds)]
        window.close()
    del app
    stalls, work = [r[0] for r in rounds], [r[1] for r in rounds]
    print(f"desktop typing ({QUERY!r}, {PER_KEY_MS} ms per key, {args.rounds} rounds, load average "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs): longest event-loop stall median "
          f"{statistics.median(stalls):.0f} ms, max {max(stalls)} ms (a frame: {FRAME_MS} ms); longest GUI-thread "
          f"work between two ticks median {statistics.median(work):.1f} ms, max {max(work):.1f} ms; "
          f"stalls per round: {', '.join(map(str, stalls))} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
