import Synchronization
import CinematicTestSupport

/// A one-shot gate that effects wait on. It deliberately IGNORES task cancellation, like a
/// network layer that answers late: a cancelled effect waiting here carries on once opened.
final class Gate: Sendable {
    private struct Inner {
        var isOpen = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let inner = Mutex(Inner())

    /// How many tasks are waiting.
    var waiterCount: Int { inner.withLock { $0.waiters.count } }

    /// Suspends until ``open()``; returns at once if already open. Not cancellable.
    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let openAlready = inner.withLock { inner -> Bool in
                if inner.isOpen { return true }
                inner.waiters.append(continuation)
                return false
            }
            if openAlready { continuation.resume() }
        }
    }

    /// Releases every waiter, present and future.
    func open() {
        let waiters = inner.withLock { inner -> [CheckedContinuation<Void, Never>] in
            inner.isOpen = true
            defer { inner.waiters = [] }
            return inner.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}
