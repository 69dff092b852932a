import Cinematic
import Foundation

/// What a delivery costs as lists grow, through the C API: Discover's Comedy section paged past
/// page 100 (2,000 films) with a state observer, a patch observer or none; bytes per delivery,
/// time per `loadMore` (send to settled, deliveries included) at pages 1, 10 and 100 and
/// `cinematic_store_state` at page 100; then a Favorites list of 1,000 films and what one heart
/// tap sends its observer.
enum DeliveryCost {
    /// The last page a `loadMore` starts from.
    static let pages = 100
    /// Runs per mode, each paging a new store from page 1: every median is over 5 pages × runs.
    static let runs = 8

    /// Counts what one callback received.
    final class Counter: @unchecked Sendable {
        var deliveries = 0
        var bytes = 0
        var last = 0
    }

    static let count: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafePointer<CChar>?) -> Void = { userdata, _, json in
        let counter = Unmanaged<Counter>.fromOpaque(userdata!).takeUnretainedValue()
        let length = strlen(json!)
        counter.deliveries += 1
        counter.bytes += length
        counter.last = length
    }

    enum Mode: String, CaseIterable { case none = "no observer", states = "state observer", patches = "patch observer" }

    /// One `loadMore`: wall time from send to settled, CPU time of the whole process meanwhile
    /// (every library thread; not the waits between them), bytes the observer received.
    struct Sample {
        var time: Duration
        var cpu: Duration
        var bytes: Int
    }

    /// CPU time used so far by every thread of this process.
    static func processCPUTime() -> Duration {
        var now = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now)
        return .seconds(now.tv_sec) + .nanoseconds(now.tv_nsec)
    }

    static func run(catalogPath: String, directory: URL) throws {
        print("delivery cost through the C API: Discover's Comedy section paged one loadMore at a time (send to settled,")
        print("deliveries included; bytes = what the observer received for that loadMore); medians of the loadMores from")
        print("the 5 pages around each, \(runs) runs of each mode interleaved; time = wall (process CPU)")
        var samples: [Mode: [Int: [Sample]]] = [:]
        for run in 0..<runs {
            for mode in Mode.allCases {
                let (perPage, stateTime, stateBytes) = try page(mode: mode, catalogPath: catalogPath)
                samples[mode, default: [:]].merge(perPage) { $0 + $1 }
                if mode == .none, run == 0 {
                    print("  cinematic_store_state at page \(pages + 3): median \(Report.format(stateTime)) for \(stateBytes / 1024) KB")
                }
            }
        }
        let results = samples.mapValues { $0.mapValues(median) }
        print("  loadMore from   page 1 time / bytes              page 10 time / bytes             page 100 time / bytes            100 vs 1")
        for mode in Mode.allCases {
            guard let perPage = results[mode], let first = perPage[1], let last = perPage[pages] else { continue }
            let cells = [1, 10, pages].map { page -> String in
                let cell = perPage[page].map { "\(Report.format($0.time)) (\(Report.format($0.cpu))) / \(bytes($0.bytes))" } ?? "-"
                return cell.padding(toLength: 33, withPad: " ", startingAt: 0)
            }
            let bytesRatio = first.bytes > 0 ? String(format: "%.2fx", Double(last.bytes) / Double(first.bytes)) : "-"
            print("  \(mode.rawValue.padding(toLength: 16, withPad: " ", startingAt: 0)) \(cells.joined())time \(Report.ratio(last.time, first.time)) (cpu \(Report.ratio(last.cpu, first.cpu))), bytes \(bytesRatio)")
        }
        if let patched = results[.patches], let first = patched[1], let last = patched[pages] {
            let met = last.time <= first.time * 2 && last.bytes <= first.bytes * 2
            print("  target: in patch mode, loadMore at page 100 costs at most 2x page 1 (time and bytes): \(met ? "met" : "NOT met")")
        }
        try favorites(catalogPath: catalogPath, directory: directory)
    }

    static func bytes(_ count: Int) -> String { count >= 10_240 ? "\(count / 1024) KB" : "\(count) B" }

    /// The median time, CPU time and bytes of `samples`, each on its own.
    static func median(_ samples: [Sample]) -> Sample {
        let bytes = samples.map(\.bytes).sorted()
        return Sample(time: Report.median(samples.map(\.time)), cpu: Report.median(samples.map(\.cpu)), bytes: bytes[bytes.count / 2])
    }

    /// For pages 1, 10 and `pages`: the time and bytes of the loadMores from the 5 pages around
    /// it (from page p: the one that loads page p+1); and `cinematic_store_state` at the end.
    static func page(mode: Mode, catalogPath: String) throws -> ([Int: [Sample]], Duration, Int) {
        var runtime: OpaquePointer?
        var store: OpaquePointer?
        try ABIRoundTrip.check(cinematic_runtime_open(#"{"catalog":{"path":"\#(catalogPath)"}}"#, &runtime), "runtime_open")
        defer { _ = cinematic_runtime_close(runtime) }
        try ABIRoundTrip.check(cinematic_store_open(runtime, "discover", nil, &store), "store_open")
        let counter = Counter()
        let userdata = Unmanaged.passRetained(counter)
        defer { userdata.release() }
        switch mode {
        case .none: break
        case .states: try ABIRoundTrip.check(cinematic_store_observe(store, count, userdata.toOpaque()), "observe")
        case .patches: try ABIRoundTrip.check(cinematic_store_observe_patches(store, count, userdata.toOpaque()), "observe_patches")
        }
        try ABIRoundTrip.check(cinematic_store_send(store, #"{"type":"task"}"#), "send")
        try ABIRoundTrip.check(cinematic_store_settle(store, 30_000), "settle")
        let clock = ContinuousClock()
        var samples: [Int: Sample] = [:]
        for page in 1...(pages + 2) {
            let bytesBefore = counter.bytes
            let start = clock.now, cpu = processCPUTime()
            try ABIRoundTrip.check(cinematic_store_send(store, #"{"type":"loadMore","section":"comedy"}"#), "send")
            try ABIRoundTrip.check(cinematic_store_settle(store, 30_000), "settle")
            samples[page] = Sample(time: clock.now - start, cpu: processCPUTime() - cpu, bytes: counter.bytes - bytesBefore)
        }
        var around: [Int: [Sample]] = [:]
        for page in [1, 10, pages] {
            let first = max(1, page - 2)
            around[page] = (first...(first + 4)).compactMap { samples[$0] }
        }
        var stateTimes: [Duration] = []
        var stateBytes = 0
        for _ in 0..<20 {
            var json: UnsafeMutablePointer<CChar>?
            let start = clock.now
            try ABIRoundTrip.check(cinematic_store_state(store, &json), "state")
            stateTimes.append(clock.now - start)
            stateBytes = strlen(json!)
            cinematic_free(json)
        }
        return (around, Report.median(stateTimes), stateBytes)
    }

    /// Favorites at 0, 100 and 1,000 films: what one heart tap (a film added) sends a state
    /// observer and a patch observer of the Favorites store, and the time from the tap to both
    /// observers having it.
    static func favorites(catalogPath: String, directory: URL) throws {
        let path = directory.appendingPathComponent("delivery-favorites.sqlite").path
        var runtime: OpaquePointer?
        try ABIRoundTrip.check(cinematic_runtime_open(#"{"catalog":{"path":"\#(catalogPath)"},"favorites":"\#(path)"}"#, &runtime), "runtime_open")
        defer { _ = cinematic_runtime_close(runtime) }
        var discover: OpaquePointer?
        try ABIRoundTrip.check(cinematic_store_open(runtime, "discover", nil, &discover), "store_open")
        try ABIRoundTrip.check(cinematic_store_send(discover, #"{"type":"task"}"#), "send")
        try ABIRoundTrip.check(cinematic_store_settle(discover, 30_000), "settle")
        for _ in 0..<51 { _ = cinematic_store_send(discover, #"{"type":"loadMore","section":"popular"}"#); _ = cinematic_store_settle(discover, 30_000) }
        var json: UnsafeMutablePointer<CChar>?
        try ABIRoundTrip.check(cinematic_store_state(discover, &json), "state")
        let ids = idsOfFirstSection(String(cString: json!), limit: 1_003)
        cinematic_free(json)
        _ = cinematic_store_close(discover)
        guard ids.count >= 1_003 else { throw BenchError("only \(ids.count) films to favor") }
        var stores: [OpaquePointer?] = []
        var counters: [Counter] = []
        for patches in [false, true] {
            var store: OpaquePointer?
            try ABIRoundTrip.check(cinematic_store_open(runtime, "favorites", nil, &store), "store_open")
            let counter = Counter()
            counters.append(counter)
            let userdata = Unmanaged.passUnretained(counter).toOpaque()
            try ABIRoundTrip.check(patches ? cinematic_store_observe_patches(store, count, userdata) : cinematic_store_observe(store, count, userdata), "observe")
            try ABIRoundTrip.check(cinematic_store_send(store, #"{"type":"task"}"#), "send")
            stores.append(store)
        }
        print("favorites: one heart tap (a film added) as each observer of the Favorites store receives it")
        var favored = 0
        for size in [0, 100, 1_000] {
            while favored < size { try toggle(runtime, ids[favored]); favored += 1 }
            try waitUntil { counters.allSatisfy { $0.deliveries > 0 } }
            usleep(100_000)
            let before = counters.map(\.deliveries)
            let clock = ContinuousClock(), start = clock.now
            try toggle(runtime, ids[1_000 + [0, 100, 1_000].firstIndex(of: size)!])
            try waitUntil { zip(counters, before).allSatisfy { $0.deliveries > $1 } }
            let elapsed = clock.now - start
            favored += 1
            print("  at \(String(size).padding(toLength: 5, withPad: " ", startingAt: 0)) favorites: state observer \(bytes(counters[0].last).padding(toLength: 8, withPad: " ", startingAt: 0)) patch observer \(bytes(counters[1].last).padding(toLength: 8, withPad: " ", startingAt: 0)) (tap to both delivered \(Report.format(elapsed)))")
        }
        print("  target: a favorites change at 1,000 favorites sends under 1 KB in patch mode: \(counters[1].last < 1_024 ? "met" : "NOT met")")
        for store in stores { _ = cinematic_store_close(store) }
    }

    static func toggle(_ runtime: OpaquePointer?, _ id: Int) throws {
        var detail: OpaquePointer?
        try ABIRoundTrip.check(cinematic_store_open(runtime, "detail", #"{"movieId":\#(id)}"#, &detail), "store_open")
        defer { _ = cinematic_store_close(detail) }
        _ = cinematic_store_send(detail, #"{"type":"task"}"#)
        try HeartTapLatency.waitFor(detail, #""phase":"loaded""#)
        _ = cinematic_store_send(detail, #"{"type":"favoriteToggled"}"#)
        try HeartTapLatency.waitFor(detail, #""isSaving":false"#)
    }

    static func waitUntil(_ condition: () -> Bool) throws {
        for _ in 0..<50_000 where !condition() { usleep(200) }
        guard condition() else { throw BenchError("timed out") }
    }

    /// The ids of the first section's films in a Discover state, at most `limit`.
    static func idsOfFirstSection(_ state: String, limit: Int) -> [Int] {
        guard let object = try? JSONSerialization.jsonObject(with: Data(state.utf8)) as? [String: Any],
              let sections = object["sections"] as? [[String: Any]], let movies = sections.first?["movies"] as? [String: Any],
              let value = movies["value"] as? [[String: Any]] else { return [] }
        return value.prefix(limit).compactMap { $0["id"] as? Int }
    }
}
