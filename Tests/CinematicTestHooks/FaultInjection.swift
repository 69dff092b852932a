import CinematicData
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Test-only fault injection, in the spirit of SQLite's fault-injecting VFS: makes the
/// library's own file operations (``FileIO``, whose system-call table it replaces on the
/// first ``arm(_:)``, and SQLite's through ``FaultVFS``) fail on demand with a chosen
/// `errno`, so tests can check that every failure is reported and nothing acknowledged is
/// lost. It lives in a test-only target (Tests/CinematicTestHooks): the shipped library does
/// not contain it (`make test-no-hooks`).
///
/// ```swift
/// let armed = FaultInjection.arm(.init(.write, pathContaining: "session.jsonl", errno: ENOSPC))
/// defer { FaultInjection.disarm(armed) }
/// ```
package enum FaultInjection {
    /// An operation that can be made to fail.
    package enum Operation: String, Sendable, CaseIterable {
        case open, read, write, fsync, rename
    }

    /// Which calls fail, and how.
    package struct Rule: Sendable {
        /// The operation that fails.
        package let operation: Operation
        /// Only calls on a path containing this text (empty: any path).
        package let pathContaining: String
        /// The `errno` the call fails with.
        package let errno: Int32
        /// Matching calls that succeed before the first failure.
        package var skip: Int
        /// How many matching calls fail (then the rule is spent).
        package var times: Int

        /// A rule: the `skip + 1`th matching call and the `times - 1` after it fail with `errno`.
        package init(_ operation: Operation, pathContaining: String = "", errno: Int32, skip: Int = 0, times: Int = .max) {
            self.operation = operation
            self.pathContaining = pathContaining
            self.errno = errno
            self.skip = skip
            self.times = times
        }
    }

    /// An armed rule: what ``disarm(_:)`` removes and ``failures(of:)`` counts. Tests that
    /// run at the same time each remove only their own rules.
    package struct Armed: Sendable, Hashable {
        let id: UInt64
    }

    private struct Entry {
        let id: UInt64
        var rule: Rule
        var failures = 0
    }

    /// ``FileIO``'s table replaced by one that consults the rules before each real call
    /// (once, on the first ``arm(_:)``; disarmed, it only delegates).
    private static let fileCallsReplaced: Bool = {
        let real = FileIO.SystemCalls.real
        var calls = real
        calls.open = { path, flags, mode in fault(.open, path: path).map(fail) ?? real.open(path, flags, mode) }
        calls.read = { fd, buffer, count, path in fault(.read, path: path).map { Int(fail($0)) } ?? real.read(fd, buffer, count, path) }
        calls.pread = { fd, buffer, count, offset, path in
            fault(.read, path: path).map { Int(fail($0)) } ?? real.pread(fd, buffer, count, offset, path)
        }
        calls.write = { fd, buffer, count, path in fault(.write, path: path).map { Int(fail($0)) } ?? real.write(fd, buffer, count, path) }
        calls.fsync = { fd, path in fault(.fsync, path: path).map(fail) ?? real.fsync(fd, path) }
        calls.rename = { source, destination in fault(.rename, path: destination).map(fail) ?? real.rename(source, destination) }
        return FileIO.use(calls)
    }()

    /// A failed system call: `errno` set to `code`, -1 returned.
    private static func fail(_ code: Int32) -> Int32 {
        errno = code
        return -1
    }

    private static let armed = Atomic<Bool>(false)
    private static let rules = Mutex<(entries: [Entry], lastID: UInt64)>(([], 0))

    /// Adds `rule` (rules are checked in the order they were armed).
    @discardableResult
    package static func arm(_ rule: Rule) -> Armed {
        _ = fileCallsReplaced
        let id = rules.withLock { rules -> UInt64 in
            rules.lastID += 1
            rules.entries.append(Entry(id: rules.lastID, rule: rule))
            return rules.lastID
        }
        armed.store(true, ordering: .sequentiallyConsistent)
        return Armed(id: id)
    }

    /// Removes the rule `armed` (other rules stay).
    package static func disarm(_ armed: Armed) {
        let empty = rules.withLock { rules -> Bool in
            rules.entries.removeAll { $0.id == armed.id }
            return rules.entries.isEmpty
        }
        if empty { self.armed.store(false, ordering: .sequentiallyConsistent) }
    }

    /// Removes every rule.
    package static func disarm() {
        rules.withLock { $0.entries.removeAll() }
        armed.store(false, ordering: .sequentiallyConsistent)
    }

    /// How many calls the rule `armed` made fail so far.
    package static func failures(of armed: Armed) -> Int {
        rules.withLock { rules in rules.entries.first { $0.id == armed.id }?.failures ?? 0 }
    }

    /// True while any rule is armed (one relaxed load: the disarmed fast path).
    package static var isArmed: Bool { armed.load(ordering: .relaxed) }

    /// The `errno` that this call of `operation` on `path` must fail with, if any.
    package static func fault(_ operation: Operation, path: String) -> Int32? {
        guard armed.load(ordering: .relaxed) else { return nil }
        return rules.withLock { rules -> Int32? in
            for index in rules.entries.indices where rules.entries[index].rule.operation == operation && rules.entries[index].rule.times > 0 {
                let rule = rules.entries[index].rule
                guard rule.pathContaining.isEmpty || path.contains(rule.pathContaining) else { continue }
                if rule.skip > 0 {
                    rules.entries[index].rule.skip -= 1
                    return nil
                }
                rules.entries[index].rule.times -= 1
                rules.entries[index].failures += 1
                return rule.errno
            }
            return nil
        }
    }
}
