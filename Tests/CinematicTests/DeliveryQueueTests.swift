@testable import Cinematic
import CinematicThreads
import MVIKit
import Synchronization
import Testing

@Suite("Delivery queue")
struct DeliveryQueueTests {
    final class Log: Sendable {
        let entries = Mutex<[String]>([])
        func append(_ entry: String) { entries.withLock { $0.append(entry) } }
        var all: [String] { entries.withLock { $0 } }
    }

    /// An event that always calls the host.
    func event(_ store: UInt64, _ body: @escaping @Sendable () -> Void) -> DeliveryQueue.Event {
        DeliveryQueue.Event(store: store) { body(); return true }
    }

    @Test func queuedEventsWaitForDrainInOrder() throws {
        let queue = try DeliveryQueue(mode: .queued, effects: ThreadExecutor(name: "test-effects"))
        let log = Log()
        for index in 0..<5 { queue.enqueue(event(1) { log.append("e\(index)") }) }
        #expect(log.all.isEmpty)
        #expect(queue.drain() == 5)
        #expect(log.all == ["e0", "e1", "e2", "e3", "e4"])
        #expect(queue.drain() == 0)
    }

    @Test func reentrantWorkRunsAfterTheCurrentCallback() throws {
        let queue = try DeliveryQueue(mode: .immediate, effects: ThreadExecutor(name: "test-effects"))
        let log = Log()
        queue.enqueue(event(1) {
            log.append("outer start")
            queue.enqueue(event(1) { log.append("inner") })
            queue.deliver()
            log.append("outer end")
        })
        queue.deliver()
        #expect(log.all == ["outer start", "outer end", "inner"])
    }

    @Test func purgeDropsOnlyThatStoresEvents() throws {
        let queue = try DeliveryQueue(mode: .queued, effects: ThreadExecutor(name: "test-effects"))
        let log = Log()
        queue.enqueue(event(1) { log.append("one") })
        queue.enqueue(event(2) { log.append("two") })
        queue.purge(store: 1)
        _ = queue.drain()
        #expect(log.all == ["two"])
    }

    @Test func closeDropsEverythingForGood() throws {
        let queue = try DeliveryQueue(mode: .queued, effects: ThreadExecutor(name: "test-effects"))
        let log = Log()
        queue.enqueue(event(1) { log.append("before") })
        queue.close()
        queue.enqueue(event(1) { log.append("after") })
        #expect(queue.drain() == 0)
        #expect(log.all.isEmpty)
    }

    @Test func deliveringFlagIsSetOnlyInsideCallbacks() throws {
        let queue = try DeliveryQueue(mode: .queued, effects: ThreadExecutor(name: "test-effects"))
        let inside = Mutex(false)
        #expect(!queue.isDeliveringOnCurrentThread)
        queue.enqueue(event(1) { inside.withLock { $0 = queue.isDeliveringOnCurrentThread } })
        _ = queue.drain()
        #expect(inside.withLock { $0 })
    }
}
