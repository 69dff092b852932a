"""cinematic.signals.StopSignals: a signal arrives on a descriptor the host's loop waits on; the
first stop signal decides the exit status; the previous handlers come back."""

from __future__ import annotations

import os
import select
import signal

from cinematic.signals import StopSignals


def arrived(signals: StopSignals, number: int) -> tuple:
    os.kill(os.getpid(), number)
    readable, _, _ = select.select([signals.fileno()], [], [], 10.0)
    assert readable == [signals.fileno()], "the signal never reached the descriptor"
    return signals.drain()


def test_a_wake_signal_wakes_the_loop_and_stops_nothing() -> None:
    with StopSignals((signal.SIGHUP,), wake=(signal.SIGWINCH,)) as signals:
        assert arrived(signals, signal.SIGWINCH) == (signal.SIGWINCH,)
        assert signals.stopped_by is None and signals.exit_status(0) == 0
        assert signals.drain() == ()          # nothing waits: never blocks


def test_the_first_stop_signal_decides_the_exit_status() -> None:
    with StopSignals((signal.SIGTERM, signal.SIGHUP)) as signals:
        assert arrived(signals, signal.SIGHUP) == (signal.SIGHUP,)
        arrived(signals, signal.SIGTERM)
        assert signals.stopped_by == signal.SIGHUP and signals.exit_status(0) == 128 + signal.SIGHUP


def test_leaving_puts_the_previous_handlers_and_wakeup_descriptor_back() -> None:
    def mine(signum: int, frame: object) -> None:
        pass
    before = signal.signal(signal.SIGHUP, mine)
    try:
        with StopSignals((signal.SIGHUP,)):
            assert signal.getsignal(signal.SIGHUP) is not mine
        assert signal.getsignal(signal.SIGHUP) is mine
        assert signal.set_wakeup_fd(-1) == -1   # none was set before
    finally:
        signal.signal(signal.SIGHUP, before)
