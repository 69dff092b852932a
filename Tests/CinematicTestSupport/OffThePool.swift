import CinematicThreads
import Testing

/// A trait that runs each test it covers on one thread of its own, one test at a time,
/// instead of on Swift's cooperative pool.
///
/// The pool has one thread per core (two on CI), and every async test of the process shares
/// it. A synchronous test body (a pass over the whole catalog, a build of it, a wait on a
/// busy file) holds a pool thread until it returns, so two of them at once leave every other
/// test's tasks unscheduled: an observer's task that should run within microseconds waited
/// more than five seconds beside a CPU hog, and its test failed. Under this trait such bodies
/// queue on the ``heavyTestExecutor``'s thread and the pool stays free.
///
/// The test keeps its task (and so its task-locals: issues are recorded against it); only
/// its executor changes, by `withTaskExecutorPreference`.
///
/// ```swift
/// @Suite("Catalog search over the real data", .offThePool)
/// struct CatalogSearchTests { let catalog = TestCatalog.shared ... }
/// ```
public struct OffThePoolTrait: TestTrait, SuiteTrait, TestScoping {
    /// Covers every test of a suite it is applied to.
    public var isRecursive: Bool { true }

    /// Scopes each test case (not the suite as a whole, whose scope would only wrap the
    /// others' scheduling).
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase == nil ? nil : self
    }

    /// Runs the test case on the heavy tests' thread.
    public func provideScope(for test: Test, testCase: Test.Case?,
                             performing function: @Sendable () async throws -> Void) async throws {
        try await withTaskExecutorPreference(heavyTestExecutor) { try await function() }
    }
}

extension Trait where Self == OffThePoolTrait {
    /// Runs the tests on the heavy tests' own thread, off the cooperative pool: for tests that
    /// compute or block synchronously for more than a few milliseconds.
    public static var offThePool: Self { OffThePoolTrait() }
}

/// The one thread every `.offThePool` test runs on, one job at a time.
let heavyTestExecutor = ThreadExecutor(name: "heavy tests")

/// True when the caller runs on the heavy tests' thread (a test under `.offThePool`).
public var isOffThePool: Bool { heavyTestExecutor.isCurrent }
