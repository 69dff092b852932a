import CSQLite
import Cinematic
import Foundation

/// `cinematic_store_send({"type":"favoriteToggled"})` latency on a loaded Detail store over a
/// favorites file: with the database free, and with another connection holding its write
/// lock (0.1.0 waited the 5 s busy timeout on the caller's thread). Each tap starts a write:
/// the benchmark waits for it to settle before the next tap (the waits are not timed).
enum HeartTapLatency {
    static let taps = 400

    static func run(catalogPath: String, directory: URL) throws {
        let path = directory.appendingPathComponent("favorites.sqlite").path
        var runtime: OpaquePointer?
        var store: OpaquePointer?
        let config = #"{"catalog":{"path":"\#(catalogPath)"},"favorites":"\#(path)"}"#
        try ABIRoundTrip.check(cinematic_runtime_open(config, &runtime), "runtime_open")
        defer { _ = cinematic_runtime_close(runtime) }
        try ABIRoundTrip.check(cinematic_store_open(runtime, "detail", #"{"movieId":15249}"#, &store), "store_open")
        try ABIRoundTrip.check(cinematic_store_send(store, #"{"type":"task"}"#), "send")
        try waitFor(store, #""phase":"loaded""#)

        var other: OpaquePointer?
        guard sqlite3_open(path, &other) == SQLITE_OK else { throw BenchError("cannot open \(path)") }
        defer { sqlite3_close(other) }
        let clock = ContinuousClock()
        var free: [Duration] = []
        var locked: [Duration] = []
        for round in 0..<(taps * 2) {
            let lock = round % 2 == 1
            if lock { sqlite3_exec(other, "BEGIN EXCLUSIVE", nil, nil, nil) }
            let start = clock.now
            _ = cinematic_store_send(store, #"{"type":"favoriteToggled"}"#)
            let elapsed = clock.now - start
            if lock {
                locked.append(elapsed)
                sqlite3_exec(other, "COMMIT", nil, nil, nil)
            } else {
                free.append(elapsed)
            }
            try waitFor(store, #""isSaving":false"#)
        }
        print("heart tap: cinematic_store_send(favoriteToggled) on a favorites file, \(taps) taps each")
        print("  database free    median \(Report.format(Report.median(free)))  p99 \(Report.format(Report.percentile(free, 0.99)))  (goal p99 < 50 µs)")
        print("  database locked  median \(Report.format(Report.median(locked)))  p99 \(Report.format(Report.percentile(locked, 0.99)))  (goal p99 < 50 µs)")
    }

    /// Polls the state (every 0.2 ms, at most 10 s) until it contains `text`.
    static func waitFor(_ store: OpaquePointer?, _ text: String) throws {
        for _ in 0..<50_000 {
            var json: UnsafeMutablePointer<CChar>?
            try ABIRoundTrip.check(cinematic_store_state(store, &json), "state")
            let state = String(cString: json!)
            cinematic_free(json)
            if state.contains(text) { return }
            usleep(200)
        }
        throw BenchError("the state never showed \(text)")
    }
}
