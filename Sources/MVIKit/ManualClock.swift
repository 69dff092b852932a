import Synchronization

/// A clock that only moves when told to, so tests of debounces and timeouts are exact and
/// instant. Sleepers wake, in deadline order, when ``advance(by:)`` passes their deadline.
///
/// ```swift
/// let clock = ManualClock()
/// store.send(.queryChanged("dune"))   // the debounce sleeps on `clock`
/// clock.advance(by: .milliseconds(250))
/// await store.settle()
/// ```
public final class ManualClock: Clock, Sendable {
    /// A point on the manual clock: the time advanced since the clock was created.
    public struct Instant: InstantProtocol {
        /// Time since the clock's creation.
        public let offset: Duration

        /// Creates an instant `offset` after the clock's start.
        public init(offset: Duration) { self.offset = offset }

        /// Saturates at ±``ManualClock/limit`` instead of overflowing.
        public func advanced(by duration: Duration) -> Instant { Instant(offset: ManualClock.saturatingSum(offset, duration)) }
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private struct Sleeper {
        let deadline: Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct Timeline {
        var now = Instant(offset: .zero)
        var sleepers: [UInt64: Sleeper] = [:]
        /// Keys handed out whose continuation is not registered yet.
        var starting: Set<UInt64> = []
        /// Starting keys whose task was cancelled before the continuation was registered.
        var cancelledBeforeSleeping: Set<UInt64> = []
        var nextKey: UInt64 = 0
    }

    private let timeline = Mutex(Timeline())

    /// The furthest the clock goes (about 73 billion years): advancing past it saturates, so
    /// repeated huge advances never overflow.
    public static let limit = Duration.seconds(Int64.max / 4)

    /// `a + b` clamped to ±``limit`` (each operand is clamped first, so the sum cannot trap).
    package static func saturatingSum(_ a: Duration, _ b: Duration) -> Duration {
        func clamp(_ value: Duration) -> Duration { min(max(value, .zero - limit), limit) }
        return clamp(clamp(a) + clamp(b))
    }

    /// Creates a clock at offset zero.
    public init() {}

    /// The current instant; moves only with ``advance(by:)``.
    public var now: Instant { timeline.withLock { $0.now } }

    /// Zero: the clock has no granularity of its own.
    public var minimumResolution: Duration { .zero }

    /// How many tasks are sleeping on this clock.
    public var sleeperCount: Int { timeline.withLock { $0.sleepers.count } }

    /// Suspends until the clock is advanced to `deadline`; throws `CancellationError` if the
    /// task is cancelled first.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try Task.checkCancellation()
        let key = timeline.withLock { timeline -> UInt64 in
            timeline.nextKey += 1
            timeline.starting.insert(timeline.nextKey)
            return timeline.nextKey
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let resumeNow = timeline.withLock { timeline -> (any Error)?? in
                    timeline.starting.remove(key)
                    if timeline.cancelledBeforeSleeping.remove(key) != nil { return .some(CancellationError()) }
                    if deadline <= timeline.now { return .some(nil) }
                    timeline.sleepers[key] = Sleeper(deadline: deadline, continuation: continuation)
                    return nil
                }
                switch resumeNow {
                case .none: break
                case .some(.none): continuation.resume()
                case let .some(.some(error)): continuation.resume(throwing: error)
                }
            }
        } onCancel: {
            let sleeper = timeline.withLock { timeline -> Sleeper? in
                if let sleeper = timeline.sleepers.removeValue(forKey: key) { return sleeper }
                // Not sleeping yet: remember it for the registration. Already woken: nothing to do.
                if timeline.starting.contains(key) { timeline.cancelledBeforeSleeping.insert(key) }
                return nil
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves the clock forward by `duration` (saturating at ``limit``) and wakes, in deadline
    /// order, every sleeper whose deadline has been reached. Callable from any thread,
    /// synchronously.
    public func advance(by duration: Duration) {
        let due = timeline.withLock { timeline -> [Sleeper] in
            timeline.now = timeline.now.advanced(by: duration)
            let now = timeline.now
            let dueKeys = timeline.sleepers.filter { $0.value.deadline <= now }.keys
            return dueKeys.compactMap { timeline.sleepers.removeValue(forKey: $0) }
                .sorted { $0.deadline < $1.deadline }
        }
        for sleeper in due { sleeper.continuation.resume() }
    }
}
