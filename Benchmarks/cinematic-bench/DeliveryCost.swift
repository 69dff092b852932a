import Cinematic
import Foundation

/// What a delivery costs as lists grow, through the C API: Discover's Comedy section paged to
/// page 100 (2,000 films) with a state observer, a patch observer or none; bytes per delivery,
/// time per `loadMore` (send to settled, deliveries included) and `cinematic_store_state` at
/// page 100; then a Favorites list of 1,000 films and what one heart tap sends its observer.
enum DeliveryCost {
    static let pages = 100

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

    static func run(catalogPath: String, directory: URL) throws {
        print("delivery cost: Discover's Comedy section paged to page \(pages), one loadMore at a time (send to settled)")
        var perPage: [Mode: Duration] = [:]
        for mode in Mode.allCases {
            let (times, counter, stateTime, stateBytes) = try page(mode: mode, catalogPath: catalogPath)
            let tail = Array(times.suffix(10))
            perPage[mode] = Report.median(tail)
            let bytes = counter.deliveries > 0 ? "last delivery \(counter.last / 1024) KB, \(counter.bytes / 1_048_576) MB in \(counter.deliveries) deliveries" : "nothing delivered"
            print("  \(mode.rawValue.padding(toLength: 15, withPad: " ", startingAt: 0)) loadMore at pages 91-100 median \(Report.format(Report.median(tail)))  \(bytes)")
            if mode == .none {
                print("  cinematic_store_state at page \(pages): median \(Report.format(stateTime)) for \(stateBytes / 1024) KB")
            }
        }
        if let none = perPage[.none], let states = perPage[.states], let patches = perPage[.patches] {
            print("  loadMore at page 100 with a state observer: \(Report.ratio(states, none)) of the unobserved one; with a patch observer: \(Report.ratio(patches, none))")
        }
        try favorites(catalogPath: catalogPath, directory: directory)
    }

    static func page(mode: Mode, catalogPath: String) throws -> ([Duration], Counter, Duration, Int) {
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
        var times: [Duration] = []
        for _ in 2...pages {
            let start = clock.now
            try ABIRoundTrip.check(cinematic_store_send(store, #"{"type":"loadMore","section":"comedy"}"#), "send")
            try ABIRoundTrip.check(cinematic_store_settle(store, 30_000), "settle")
            times.append(clock.now - start)
        }
        var stateTimes: [Duration] = []
        var bytes = 0
        for _ in 0..<20 {
            var json: UnsafeMutablePointer<CChar>?
            let start = clock.now
            try ABIRoundTrip.check(cinematic_store_state(store, &json), "state")
            stateTimes.append(clock.now - start)
            bytes = strlen(json!)
            cinematic_free(json)
        }
        return (times, counter, Report.median(stateTimes), bytes)
    }

    /// 1,000 favorites, then one heart tap: what each observer receives for it.
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
        let ids = idsOfFirstSection(String(cString: json!), limit: 1_001)
        cinematic_free(json)
        _ = cinematic_store_close(discover)
        for id in ids.prefix(1_000) { try toggle(runtime, id) }
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
        try waitUntil { counters.allSatisfy { $0.deliveries >= 2 && $0.last > 0 } }
        usleep(200_000)
        let before = counters.map(\.deliveries)
        try toggle(runtime, ids[1_000])
        try waitUntil { zip(counters, before).allSatisfy { $0.deliveries > $1 } }
        print("favorites: 1,000 films, one heart tap: the state observer gets \(counters[0].last / 1024) KB, the patch observer \(counters[1].last) bytes")
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
