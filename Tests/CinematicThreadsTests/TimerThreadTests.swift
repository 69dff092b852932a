@testable import CinematicThreads
import Testing
import CinematicTestSupport

/// The library's timer: sleeps end at their deadline, and a cancelled sleep is let go at once
/// (what the timer holds follows the sleeps that wait, not every sleep ever started).
@Suite("TimerThread")
struct TimerThreadTests {
    @Test func aSleepEndsNoEarlierThanItsDeadline() async throws {
        let timer = TimerThread()
        let start = Deadline.now
        try await timer.sleep(for: .milliseconds(20))
        #expect(Deadline.now.nanoseconds - start.nanoseconds >= 20_000_000)
        #expect(timer.sleeperCount == 0)
        #expect(timer.heldDeadlines == 0)
    }

    @Test func aCancelledSleepIsReleasedAtOnceNotAtItsDeadline() async {
        let timer = TimerThread()
        let sleeper = Task { try await timer.sleep(for: .seconds(3_600)) }
        await waitUntil { timer.sleeperCount == 1 }
        sleeper.cancel()
        #expect(timer.sleeperCount == 0)   // the cancellation handler released it
        let result = await sleeper.result
        #expect(throws: CancellationError.self) { try result.get() }
    }

    /// Thousands of long sleeps cancelled early (requests' deadline timers stopped by their
    /// answers): the timer lets go of them, deadlines included, at once.
    @Test func cancelledSleepsDoNotAccumulate() async {
        let timer = TimerThread()
        let sleepers = (0..<2_000).map { index in
            Task { try await timer.sleep(for: .seconds(3_600 + index)) }
        }
        await waitUntil { timer.sleeperCount == 2_000 }
        #expect(timer.heldDeadlines == 2_000)
        for sleeper in sleepers { sleeper.cancel() }
        #expect(timer.sleeperCount == 0)
        #expect(timer.heldDeadlines <= 65)
        for sleeper in sleepers { _ = await sleeper.result }
    }

    @Test func aSleepUntilCancelledEndsOnlyWithCancellation() async {
        let timer = TimerThread()
        let sleeper = Task { try await timer.sleepUntilCancelled() }
        await waitUntil { timer.sleeperCount == 1 }
        #expect(timer.heldDeadlines == 0)   // no deadline to watch
        sleeper.cancel()
        let result = await sleeper.result
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(timer.sleeperCount == 0)
    }

    @Test func aTaskCancelledBeforeItSleepsThrowsAndLeavesNothing() async {
        let timer = TimerThread()
        let sleeper = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await timer.sleep(for: .seconds(3_600))
        }
        let result = await sleeper.result
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(timer.sleeperCount == 0)
    }

    @Test func deadlinesSaturateInsteadOfOverflowing() {
        #expect(Deadline.after(.seconds(Int64.max)).nanoseconds == .max)
        #expect(Deadline.after(.seconds(-5)) <= Deadline.now)
        #expect(Deadline.after(milliseconds: -1) == nil)
    }
}
