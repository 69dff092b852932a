/// A task executor backed by one ``WorkerThread``: tasks started with it as their executor
/// preference run there, one job at a time, instead of on Swift's cooperative pool (which
/// every runtime in a process shares). A runtime gives its effects one of these, so its
/// effects can never starve another runtime's, and a test can wait until every effect it
/// woke has reached its next suspension (``waitUntilIdle(deadline:)``).
///
/// After ``shutDown()`` the thread ends and jobs still arriving (cancelled effects finishing)
/// run on the global concurrent executor.
///
/// ```swift
/// let executor = ThreadExecutor(name: "effects")
/// let store = Store(initialState: SearchState(), reducer: reducer, executor: executor)
/// ```
package final class ThreadExecutor: TaskExecutor, @unchecked Sendable {
    private let worker: WorkerThread

    /// Starts the executor's thread.
    package init(name: String) { worker = WorkerThread(name: name) }

    deinit { worker.shutDown() }

    package func enqueue(_ job: consuming ExecutorJob) {
        let unowned = UnownedJob(job)
        let queued = worker.submit { [self] in unowned.runSynchronously(on: asUnownedTaskExecutor()) }
        if !queued { globalConcurrentExecutor.enqueue(ExecutorJob(unowned)) }
    }

    /// True when called on the executor's thread.
    package var isCurrent: Bool { worker.isCurrent }

    /// Waits until no job is queued or running: every task on this executor is suspended.
    @discardableResult
    package func waitUntilIdle(deadline: Deadline? = nil) -> Bool { worker.waitUntilIdle(deadline: deadline) }

    /// Runs what is queued and ends the thread (joined unless called on it).
    package func shutDown() { worker.shutDown() }
}
