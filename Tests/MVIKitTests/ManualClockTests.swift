import MVIKit
import Testing
import CinematicTestSupport

@Suite("ManualClock")
struct ManualClockTests {
    typealias Instant = ManualClock.Instant

    /// Starts a task that sleeps until `offset` and records `label` when it wakes (or
    /// "label cancelled" when cancelled).
    @discardableResult
    static func sleeper(_ clock: ManualClock, until offset: Duration, label: String, into woke: Recorder<String>,
                        executor: (any TaskExecutor)? = nil) -> Task<Void, Never> {
        Task(executorPreference: executor) {
            do {
                try await clock.sleep(until: Instant(offset: offset), tolerance: nil)
                woke.append(label)
            } catch {
                woke.append(error is CancellationError ? "\(label) cancelled" : "\(label) failed")
            }
        }
    }

    @Test func timeMovesOnlyWhenAdvanced() {
        let clock = ManualClock()
        #expect(clock.now == Instant(offset: .zero))
        #expect(clock.minimumResolution == .zero)
        clock.advance(by: .milliseconds(250))
        clock.advance(by: .seconds(1))
        #expect(clock.now == Instant(offset: .milliseconds(1_250)))
    }

    @Test func instantArithmetic() {
        let start = Instant(offset: .seconds(1))
        let later = start.advanced(by: .milliseconds(500))
        #expect(later == Instant(offset: .milliseconds(1_500)))
        #expect(start.duration(to: later) == .milliseconds(500))
        #expect(later.duration(to: start) == .milliseconds(-500))
        #expect(start < later)
        #expect(!(later < start))
    }

    @Test func sleepersWakeOnlyOnceAdvancedPastTheirDeadline() async {
        let clock = ManualClock()
        let woke = Recorder<String>()
        Self.sleeper(clock, until: .milliseconds(100), label: "100", into: woke)
        Self.sleeper(clock, until: .milliseconds(300), label: "300", into: woke)
        await waitUntil("both sleep") { clock.sleeperCount == 2 }

        clock.advance(by: .milliseconds(99))
        #expect(clock.sleeperCount == 2)
        clock.advance(by: .milliseconds(1))          // exactly the first deadline
        #expect(clock.sleeperCount == 1)
        await waitUntil { woke.count == 1 }
        #expect(woke.values == ["100"])

        clock.advance(by: .milliseconds(150))        // 250: still short of 300
        #expect(clock.sleeperCount == 1)
        clock.advance(by: .milliseconds(100))
        await waitUntil { woke.count == 2 }
        #expect(woke.values == ["100", "300"])
        #expect(clock.sleeperCount == 0)
    }

    @Test func oneAdvanceWakesSleepersInDeadlineOrder() async {
        let clock = ManualClock()
        let woke = Recorder<String>()
        let executor = SerialTaskExecutor()
        // Registered out of order; resumed in deadline order onto one serial executor.
        for offset in [30, 10, 50, 20, 40] {
            Self.sleeper(clock, until: .milliseconds(offset), label: "\(offset)", into: woke, executor: executor)
        }
        await waitUntil("all sleep") { clock.sleeperCount == 5 }
        clock.advance(by: .milliseconds(45))
        await waitUntil { woke.count == 4 }
        #expect(woke.values == ["10", "20", "30", "40"])
        clock.advance(by: .milliseconds(5))
        await waitUntil { woke.count == 5 }
        #expect(woke.values == ["10", "20", "30", "40", "50"])
    }

    @Test func cancellationThrowsCancellationError() async {
        let clock = ManualClock()
        let woke = Recorder<String>()
        let task = Self.sleeper(clock, until: .seconds(1), label: "sleeper", into: woke)
        await waitUntil { clock.sleeperCount == 1 }
        task.cancel()
        #expect(clock.sleeperCount == 0)
        await waitUntil { woke.count == 1 }
        #expect(woke.values == ["sleeper cancelled"])
        clock.advance(by: .seconds(2))
        #expect(woke.values == ["sleeper cancelled"])
    }

    @Test func aTaskCancelledBeforeSleepingThrowsAtOnce() async {
        let clock = ManualClock()
        let outcome = Slot<String>()
        let started = Gate()
        let task = Task {
            await started.wait()
            do {
                try await clock.sleep(for: .seconds(1))
                outcome.store("woke")
            } catch {
                outcome.store(error is CancellationError ? "cancelled" : "failed")
            }
        }
        task.cancel()
        started.open()
        await waitUntil { outcome.value != nil }
        #expect(outcome.value == "cancelled")
        #expect(clock.sleeperCount == 0)
    }

    @Test func sleepingUntilAPastOrPresentDeadlineReturnsAtOnce() async {
        let clock = ManualClock()
        clock.advance(by: .seconds(5))
        let returned = Recorder<String>()
        // On its own task so that a sleep that never returns fails the test instead of hanging it.
        let task = Task {
            do {
                try await clock.sleep(until: clock.now, tolerance: nil)
                returned.append("now")
                try await clock.sleep(for: .zero)
                returned.append("zero")
                try await clock.sleep(until: Instant(offset: .seconds(3)), tolerance: nil)
                returned.append("past")
                try await clock.sleep(for: .seconds(-1))
                returned.append("negative")
            } catch {
                returned.append("threw \(error)")
            }
        }
        await waitUntil("every sleep returned without the clock moving") { returned.count == 4 }
        #expect(returned.values == ["now", "zero", "past", "negative"])
        #expect(clock.sleeperCount == 0)
        #expect(clock.now == Instant(offset: .seconds(5)))
        task.cancel()
    }

    @Test func sleepForIsRelativeToTheCurrentInstant() async {
        let clock = ManualClock()
        clock.advance(by: .seconds(10))
        let woke = Flag()
        Task {
            try? await clock.sleep(for: .milliseconds(250))
            woke.set()
        }
        await waitUntil { clock.sleeperCount == 1 }
        clock.advance(by: .milliseconds(249))
        #expect(clock.sleeperCount == 1)
        #expect(!woke.isSet)
        clock.advance(by: .milliseconds(1))
        await waitUntil("woke exactly at its deadline") { woke.isSet }
    }

    /// Huge and repeated advances saturate at ``ManualClock/limit`` instead of trapping
    /// (0.1.0 crashed at about the 18,447th advance by Int64.max milliseconds).
    @Test func advancingSaturatesAtTheLimit() async {
        let clock = ManualClock()
        for _ in 0..<20_000 { clock.advance(by: .milliseconds(Int64.max)) }
        #expect(clock.now.offset == ManualClock.limit)
        #expect(clock.now.advanced(by: .seconds(1)).offset == ManualClock.limit)
        // Time has stopped at its end: a sleep there ends at once.
        try? await clock.sleep(for: .milliseconds(250))
        #expect(clock.sleeperCount == 0)
    }
}

