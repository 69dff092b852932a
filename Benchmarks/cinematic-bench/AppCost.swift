import Cinematic
import Foundation

/// What the whole app in one store costs (issue "The whole app in the core"): a keystroke
/// through the app store against the search store alone (both through the C API, observed
/// with patches, side by side in alternating batches; goal <= 1.2x), the patch bytes per
/// keystroke and per page, and the size of an app snapshot after a busy session.
enum AppCost {
    static let rounds = 10_000

    static func run(catalogPath: String) throws {
        var runtime: OpaquePointer?
        try ABIRoundTrip.check(cinematic_runtime_open(#"{"clock":"manual","catalog":{"path":"\#(catalogPath)"}}"#, &runtime), "runtime_open")
        defer { _ = cinematic_runtime_close(runtime) }
        let search = try open(runtime, "search"), app = try open(runtime, "app")
        let searchPatches = Counter(), appPatches = Counter()
        try observe(search, searchPatches)
        try observe(app, appPatches)
        try send(search, #"{"type":"queryChanged","query":"love"}"#, #"{"type":"submitted"}"#)
        try send(app, #"{"type":"task"}"#, #"{"type":"queryChanged","query":"love"}"#, #"{"type":"search","intent":{"type":"submitted"}}"#,
                 until: #""pagesLoaded":1"#)
        let keys = ["lovf", "lovg"]
        var searchSamples: [Duration] = [], appSamples: [Duration] = []
        let clock = ContinuousClock()
        for _ in 0..<(rounds / 500) {
            for index in 0..<500 {
                let intent = #"{"type":"queryChanged","query":"\#(keys[index % 2])"}"#
                let start = clock.now
                _ = cinematic_store_send(search, intent)
                searchSamples.append(clock.now - start)
            }
            for index in 0..<500 {
                let intent = #"{"type":"queryChanged","query":"\#(keys[index % 2])"}"#
                let start = clock.now
                _ = cinematic_store_send(app, intent)
                appSamples.append(clock.now - start)
            }
        }
        let keystrokeBytes = (search: searchPatches.bytes, app: appPatches.bytes)
        // A page: the results' next page (the app: moving past the last row).
        try send(search, #"{"type":"queryChanged","query":"love"}"#, #"{"type":"submitted"}"#)
        try send(app, #"{"type":"queryChanged","query":"love"}"#, #"{"type":"search","intent":{"type":"submitted"}}"#,
                 until: #""pagesLoaded":1"#)
        try send(search, #"{"type":"loadMore"}"#)
        let searchPage = searchPatches.bytes
        try send(app, #"{"type":"moved","list":"search","selection":20,"firstVisible":5}"#, until: #""pagesLoaded":2"#)
        let appPage = appPatches.bytes
        // A busy session: two pages of results, three Discover sections, two Details, five
        // removed favorites, positions everywhere.
        try send(app, #"{"type":"tabSelected","tab":"discover"}"#, until: #""title":"Popular","movies":{"phase":"loaded""#)
        for section in ["popular", "comedy", "drama"] {
            try send(app, #"{"type":"sectionSelected","section":"\#(section)"}"#, #"{"type":"moved","list":"\#(section)","selection":15,"firstVisible":10}"#,
                     until: #""\#(section)":{"selection":15"#)
        }
        try send(app, #"{"type":"opened","movieId":15249}"#, #"{"type":"opened","movieId":1}"#, until: #""listing""#)
        for id in [15249, 1, 2, 3, 4] { try send(app, #"{"type":"removed","movieId":\#(id)}"#, until: #""removed":["#) }
        var snapshot: UnsafeMutablePointer<CChar>?
        try ABIRoundTrip.check(cinematic_store_snapshot(app, &snapshot), "snapshot")
        let snapshotBytes = strlen(snapshot!)
        cinematic_free(snapshot)

        let searchMedian = Report.median(searchSamples), appMedian = Report.median(appSamples)
        let ratio = appMedian / searchMedian
        print("the app in one store (C API, patched delivery), \(rounds) keystrokes each, alternating batches")
        print("  keystroke, search store alone  median \(Report.format(searchMedian)), patch \(keystrokeBytes.search) B")
        print("  keystroke, app store           median \(Report.format(appMedian)), patch \(keystrokeBytes.app) B")
        print("  ratio app / search             \(Report.ratio(appMedian, searchMedian))  (goal <= 1.2x: \(ratio <= 1.2 ? "met" : "not met"))")
        print("  a page of results: patch \(searchPage) B (search store), \(appPage) B (app store)")
        print("  app snapshot after a busy session: \(snapshotBytes) B")
    }

    private static func open(_ runtime: OpaquePointer?, _ feature: String) throws -> OpaquePointer? {
        var store: OpaquePointer?
        try ABIRoundTrip.check(cinematic_store_open(runtime, feature, nil, &store), "store_open \(feature)")
        return store
    }

    private static func observe(_ store: OpaquePointer?, _ counter: Counter) throws {
        let callback: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafePointer<CChar>?) -> Void = { userdata, _, json in
            let counter = Unmanaged<Counter>.fromOpaque(userdata!).takeUnretainedValue()
            counter.value += 1
            counter.bytes = strlen(json!)
        }
        try ABIRoundTrip.check(cinematic_store_observe_patches(store, callback, Unmanaged.passUnretained(counter).toOpaque()), "observe")
    }

    /// Sends `intents` in order; then waits (bounded) until the store's state contains
    /// `until` (the app never settles: it observes the favorites), or settles the store.
    private static func send(_ store: OpaquePointer?, _ intents: String..., until: String? = nil) throws {
        for intent in intents { try ABIRoundTrip.check(cinematic_store_send(store, intent), "send \(intent)") }
        guard let until else { return try ABIRoundTrip.check(cinematic_store_settle(store, 10_000), "settle") }
        for _ in 0..<5_000 {
            var state: UnsafeMutablePointer<CChar>?
            _ = cinematic_store_state(store, &state)
            defer { cinematic_free(state) }
            if String(cString: state!).contains(until) { return }
            usleep(1_000)
        }
        throw BenchError("the state never showed \(until)")
    }
}
