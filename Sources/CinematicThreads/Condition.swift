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
package struct Deadline {
    package let timespec: timespec

    /// `milliseconds` from now; nil (no limit) for a negative value.
    package static func after(milliseconds: Int) -> Deadline? {
        guard milliseconds >= 0 else { return nil }
        var now = Glibc.timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let nanoseconds = Int(now.tv_nsec) + (milliseconds % 1000) * 1_000_000
        return Deadline(timespec: Glibc.timespec(
            tv_sec: now.tv_sec + milliseconds / 1000 + nanoseconds / 1_000_000_000,
            tv_nsec: nanoseconds % 1_000_000_000))
    }
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
