@testable import CinematicThreads
import MVIKit
import Synchronization
import Testing
import CinematicTestSupport

/// The library's own threads: a worker runs jobs in order off the caller's thread, a thread
/// executor runs tasks there and can be waited on until idle.
@Suite("WorkerThread and ThreadExecutor")
struct WorkerThreadTests {
    struct Failure: Error, Equatable { let code: Int }

    @Test func jobsRunInOrderOnTheWorkerNotTheCaller() async throws {
        let worker = WorkerThread(name: "test")
        defer { worker.shutDown() }
        let order = Recorder<Int>()
        for index in 0..<100 { worker.submit { order.append(index) } }
        let onWorker = await worker.perform({ () throws(Never) in worker.isCurrent }, stopped: { fatalError() })
        #expect(onWorker)
        #expect(!worker.isCurrent)
        #expect(order.values == Array(0..<100))
    }

    /// A worker costs no thread until it is asked for something: its first job starts it
    /// (once, however many threads submit at the same moment) and the jobs all run, in each
    /// submitter's order. One never asked still runs `finally` on a thread of its own.
    @Test func theThreadStartsWithTheFirstJob() async {
        let idle = WorkerThread(name: "test")
        #expect(!idle.hasThread)
        let ranOnWorker = Mutex(false)
        idle.shutDown { ranOnWorker.withLock { $0 = idle.isCurrent } }
        #expect(ranOnWorker.withLock { $0 })

        let worker = WorkerThread(name: "test")
        defer { worker.shutDown() }
        #expect(!worker.hasThread)
        let senders = 8, jobs = 200
        let seen = Recorder<(Int, Int)>()
        await withTaskGroup(of: Void.self) { group in
            for sender in 0..<senders {
                group.addTask { for job in 0..<jobs { worker.submit { seen.append((sender, job)) } } }
            }
        }
        #expect(worker.hasThread)
        #expect(worker.waitUntilIdle(deadline: .after(milliseconds: 60_000)))
        #expect(seen.values.count == senders * jobs)
        for sender in 0..<senders {
            #expect(seen.values.filter { $0.0 == sender }.map(\.1) == Array(0..<jobs))
        }
        let ticking = WorkerThread(name: "test", tickMilliseconds: 60_000) {}
        #expect(ticking.hasThread)   // a tick runs while idle: its thread starts at once
        ticking.shutDown()
    }

    /// A worker whose queue never empties (a producer faster than its jobs) still lets go of
    /// the jobs it ran: memory follows what waits, not what ever waited.
    @Test func aNeverIdleWorkerReleasesTheJobsItRan() {
        final class Counter: Sendable {
            let released = Atomic<Int>(0)
            let seen = Atomic<Int>(-1)
        }
        final class Payload: Sendable {
            let counter: Counter
            init(_ counter: Counter) { self.counter = counter }
            deinit { counter.released.add(1, ordering: .relaxed) }
        }
        let worker = WorkerThread(name: "busy")
        defer { worker.shutDown() }
        let counter = Counter()
        let gate = Latch()
        worker.submit { _ = gate.wait(until: nil) }           // everything below queues behind it
        let total = 1_000
        for index in 0..<total {
            let payload = Payload(counter)
            worker.submit {
                _ = payload
                if index == total - 10 { counter.seen.store(counter.released.load(ordering: .relaxed), ordering: .relaxed) }
            }
        }
        gate.open()
        _ = worker.waitUntilIdle()
        // Before the queue emptied, most of the jobs that had run were already released.
        #expect(counter.seen.load(ordering: .relaxed) >= total / 2)
        #expect(counter.released.load(ordering: .relaxed) == total)
    }

    @Test func performReturnsValuesAndTypedErrors() async throws {
        let worker = WorkerThread(name: "test")
        defer { worker.shutDown() }
        let value = try await worker.perform({ () throws(Failure) in 42 }, stopped: { Failure(code: 0) })
        #expect(value == 42)
        let error = await #expect(throws: Failure.self) {
            try await worker.perform({ () throws(Failure) -> Int in throw Failure(code: 7) }, stopped: { Failure(code: 0) })
        }
        #expect(error == Failure(code: 7))
    }

    @Test func shutDownRunsQueuedJobsThenTheFinalOneAndRefusesLaterWork() async {
        let worker = WorkerThread(name: "test")
        let log = Recorder<String>()
        for index in 0..<3 { worker.submit { log.append("job \(index)") } }
        worker.shutDown { log.append("final") }
        #expect(log.values == ["job 0", "job 1", "job 2", "final"])   // joined: all ran before shutDown returned
        #expect(worker.submit { log.append("late") } == false)
        let error = await #expect(throws: Failure.self) {
            try await worker.perform({ () throws(Failure) in 1 }, stopped: { Failure(code: 9) })
        }
        #expect(error == Failure(code: 9))
        worker.shutDown()   // idempotent
        #expect(log.values.count == 4)
    }

    @Test func aCancelledReadIsSkippedButAWriteAlwaysRuns() async {
        let worker = WorkerThread(name: "test")
        defer { worker.shutDown() }
        let gate = Latch()
        worker.submit { _ = gate.wait(until: nil) }   // keeps the worker busy until the gate opens
        let ran = Recorder<String>()
        let read = Task {
            try await worker.perform({ () throws(Failure) in ran.append("read") }, stopped: { Failure(code: 0) },
                                     cancelled: { Failure(code: 1) })
        }
        let write = Task {
            try await worker.perform({ () throws(Failure) in ran.append("write") }, stopped: { Failure(code: 0) })
        }
        await waitUntil(timeout: .seconds(60)) { worker.queuedJobCount == 2 }
        read.cancel()
        write.cancel()
        gate.open()
        let readResult = await read.result
        #expect(throws: Failure(code: 1)) { try readResult.get() }
        let writeResult = await write.result
        #expect((try? writeResult.get()) != nil)
        #expect(ran.values == ["write"])
    }

    @Test func tickRunsWhileIdle() async {
        let ticks = Mutex(0)
        let worker = WorkerThread(name: "test", tickMilliseconds: 1) { ticks.withLock { $0 += 1 } }
        defer { worker.shutDown() }
        await waitUntil { ticks.withLock { $0 } >= 3 }
    }

    @Test func tasksPreferringTheExecutorRunOnItsThreadAndCanBeAwaitedIdle() async {
        let executor = ThreadExecutor(name: "test-effects")
        defer { executor.shutDown() }
        let clock = ManualClock()
        let seen = Recorder<Bool>()
        let task = Task(executorPreference: executor) {
            seen.append(executor.isCurrent)
            try? await clock.sleep(for: .seconds(1))
            seen.append(executor.isCurrent)
        }
        await waitUntil { clock.sleeperCount == 1 }
        clock.advance(by: .seconds(1))
        // The woken task continues on the executor; once idle, it has run to its end.
        #expect(executor.waitUntilIdle(deadline: .after(milliseconds: 5_000)))
        #expect(seen.values == [true, true])
        await task.value
    }
}
