#if canImport(Glibc)
import Glibc
#endif

/// A mutex with a condition variable on the monotonic clock, for the library's own threads
/// and the few documented places that block a host thread (close, settle). State guarded by it is touched only inside
/// ``locked(_:)``.
package final class Condition: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    package init() {
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Runs `body` holding the mutex.
    package func locked<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Runs `body` with the mutex released; call only inside ``locked(_:)``.
    package func unlocked(_ body: () -> Void) {
        pthread_mutex_unlock(mutex)
        defer { pthread_mutex_lock(mutex) }
        body()
    }

    /// Waits (holding the mutex, inside ``locked(_:)``) until signalled or `deadline` passes.
    /// Returns false on timeout. A nil deadline waits without limit.
    @discardableResult
    package func wait(until deadline: Deadline?) -> Bool {
        guard let deadline else {
            pthread_cond_wait(condition, mutex)
            return true
        }
        var time = deadline.timespec
        return pthread_cond_timedwait(condition, mutex, &time) != ETIMEDOUT
    }

    /// Wakes every waiter (call inside ``locked(_:)``).
    package func broadcast() { pthread_cond_broadcast(condition) }
}

/// A point on the monotonic clock, for timed waits.
package struct Deadline: Comparable {
    /// Nanoseconds since the monotonic clock's origin.
    package let nanoseconds: UInt64

    /// The instant `nanoseconds` after the monotonic clock's origin.
    package init(nanoseconds: UInt64) { self.nanoseconds = nanoseconds }

    /// Now.
    package static var now: Deadline {
        var now = Glibc.timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Deadline(nanoseconds: UInt64(now.tv_sec) &* 1_000_000_000 &+ UInt64(now.tv_nsec))
    }

    /// `milliseconds` from now; nil (no limit) for a negative value.
    package static func after(milliseconds: Int) -> Deadline? {
        milliseconds >= 0 ? after(.milliseconds(milliseconds)) : nil
    }

    /// `duration` from now (now for a negative one), saturating at the clock's end (some
    /// 584 years from its origin) instead of overflowing.
    package static func after(_ duration: Duration) -> Deadline {
        let start = now.nanoseconds
        guard duration > .zero else { return Deadline(nanoseconds: start) }
        let (seconds, attoseconds) = duration.components
        let (whole, tooLong) = UInt64(clamping: seconds).multipliedReportingOverflow(by: 1_000_000_000)
        let (span, longer) = whole.addingReportingOverflow(UInt64(clamping: attoseconds / 1_000_000_000))
        let (end, beyond) = start.addingReportingOverflow(span)
        return Deadline(nanoseconds: tooLong || longer || beyond ? .max : end)
    }

    /// The instant as the `timespec` a timed wait takes.
    package var timespec: Glibc.timespec {
        Glibc.timespec(tv_sec: Int(clamping: nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
    }

    /// True when `lhs` comes before `rhs`.
    package static func < (lhs: Deadline, rhs: Deadline) -> Bool { lhs.nanoseconds < rhs.nanoseconds }
}

/// A one-shot gate: ``open()`` once, ``wait(until:)`` from any number of threads.
package final class Latch: @unchecked Sendable {
    private let condition = Condition()
    private var isOpen = false

    package init() {}

    package func open() {
        condition.locked {
            isOpen = true
            condition.broadcast()
        }
    }

    /// True once opened; false if `deadline` passed first.
    package func wait(until deadline: Deadline?) -> Bool {
        condition.locked {
            while !isOpen {
                if !condition.wait(until: deadline) { return isOpen }
            }
            return true
        }
    }
}
