import CSystem
import CinematicThreads
#if canImport(Glibc)
import Glibc
#endif

/// How a runtime delivers callbacks (config `delivery`).
enum DeliveryMode: Sendable {
    /// Callbacks run on the host thread whose call produced the work (`send`, `observe`,
    /// `advance_clock`, `respond`), and on the runtime's own delivery thread for work that
    /// effects produce; serialized per runtime.
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
/// after ``purge(store:)`` returns, nor any after ``close()`` returns (with one exception, to
/// rule out deadlocks: called from inside a callback of any runtime, they do not wait for a
/// callback running on another thread; see ``isInsideCallback``).
///
/// Threads: a host thread runs the callbacks its own call produced (``deliver()``), unless
/// another thread is delivering at that moment. Work produced on the runtime's effect thread
/// is handed to the runtime's delivery thread, so a slow callback stalls only this runtime's
/// deliveries, never an effect and never another runtime. While a host call holds the queue
/// (``hold()``, e.g. `advance_clock` waiting for the effects it woke), the delivery thread
/// leaves new work to that host call.
///
/// Lock order: the queue's lock is a leaf. Callbacks run with it released.
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
    private var holds = 0
    private var drainScheduled = false

    /// The runtime's effect thread: work it produces goes to the delivery thread.
    private let effects: ThreadExecutor
    /// Immediate mode: the thread that delivers what effects produce.
    private let deliveryThread: WorkerThread?

    init(mode: DeliveryMode, effects: ThreadExecutor) throws(APIError) {
        self.mode = mode
        self.effects = effects
        self.deliveryThread = mode == .immediate ? WorkerThread(name: "cinematic-delivery") : nil
        if mode == .queued {
            eventFD = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
            guard eventFD >= 0 else { throw APIError(.io, "eventfd: \(String(cString: strerror(errno)))") }
        } else {
            eventFD = -1
        }
    }

    deinit {
        if eventFD >= 0 { Glibc.close(eventFD) }
        deliveryThread?.shutDown()
    }

    /// Queues an event. Never runs it: callers that hold no lock call ``deliver()``.
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

    /// In immediate mode, delivers what waits: on this thread when it is a host thread
    /// (unless another thread is delivering, which then delivers it), through the delivery
    /// thread when it is the runtime's effect thread. Call only with no library lock held.
    func deliver() {
        guard mode == .immediate else { return }
        if effects.isCurrent { scheduleDrain() } else { _ = drain() }
    }

    /// For work queued from inside a store's notifier (a log line): on the runtime's effect
    /// thread, hands it to the delivery thread; on a host thread does nothing, because the
    /// host call that is running delivers before it returns (delivering here could make the
    /// delivery thread take over states that call must deliver itself).
    func deliverSoon() {
        guard mode == .immediate, effects.isCurrent else { return }
        scheduleDrain()
    }

    /// Asks the delivery thread to deliver what waits (once, however often it is asked),
    /// unless a host call holds the queue: that call delivers it. Nothing waiting, nothing is
    /// asked (whoever queues an event next calls ``deliver()``).
    private func scheduleDrain() {
        let schedule = condition.locked { () -> Bool in
            guard head < events.count, !drainScheduled, holds == 0, !isClosed else { return false }
            drainScheduled = true
            return true
        }
        guard schedule, let deliveryThread else { return }
        deliveryThread.submit { [self] in
            condition.locked { drainScheduled = false }
            _ = drain()
        }
    }

    /// Keeps the delivery thread away from new work until ``release()``: the holding host
    /// call delivers it on its own thread (so, e.g., `advance_clock` returns after the
    /// provider request it caused was delivered).
    func hold() { condition.locked { holds += 1 } }

    /// Ends a ``hold()``: delivers what waits on this thread, then lets the delivery thread
    /// take over again.
    func release() {
        if mode == .immediate { _ = drain() }
        let pending = condition.locked { () -> Bool in
            holds -= 1
            return holds == 0 && head < events.count
        }
        if pending && mode == .immediate { scheduleDrain() }
    }

    /// True when the calling thread is running a callback of this runtime.
    var isDeliveringOnCurrentThread: Bool {
        condition.locked { drainer.map { pthread_equal($0, pthread_self()) != 0 } ?? false }
    }

    /// True when the calling thread is running a callback of any runtime. Waits for another
    /// thread's callback are skipped then: two callbacks each closing a store of the other's
    /// runtime would otherwise wait for each other forever.
    static var isInsideCallback: Bool { CallbackDepth.current > 0 }

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
                condition.unlocked {
                    CallbackDepth.current += 1
                    ran = event.run()
                    CallbackDepth.current -= 1
                }
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
            while running == store && !isCurrentDrainer && !Self.isInsideCallback { condition.wait(until: nil) }
        }
    }

    /// Waits until no callback of `store` is running on another thread (waiting events stay).
    func waitUntilNotRunning(store: UInt64) {
        condition.locked {
            while running == store && !isCurrentDrainer && !Self.isInsideCallback { condition.wait(until: nil) }
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

    /// Drops everything, stops delivery for good, closes the fd, waits for a callback running
    /// on another thread to return (unless called from inside a callback) and ends the
    /// delivery thread.
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
            while running != nil && !isCurrentDrainer && !Self.isInsideCallback { condition.wait(until: nil) }
        }
        deliveryThread?.shutDown()
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

/// How deep the calling thread is inside library callbacks (of any runtime).
enum CallbackDepth {
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    static var current: Int {
        get { Int(bitPattern: pthread_getspecific(key)) }
        set { pthread_setspecific(key, UnsafeRawPointer(bitPattern: newValue)) }
    }
}
