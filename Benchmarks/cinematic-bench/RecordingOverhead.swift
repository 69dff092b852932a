import Cinematic
import Foundation

/// What debugging costs a keystroke round trip through the C API (send `queryChanged` → state
/// callback, 20 movies in the state): a plain runtime (no recording, no logger: stores are
/// not traced at all), one that records the session (config "record"), and one with a
/// logger that discards its lines. The arms run on one thread in alternating batches.
enum RecordingOverhead {
    static let rounds = 20_000

    static func run(catalogPath: String, directory: URL) throws {
        let recording = directory.appendingPathComponent("bench-session.jsonl").path
        let arms: [(name: String, config: String, logger: Bool)] = [
            ("plain (debugging off)", #"{"clock":"manual","catalog":{"path":"\#(catalogPath)"}}"#, false),
            ("recording the session", #"{"clock":"manual","catalog":{"path":"\#(catalogPath)"},"record":"\#(recording)"}"#, false),
            ("logger on (discarding)", #"{"clock":"manual","catalog":{"path":"\#(catalogPath)"}}"#, true),
        ]
        var runtimes: [OpaquePointer?] = []
        var stores: [OpaquePointer?] = []
        let deliveries = Counter()
        let callback: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafePointer<CChar>?) -> Void = { userdata, _, _ in
            Unmanaged<Counter>.fromOpaque(userdata!).takeUnretainedValue().value += 1
        }
        let discard: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?) -> Void = { _, _ in }
        for arm in arms {
            var runtime: OpaquePointer?
            var store: OpaquePointer?
            try ABIRoundTrip.check(cinematic_runtime_open(arm.config, &runtime), "runtime_open")
            if arm.logger { try ABIRoundTrip.check(cinematic_runtime_set_logger(runtime, discard, nil), "set_logger") }
            try ABIRoundTrip.check(cinematic_store_open(runtime, "search", nil, &store), "store_open")
            try ABIRoundTrip.check(cinematic_store_send(store, #"{"type":"queryChanged","query":"love"}"#), "send")
            try ABIRoundTrip.check(cinematic_store_send(store, #"{"type":"submitted"}"#), "send")
            try ABIRoundTrip.check(cinematic_store_settle(store, 10_000), "settle")
            try ABIRoundTrip.check(cinematic_store_observe(store, callback, Unmanaged.passUnretained(deliveries).toOpaque()), "observe")
            runtimes.append(runtime)
            stores.append(store)
        }
        let intents = ["lovf", "lovg"].map { #"{"type":"queryChanged","query":"\#($0)"}"# }
        var samples = Array(repeating: [Duration](), count: arms.count)
        let clock = ContinuousClock()
        for _ in 0..<(rounds / 500) {
            for (arm, store) in stores.enumerated() {
                for index in 0..<500 {
                    let start = clock.now
                    _ = cinematic_store_send(store, intents[index % 2])
                    samples[arm].append(clock.now - start)
                }
            }
        }
        for runtime in runtimes { _ = cinematic_runtime_close(runtime) }
        precondition(deliveries.value >= rounds * arms.count, "every keystroke must deliver a state")
        let lines = (try? String(contentsOfFile: recording, encoding: .utf8))?.split(separator: "\n").count ?? 0

        print("debugging cost on the keystroke round trip (C API, 20 movies in the state), \(rounds) each")
        let plain = Report.median(samples[0])
        for (index, arm) in arms.enumerated() {
            let median = Report.median(samples[index])
            let p99 = Report.percentile(samples[index], 0.99)
            let ratio = index == 0 ? "" : "  ratio \(Report.ratio(median, plain))" + (index == 1 ? "  (goal < 1.10x)" : "")
            print("  \(arm.name.padding(toLength: 24, withPad: " ", startingAt: 0)) median \(Report.format(median))  p99 \(Report.format(p99))\(ratio)")
        }
        print("  the recording holds \(lines) lines")
    }
}
