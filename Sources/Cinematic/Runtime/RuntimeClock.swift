import CinematicThreads
import MVIKit
#if canImport(Glibc)
import Glibc
#endif

/// The one clock a runtime owns: manual (config `"clock": "manual"`: it moves only with
/// `cinematic_runtime_advance_clock`, so debounce and deadline tests are exact and instant)
/// or the system's continuous clock. Every other time the runtime needs is derived from it:
/// - effects sleep on it (a `Clock` whose instants are the time since the runtime opened);
/// - recordings and logs stamp lines with ``elapsed`` (milliseconds via ``milliseconds(_:)``);
/// - the offline cache dates its answers with ``wallSeconds()``.
///
/// ```swift
/// let clock = RuntimeClock(manual: true)
/// clock.manual?.advance(by: .milliseconds(250))   // wakes the effects sleeping on `clock`
/// clock.elapsed                                   // 0.25 seconds
/// ```
struct RuntimeClock: Clock {
    /// A point in the runtime's life: the time since it opened.
    struct Instant: InstantProtocol {
        /// Time since the runtime opened.
        let offset: Duration

        /// Saturates at ±``ManualClock/limit`` instead of overflowing (as the manual clock does).
        func advanced(by duration: Duration) -> Instant { Instant(offset: ManualClock.saturatingSum(offset, duration)) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private enum Source: Sendable {
        case manual(ManualClock)
        case continuous(start: ContinuousClock.Instant)
    }

    private let source: Source
    /// The real time (Unix seconds) when the runtime opened: a manual clock's wall time is
    /// this plus how far it has been advanced.
    private let wallStart: Int64

    /// A manual clock at zero, or the continuous clock counted from now.
    init(manual: Bool) {
        source = manual ? .manual(ManualClock()) : .continuous(start: .now)
        wallStart = Self.realTime()
    }

    /// The manual clock the host advances; nil for the system clock.
    var manual: ManualClock? {
        guard case let .manual(clock) = source else { return nil }
        return clock
    }

    /// Now: the time since the runtime opened (a manual clock: how far it was advanced).
    var now: Instant {
        switch source {
        case let .manual(clock): Instant(offset: clock.now.offset)
        case let .continuous(start): Instant(offset: ContinuousClock.now - start)
        }
    }

    /// The time since the runtime opened, for recordings and logs.
    var elapsed: Duration { now.offset }

    /// The underlying clock's resolution (zero for the manual clock).
    var minimumResolution: Duration {
        switch source {
        case let .manual(clock): clock.minimumResolution
        case .continuous: ContinuousClock().minimumResolution
        }
    }

    /// Suspends until `deadline` on the underlying clock; throws `CancellationError` if the
    /// task is cancelled first. The system clock sleeps on the library's ``TimerThread``: a
    /// sleep cancelled early (a debounce replaced by the next keystroke, a request's deadline
    /// timer stopped by its answer) is released at once, not when its deadline would pass.
    func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        switch source {
        case let .manual(clock):
            try await clock.sleep(until: ManualClock.Instant(offset: deadline.offset), tolerance: tolerance)
        case .continuous:
            try await TimerThread.shared.sleep(for: now.duration(to: deadline))
        }
    }

    /// The current Unix time in seconds, for the offline cache (when an answer was stored,
    /// whether it outlived its time to live). The system clock reads the real time; a manual
    /// clock gives the real time when the runtime opened plus how far it was advanced, so a
    /// test ages cached answers with `cinematic_runtime_advance_clock` and never sleeps.
    func wallSeconds() -> Int64 {
        guard case let .manual(clock) = source else { return Self.realTime() }
        return wallStart + clock.now.offset.components.seconds
    }

    /// `duration` in milliseconds as JSON: an integer when whole, else three decimals.
    static func milliseconds(_ duration: Duration) -> JSONFragment {
        let (seconds, attoseconds) = duration.components
        let micros = seconds * 1_000_000 + attoseconds / 1_000_000_000_000
        if micros % 1_000 == 0 { return .int(Int(micros / 1_000)) }
        return JSONFragment(consuming: JSONBuilder.real(Double(micros) / 1_000))
    }

    private static func realTime() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Int64(time.tv_sec)
    }
}
