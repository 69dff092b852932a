import MVIKit
#if canImport(Glibc)
import Glibc
#endif

/// A runtime's "now" in Unix seconds, for the offline cache (when an answer was stored, and
/// whether it outlived its time to live).
///
/// With the system clock it is the real time. With a manual clock it is the real time when
/// the runtime opened plus how far the manual clock has been advanced, so a test ages cached
/// answers with `cinematic_runtime_advance_clock` and never sleeps.
///
/// ```swift
/// let wall = WallClock(manual: manualClock)
/// let storedAt = wall.now()
/// ```
struct WallClock: Sendable {
    private let manual: ManualClock?
    private let start: Int64

    /// Reads the real time once; `manual`, when given, drives the time from then on.
    init(manual: ManualClock?) {
        self.manual = manual
        start = Self.realTime()
    }

    /// The current Unix time in seconds.
    func now() -> Int64 {
        guard let manual else { return Self.realTime() }
        return start + manual.now.offset.components.seconds
    }

    private static func realTime() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Int64(time.tv_sec)
    }
}
