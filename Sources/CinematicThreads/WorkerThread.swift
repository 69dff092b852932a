import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A thread the library owns that runs jobs one at a time, in submission order: the home of
/// blocking work (a SQLite connection, a delivery loop) so that it never runs on a host's
/// thread or on Swift's cooperative pool.
///
/// Async code awaits a job with ``perform(_:)``; the awaiting task is suspended, not blocked.
/// An optional `tick` runs on the thread whenever it has been idle for `tickMilliseconds`
/// (polling a file for changes made by other processes, for example).
///
/// The thread starts with the first job (a worker that ticks, at once): a worker nothing is
/// asked of costs no thread, and creating one (about 40 µs) is not on the path of whatever
/// opened it.
///
/// ```swift
/// let worker = WorkerThread(name: "favorites")
/// let rows = try await worker.perform { () throws(MovieError) in try database.readAll() }
/// worker.shutDown { database.close() }   // runs after every job, then joins the thread
/// ```
package final class WorkerThread: @unchecked Sendable {
    private let condition = Condition()
    // Guarded by `condition`:
    private var jobs: [@Sendable () -> Void] = []
    private var head = 0
    private var isBusy = false
    private var isStopping = false
    private var finalJob: (@Sendable () -> Void)?
    private var isStarted = false
    private var hasExited = false
    /// The thread's id once it runs (0 before): set by the thread itself, read by ``isCurrent``.
    private let threadID = Atomic<UInt>(0)

    private let tickMilliseconds: Int?
    private let tick: (@Sendable () -> Void)?

    /// A worker whose thread starts with its first job, or at once when it ticks (`tick` and
    /// `tickMilliseconds` both given).
    /// `name` says what it is for (kept for debugging).
    package init(name: String, tickMilliseconds: Int? = nil, tick: (@Sendable () -> Void)? = nil) {
        self.tickMilliseconds = tickMilliseconds
        self.tick = tick
        if tick != nil, tickMilliseconds != nil { condition.locked { startLocked() } }
    }

    /// Starts the thread, once (the caller holds `condition`). A thread that cannot be created
    /// is a broken process (out of threads or memory): it stops here, as a failed allocation would.
    private func startLocked() {
        guard !isStarted else { return }
        isStarted = true
        var thread = pthread_t()
        let box = Unmanaged.passRetained(self).toOpaque()
        let status = pthread_create(&thread, nil, { argument in
            let worker = Unmanaged<WorkerThread>.fromOpaque(argument!).takeRetainedValue()
            worker.threadID.store(UInt(bitPattern: Int(bitPattern: pthread_self())), ordering: .relaxed)
            worker.loop()
            return nil
        }, box)
        precondition(status == 0, "pthread_create failed: \(status)")
    }

    /// Whether the worker's thread was started (by a first job, a tick or ``shutDown(finally:)``).
    package var hasThread: Bool { condition.locked { isStarted } }

    /// True when called on this worker's own thread.
    package var isCurrent: Bool {
        threadID.load(ordering: .relaxed) == UInt(bitPattern: Int(bitPattern: pthread_self()))
    }

    /// Queues `job` (starting the thread if this is the first); false (and the job is not
    /// run) once ``shutDown(finally:)`` has begun.
    @discardableResult
    package func submit(_ job: @escaping @Sendable () -> Void) -> Bool {
        condition.locked {
            guard !isStopping else { return false }
            startLocked()
            jobs.append(job)
            condition.broadcast()
            return true
        }
    }

    /// Runs `body` on the worker thread and returns its result to the suspended caller.
    /// After shutdown `body` is not run and `stopped()` is thrown instead. With `cancelled`,
    /// a caller whose task is cancelled before the job starts gets `cancelled()` and `body`
    /// is skipped (a read nobody waits for any more); without it `body` always runs (a write
    /// the user asked for is never lost to a closing screen).
    package func perform<T: Sendable, E: Error>(
        _ body: @escaping @Sendable () throws(E) -> T, stopped: @escaping @Sendable () -> E,
        cancelled: (@Sendable () -> E)? = nil
    ) async throws(E) -> T {
        let flag = CancellationFlag()
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<T, E>, Never>) in
                let queued = submit {
                    if let cancelled, flag.isSet {
                        continuation.resume(returning: .failure(cancelled()))
                        return
                    }
                    do throws(E) { continuation.resume(returning: .success(try body())) } catch { continuation.resume(returning: .failure(error)) }
                }
                if !queued { continuation.resume(returning: .failure(stopped())) }
            }
        } onCancel: {
            flag.set()
        }
        return try result.get()
    }

    /// How many jobs wait (not counting one running).
    package var queuedJobCount: Int { condition.locked { jobs.count - head } }

    /// Waits until no job is queued or running (or `deadline` passes; false then). Returns at
    /// once on the worker's own thread.
    @discardableResult
    package func waitUntilIdle(deadline: Deadline? = nil) -> Bool {
        guard !isCurrent else { return true }
        return condition.locked {
            while head < jobs.count || isBusy {
                if hasExited { return true }
                if !condition.wait(until: deadline) { return false }
            }
            return true
        }
    }

    /// Stops taking jobs, runs the ones already queued, then `finally`, and ends the thread.
    /// Joins it (so when this returns `finally` has run) unless called on the worker thread
    /// itself, where it only schedules the end. Idempotent: later calls just wait.
    package func shutDown(finally: (@Sendable () -> Void)? = nil) {
        let join = condition.locked { () -> Bool in
            if !isStopping {
                isStopping = true
                finalJob = finally
                startLocked()   // a worker never asked for anything still runs `finally` on its thread
                condition.broadcast()
            }
            return !isCurrent
        }
        guard join else { return }
        condition.locked {
            while !hasExited { condition.wait(until: nil) }
        }
    }

    private func loop() {
        running: while true {
            do {
                guard let job = next() else { break running }
                job()
            }   // the job and what it captured are released here, before idle is announced
            condition.locked {
                isBusy = false
                condition.broadcast()
            }
        }
        let finalJob = condition.locked { () -> (@Sendable () -> Void)? in
            defer { self.finalJob = nil }
            return self.finalJob
        }
        finalJob?()
        threadID.store(0, ordering: .relaxed)   // its id may be reused by a thread made later
        condition.locked {
            hasExited = true
            condition.broadcast()
        }
        pthread_detach(pthread_self())
    }

    /// The next job; runs `tick` while idle; nil once stopping and empty.
    private func next() -> (@Sendable () -> Void)? {
        while true {
            let (job, runTick) = condition.locked { () -> ((@Sendable () -> Void)?, Bool) in
                while head == jobs.count {
                    if isStopping { return (nil, false) }
                    let deadline = tickMilliseconds.flatMap { Deadline.after(milliseconds: $0) }
                    if !condition.wait(until: deadline) && head == jobs.count && !isStopping && tick != nil {
                        isBusy = true
                        return (nil, true)
                    }
                }
                let job = jobs[head]
                head += 1
                if head == jobs.count {
                    jobs.removeAll(keepingCapacity: true)
                    head = 0
                } else if head >= 64 && head * 2 >= jobs.count {
                    // A thread that is never idle must still let go of the jobs it ran: the
                    // queue's memory follows what waits, not what ever waited.
                    jobs.removeFirst(head)
                    head = 0
                }
                isBusy = true
                return (job, false)
            }
            if let job { return job }
            guard runTick, let tick else { return nil }
            tick()
            condition.locked {
                isBusy = false
                condition.broadcast()
            }
        }
    }
}

/// A one-way flag set from a cancellation handler and read by a worker job.
final class CancellationFlag: Sendable {
    private let value = Atomic<Bool>(false)

    func set() { value.store(true, ordering: .releasing) }

    var isSet: Bool { value.load(ordering: .acquiring) }
}
