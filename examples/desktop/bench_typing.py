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
from pathlib import Path
from typing import Any, List, Optional

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QElapsedTimer, QSettings, Qt, QTimer  # noqa: E402
from PySide6.QtTest import QTest  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from drive import run_loop, type_slowly, wait_until  # noqa: E402

QUERY = "the lord of the rings"
PER_KEY_MS = 20
FRAME_MS = 16


class StallProbe:
    """A 1 ms PreciseTimer on the GUI thread's loop; ``worst_ms`` is the longest gap between
    two of its ticks (or from ``start`` to the first) since ``start``."""

    def __init__(self) -> None:
        self.clock = QElapsedTimer()
        self.last = 0
        self.worst_ms = 0
        self.ticks = 0
        self.timer = QTimer()
        self.timer.setTimerType(Qt.TimerType.PreciseTimer)
        self.timer.setInterval(1)
        self.timer.timeout.connect(self._tick)

    def _tick(self) -> None:
        now = self.clock.elapsed()
        self.worst_ms = max(self.worst_ms, now - self.last)
        self.last = now
        self.ticks += 1

    def start(self) -> None:
        self.clock.start()
        self.last = 0
        self.worst_ms = 0
        self.ticks = 0
        self.timer.start()

    def stop(self) -> int:
        self._tick()          # a stall still running at the end counts too
        self.timer.stop()
        return self.worst_ms


def one_round(window: Any) -> int:
    """Types the query into an empty field; the longest stall (ms) until its results show."""
    window.search_field.clear()
    window.search_page.query_edited("")
    window.search_field.setFocus()
    run_loop(50)          # the window settles before measuring
    probe = StallProbe()
    probe.start()
    type_slowly(window.search_field, QUERY, PER_KEY_MS)
    wait_until(lambda: window.search_state is not None and window.search_state["results"]["phase"] == "loaded"
               and window.search_state["results"]["query"] == QUERY, "the results")
    return probe.stop()


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
        stalls = [one_round(window) for _ in range(args.rounds)]
        window.close()
    del app
    print(f"desktop typing ({QUERY!r}, {PER_KEY_MS} ms per key, {args.rounds} rounds): longest event-loop stall "
          f"median {statistics.median(stalls):.0f} ms, max {max(stalls)} ms (frame: {FRAME_MS} ms); "
          f"rounds: {', '.join(map(str, stalls))} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
