#if canImport(Glibc)
import Glibc
#endif

/// The library's timer: one thread that wakes tasks sleeping on the monotonic clock when
/// their deadline passes. A sleep cancelled first is removed and resumed at once, and its
/// memory goes with it: what the timer holds follows the sleeps that wait, not every sleep
/// ever started. (Swift's own `Task.sleep` keeps a cancelled sleep queued, some 700 bytes,
/// until its deadline would have passed: a host making thousands of provider requests a
/// second, each with a 10 s deadline its answer cancels, held tens of megabytes of requests
/// long finished.)
///
/// The thread only resumes continuations (a woken task runs on its own executor), so one
/// timer serves every runtime in the process; it starts with the first sleep and never
/// calls out while holding its lock.
///
/// ```swift
/// try await TimerThread.shared.sleep(for: .milliseconds(250))   // throws CancellationError when cancelled
/// ```
package final class TimerThread: @unchecked Sendable {
    /// The process's timer.
    package static let shared = TimerThread()

    private typealias Continuation = CheckedContinuation<Void, any Error>

    private enum Slot {
        /// The sleep has a key but its continuation is not registered yet.
        case starting
        /// Cancelled before its continuation was registered.
        case cancelled
        /// Registered: woken at `deadline`, or only by cancellation when nil.
        case sleeping(Continuation, deadline: Deadline?)
    }

    private let condition = Condition()
    // Guarded by `condition`:
    private var slots: [UInt64: Slot] = [:]
    /// Deadlines of registered sleeps, a binary min-heap; an entry whose sleep was cancelled
    /// stays until it reaches the top or the heap is compacted (``noteRemoved()``).
    private var heap: [(deadline: Deadline, key: UInt64)] = []
    /// How many heap entries belong to cancelled sleeps.
    private var stale = 0
    private var nextKey: UInt64 = 0

    /// Starts a timer's thread (the library uses ``shared``; tests make their own). The thread
    /// lasts as long as the process.
    package init() {
        var thread = pthread_t()
        let box = Unmanaged.passRetained(self).toOpaque()
        let status = pthread_create(&thread, nil, { argument in
            let timer = Unmanaged<TimerThread>.fromOpaque(argument!).takeRetainedValue()
            timer.loop()
            return nil
        }, box)
        precondition(status == 0, "pthread_create failed: \(status)")
        pthread_detach(thread)
    }

    /// Suspends for `duration` on the monotonic clock (at least until the caller's executor
    /// runs it again, for a duration of zero or less); throws `CancellationError`, at once, if
    /// the task is cancelled first.
    package func sleep(for duration: Duration) async throws {
        try await sleep(until: Deadline.after(duration))
    }

    /// Suspends until the task is cancelled, then throws `CancellationError`.
    package func sleepUntilCancelled() async throws {
        try await sleep(until: nil)
    }

    /// How many sleeps are registered (cancelled ones are gone at once).
    package var sleeperCount: Int { condition.locked { slots.count } }

    /// How many deadlines the timer holds, cancelled sleeps' included until compacted: never
    /// much more than twice the sleeps that wait.
    package var heldDeadlines: Int { condition.locked { heap.count } }

    private func sleep(until deadline: Deadline?) async throws {
        try Task.checkCancellation()
        if let deadline, deadline <= .now {
            await Task.yield()
            return try Task.checkCancellation()
        }
        let key = condition.locked { () -> UInt64 in
            nextKey += 1
            slots[nextKey] = .starting
            return nextKey
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: Continuation) in
                let cancelled = condition.locked { () -> Bool in
                    guard case .starting? = slots[key] else {
                        slots[key] = nil
                        return true
                    }
                    slots[key] = .sleeping(continuation, deadline: deadline)
                    guard let deadline else { return false }
                    push(deadline, key)
                    if heap[0].key == key { condition.broadcast() }   // a new earliest deadline
                    return false
                }
                if cancelled { continuation.resume(throwing: CancellationError()) }
            }
        } onCancel: {
            let continuation = condition.locked { () -> Continuation? in
                switch slots[key] {
                case .starting?:
                    slots[key] = .cancelled
                    return nil
                case let .sleeping(continuation, deadline)?:
                    slots[key] = nil
                    if deadline != nil { noteRemoved() }
                    return continuation
                case .cancelled?, nil:
                    return nil   // woken already
                }
            }
            continuation?.resume(throwing: CancellationError())
        }
    }

    private func loop() {
        condition.locked {
            while true {
                while let top = heap.first, !isSleeping(top.key) {
                    pop()
                    stale -= 1
                }
                guard let top = heap.first else {
                    condition.wait(until: nil)
                    continue
                }
                guard top.deadline <= .now else {
                    condition.wait(until: top.deadline)
                    continue
                }
                var due: [Continuation] = []
                while let top = heap.first, top.deadline <= .now {
                    pop()
                    if case let .sleeping(continuation, _)? = slots.removeValue(forKey: top.key) {
                        due.append(continuation)
                    } else {
                        stale -= 1
                    }
                }
                condition.unlocked { for continuation in due { continuation.resume() } }
            }
        }
    }

    private func isSleeping(_ key: UInt64) -> Bool {
        if case .sleeping? = slots[key] { return true }
        return false
    }

    /// A sleep left the heap's care: once most entries are stale, keep only the live ones
    /// (a sorted array is a heap), so the heap's memory follows what waits.
    private func noteRemoved() {
        stale += 1
        guard stale > 64, stale * 2 > heap.count else { return }
        heap.removeAll { !isSleeping($0.key) }
        heap.sort { $0.deadline < $1.deadline }
        stale = 0
    }

    private func push(_ deadline: Deadline, _ key: UInt64) {
        heap.append((deadline, key))
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].deadline < heap[parent].deadline else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private func pop() {
        heap.swapAt(0, heap.count - 1)
        heap.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1, right = left + 1
            var smallest = parent
            if left < heap.count, heap[left].deadline < heap[smallest].deadline { smallest = left }
            if right < heap.count, heap[right].deadline < heap[smallest].deadline { smallest = right }
            guard smallest != parent else { return }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
