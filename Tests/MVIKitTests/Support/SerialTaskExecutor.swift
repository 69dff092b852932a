import Dispatch
import CinematicTestSupport

/// A task executor that runs jobs one at a time, in the order they were enqueued. Tasks that
/// prefer it resume in exactly the order their continuations were resumed, which makes wake-up
/// order observable.
final class SerialTaskExecutor: TaskExecutor, @unchecked Sendable {
    private let queue = DispatchQueue(label: "SerialTaskExecutor")

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
