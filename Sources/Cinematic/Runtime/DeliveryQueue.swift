import CSystem
#if canImport(Glibc)
import Glibc
#endif

/// How a runtime delivers callbacks (config `delivery`).
enum DeliveryMode: Sendable {
    /// Callbacks run on the library thread that produced the work (the sender's thread for a
    /// state caused by `send`, an effect's thread otherwise), serialized per runtime.
    case immediate
    /// Work waits; the runtime's fd is readable while it does, and `cinematic_runtime_dispatch`
    /// runs the callbacks on the calling thread.
    case queued
}

/// One runtime's callback queue: states for store observers, requests and cancellations for
/// the catalog provider. Guarantees, in both modes: callbacks of one runtime never run
/// concurrently (one drainer at a time), events run in the order they were queued (so each
/// store's states arrive in production order), a callback may call back into the library
/// (reentrant work is queued and run after it returns), and no callback for a store runs
/// after ``purge(store:)`` returns, nor any after ``close()`` returns.
final class DeliveryQueue: @unchecked Sendable {
    /// The key of events that belong to the runtime rather than a store (provider calls).
    static let runtimeEvents: UInt64 = 0

    /// A queued callback. `store` is the key of the store it belongs to, or
    /// ``runtimeEvents``.
    struct Event {
        let store: UInt64
        /// Runs the callback; returns false when it decided not to call the host after all.
        let run: @Sendable () -> Bool
    }

    let mode: DeliveryMode
    /// An eventfd, readable while events wait (queued mode); -1 in immediate mode and once
    /// closed.
    var fd: Int32 { condition.locked { eventFD } }

    private let condition = Condition()
    // Guarded by `condition`:
    private var events: [Event] = []
    private var head = 0
    private var drainer: pthread_t?
    private var running: UInt64?
    private var isClosed = false
    private var signalled = false
    private var eventFD: Int32

    init(mode: DeliveryMode) throws(APIError) {
        self.mode = mode
        if mode == .queued {
            eventFD = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
            guard eventFD >= 0 else { throw APIError(.io, "eventfd: \(String(cString: strerror(errno)))") }
        } else {
            eventFD = -1
        }
    }

    deinit { if eventFD >= 0 { Glibc.close(eventFD) } }

    /// Queues an event. Never runs it: callers that hold no lock call ``deliverIfImmediate()``.
    func enqueue(_ event: Event) {
        condition.locked {
            guard !isClosed else { return }
            events.append(event)
            if mode == .queued && !signalled {
                var one: UInt64 = 1
                _ = write(eventFD, &one, 8)
                signalled = true
            }
        }
    }

    /// In immediate mode, runs what waits on this thread (unless another thread is already
    /// running callbacks, which then runs it). Call only with no library lock held.
    func deliverIfImmediate() {
        if mode == .immediate { _ = drain() }
    }

    /// True when the calling thread is running a callback of this runtime.
    var isDeliveringOnCurrentThread: Bool {
        condition.locked { drainer.map { pthread_equal($0, pthread_self()) != 0 } ?? false }
    }

    /// Runs waiting callbacks on this thread until none is left; returns how many called the
    /// host.
    /// Returns 0 at once when another thread is running callbacks.
    func drain() -> Int {
        var count = 0
        condition.locked {
            guard drainer == nil, !isClosed else { return }
            drainer = pthread_self()
            while let event = pop() {
                running = event.store
                var ran = false
                condition.unlocked { ran = event.run() }
                running = nil
                if ran { count += 1 }
                condition.broadcast()
            }
            drainer = nil
            if signalled && eventFD >= 0 {
                var value: UInt64 = 0
                _ = read(eventFD, &value, 8)
                signalled = false
            }
            condition.broadcast()
        }
        return count
    }

    /// Drops `store`'s waiting events and waits until none of its callbacks is running on
    /// another thread. After this returns no callback for `store` runs (its producers must be
    /// stopped first).
    func purge(store: UInt64) {
        condition.locked {
            events = Array(events[head...].filter { $0.store != store })
            head = 0
            while running == store && !isCurrentDrainer { condition.wait(until: nil) }
        }
    }

    /// Waits until no callback of `store` is running on another thread (waiting events stay).
    func waitUntilNotRunning(store: UInt64) {
        condition.locked {
            while running == store && !isCurrentDrainer { condition.wait(until: nil) }
        }
    }

    /// Waits until `store` has no waiting event and no running callback, or `deadline`.
    func waitUntilDelivered(store: UInt64, deadline: Deadline?) -> Bool {
        condition.locked {
            while !isClosed && (running == store || events[head...].contains { $0.store == store }) {
                if isCurrentDrainer { return false }
                if !condition.wait(until: deadline) { return false }
            }
            return true
        }
    }

    /// Drops everything, stops delivery for good, closes the fd and waits for a callback
    /// running on another thread to return.
    func close() {
        condition.locked {
            isClosed = true
            events = []
            head = 0
            if eventFD >= 0 {
                Glibc.close(eventFD)
                eventFD = -1
                signalled = false
            }
            while running != nil && !isCurrentDrainer { condition.wait(until: nil) }
        }
    }

    private var isCurrentDrainer: Bool { drainer.map { pthread_equal($0, pthread_self()) != 0 } ?? false }

    private func pop() -> Event? {
        guard !isClosed, head < events.count else { return nil }
        let event = events[head]
        head += 1
        if head == events.count {
            events.removeAll(keepingCapacity: true)
            head = 0
        }
        return event
    }

}
