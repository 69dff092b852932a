@testable import Cinematic
import CinematicData
import CinematicTestHooks
import Foundation
import Testing

/// Fault injection into the recorder's own file operations (open, write, fsync, rename),
/// one at a time, with each errno a disk gives: the failure is reported (at open, or by
/// close), nothing acknowledged is lost (what was written replays, cut at a complete line),
/// the session goes on, and once the fault is gone recording works again.
@Suite("Recording under injected faults", .serialized)
struct RecordingFaultTests {
    static let errnos: [Int32] = [EIO, ENOSPC, EFBIG, EINTR]

    /// A runtime recording to `path` (manual clock, host catalog, no cache).
    func openRuntime(recording path: String) throws(APIError) -> Runtime {
        var config = RuntimeConfig()
        config.manualClock = true
        config.catalog = .host(source: nil)
        config.remote.offlineCache = .off
        config.recordPath = path
        return try Runtime(serial: HandleTable.shared.reserve(), config: config)
    }

    /// Types a few queries into a search store; every send must succeed.
    func type(into runtime: Runtime) throws {
        let handle = try runtime.openStore(feature: "search", arguments: nil)
        let entry: StoreEntry = try HandleTable.shared.lookup(handle, as: .store)
        for query in ["d", "du", "dun", "dune"] {
            let text = #"{"type":"queryChanged","query":"\#(query)"}"#
            try entry.store.send(text.withCString { pointer throws(APIError) in try JSONDocument(parsing: pointer) })
        }
    }

    func replay(_ path: String) throws -> (matched: Bool, report: String) {
        let outcome = try Replay(path: path).run()
        return (outcome.matched, outcome.report.text)
    }

    func scratch() -> String {
        let dir = NSTemporaryDirectory() + "cinematic-recfault-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    @Test("open and rename: the runtime does not open, the old recording is left whole", arguments: [FaultInjection.Operation.open, .rename], errnos)
    func openFaults(operation: FaultInjection.Operation, code: Int32) throws {
        let dir = scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/session.jsonl"
        let old = try openRuntime(recording: path)
        try type(into: old)
        #expect(old.close() == nil)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))

        let armed = FaultInjection.arm(.init(operation, pathContaining: dir, errno: code))
        var thrown: APIError?
        do { _ = try openRuntime(recording: path) } catch { thrown = error }
        FaultInjection.disarm(armed)
        #expect(thrown?.status == .io)
        #expect(thrown?.message.contains(String(cString: strerror(code))) == true)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["session.jsonl"])

        let again = try openRuntime(recording: path)
        try type(into: again)
        #expect(again.close() == nil)
        #expect(try replay(path).matched)
    }

    @Test("write and fsync: close reports it, what was written replays, the next recording works",
          arguments: [FaultInjection.Operation.write, .fsync], errnos)
    func writeFaults(operation: FaultInjection.Operation, code: Int32) throws {
        let dir = scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/session.jsonl"
        // One EINTR is a retried call, not a failure; the others fail from the second write on.
        let transient = code == EINTR && operation == .write
        let armed = FaultInjection.arm(.init(operation, pathContaining: dir, errno: code, skip: operation == .write ? 1 : 0,
                                 times: transient ? 1 : .max))
        let runtime = try openRuntime(recording: path)
        runtime.debug.recorder?.flush()          // the first write: the session line
        try type(into: runtime)
        let error = runtime.close()
        FaultInjection.disarm(armed)
        if transient {
            #expect(error == nil)
        } else {
            #expect(error?.status == .io)
            #expect(error?.message.contains("recording is incomplete") == true)
            #expect(error?.message.contains(String(cString: strerror(code))) == true)
        }
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.isEmpty || text.hasSuffix("\n"))
        if !text.isEmpty {
            let outcome = try replay(path)
            #expect(outcome.matched, "\(outcome.report)")
        }

        let again = try openRuntime(recording: path)
        try type(into: again)
        #expect(again.close() == nil)
        let outcome = try replay(path)
        #expect(outcome.matched)
        #expect(outcome.report.contains(#""complete":true"#))
    }
}
