import Cinematic
import CinematicData
import CinematicDomain
import CinematicFeatures
import Foundation
import MVIKit

/// A keystroke round trip (send `queryChanged` → state callback) with 20 movies in the state:
/// through the C API (JSON in, jansson-encoded JSON out, immediate delivery) against the
/// in-process Swift store (a Swift value in, a Swift value out). Both run on one thread,
/// side by side, in alternating batches.
enum ABIRoundTrip {
    /// Keystrokes per side: 20,000, or `CINEMATIC_BENCH_ABI_ROUNDS` (a multiple of 500; fewer
    /// for profiling under callgrind).
    static let rounds = ProcessInfo.processInfo.environment["CINEMATIC_BENCH_ABI_ROUNDS"].flatMap(Int.init).map { max(500, $0 / 500 * 500) } ?? 20_000

    static func run(catalogPath: String) async throws {
        // In-process store over the same catalog, with 20 movies loaded.
        let catalog = try SQLiteMovieCatalog.open(.index(path: catalogPath))
        let clock = ManualClock()
        let swiftStore = Store(initialState: SearchState(),
                               reducer: SearchReducer(searchMovies: SearchMoviesUseCase(repository: catalog), clock: clock))
        swiftStore.send(.queryChanged("love"))
        swiftStore.send(.submitted)
        await swiftStore.settle()
        precondition(swiftStore.state.results.value?.count == 20, "expected 20 movies in the Swift store")
        let swiftDeliveries = Counter()
        let observation = swiftStore.observe { _ in swiftDeliveries.value += 1 }

        // The same through the C API.
        var runtime: OpaquePointer?
        var store: OpaquePointer?
        let config = #"{"clock":"manual","catalog":{"path":"\#(catalogPath)"}}"#
        try check(cinematic_runtime_open(config, &runtime), "runtime_open")
        try check(cinematic_store_open(runtime, "search", nil, &store), "store_open")
        try check(cinematic_store_send(store, #"{"type":"queryChanged","query":"love"}"#), "send")
        try check(cinematic_store_send(store, #"{"type":"submitted"}"#), "send")
        try check(cinematic_store_settle(store, 10_000), "settle")
        let abiDeliveries = Counter()
        let callback: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafePointer<CChar>?) -> Void = { userdata, _, json in
            let counter = Unmanaged<Counter>.fromOpaque(userdata!).takeUnretainedValue()
            counter.value += 1
            counter.bytes = strlen(json!)
        }
        try check(cinematic_store_observe(store, callback, Unmanaged.passUnretained(abiDeliveries).toOpaque()), "observe")

        // Keystrokes alternate between two queries so every send produces a new state.
        let intents = ["lovf", "lovg"].map { #"{"type":"queryChanged","query":"\#($0)"}"# }
        var swiftSamples: [Duration] = []
        var abiSamples: [Duration] = []
        let clockNow = ContinuousClock()
        for batch in 0..<(rounds / 500) {
            for index in 0..<500 {
                let query = index % 2 == 0 ? "lovf" : "lovg"
                let start = clockNow.now
                swiftStore.send(.queryChanged(query))
                swiftSamples.append(clockNow.now - start)
            }
            for index in 0..<500 {
                let start = clockNow.now
                _ = cinematic_store_send(store, intents[index % 2])
                abiSamples.append(clockNow.now - start)
            }
            _ = batch
        }
        precondition(swiftDeliveries.value >= rounds && abiDeliveries.value >= rounds, "every keystroke must deliver a state")
        observation.cancel()
        swiftStore.close()
        _ = cinematic_runtime_close(runtime)

        let swiftMedian = Report.median(swiftSamples)
        let abiMedian = Report.median(abiSamples)
        print("keystroke round trip, 20 movies in the state (\(abiDeliveries.bytes) bytes of JSON), \(rounds) each")
        print("  in-process Swift store  median \(Report.format(swiftMedian))")
        print("  C API (JSON, immediate) median \(Report.format(abiMedian))")
        let ratio = Report.microseconds(abiMedian) / Report.microseconds(swiftMedian)
        print("  ratio ABI / in-process  \(Report.ratio(abiMedian, swiftMedian))  wall clock, \(ratio <= 1.5 ? "within" : "over") 1.5x (it moves with the machine's load; the verdict is in instructions, Benchmarks/profile-abi.sh below)")
        print("  (instructions per keystroke, side by side under callgrind: Benchmarks/profile-abi.sh)")
    }

    static func check(_ status: Int32, _ what: String) throws {
        guard status == 0 else {
            throw BenchError("\(what): \(String(cString: cinematic_status_name(status))) \(cinematic_last_error().map { String(cString: $0) } ?? "")")
        }
    }
}

/// A mutable box the benchmark's callbacks count into (single-threaded use).
final class Counter: @unchecked Sendable {
    var value = 0
    var bytes = 0
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
