// `cinematic-abi-profile c|swift INDEX ROUNDS`: the keystrokes of `cinematic-bench abi`, one
// side per process and nothing else, for `valgrind --tool=callgrind` (Benchmarks/profile-abi.sh;
// the benchmark itself imports Foundation, which valgrind 3.19 cannot run). Types ROUNDS
// keystrokes ("lovf", "lovg" alternating) into a Search store holding 20 movies for "love":
// through the C API (JSON in, JSON out, immediate delivery to a state callback) or into the
// in-process Swift store (a Swift value in, a Swift value out to an observer).
// `search-patches|app-patches` type them through the C API into the search store or the app
// store observed with patches (`cinematic-bench app`'s comparison).
import Cinematic
import CinematicData
import CinematicDomain
import CinematicFeatures
import MVIKit
#if canImport(Glibc)
import Glibc
#endif

/// Counts deliveries (one thread at a time: the sends' own thread).
final class Deliveries: @unchecked Sendable {
    var count = 0
    var bytes = 0
}

/// The C API's state (or patch) callback: counts a delivery into the ``Deliveries`` it is given.
enum DeliveryCallback {
    static let count: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafePointer<CChar>?) -> Void = { userdata, _, json in
        let deliveries = Unmanaged<Deliveries>.fromOpaque(userdata!).takeUnretainedValue()
        deliveries.count += 1
        deliveries.bytes = strlen(json!)
    }
}

func fail(_ message: String) -> Never {
    print("cinematic-abi-profile: \(message)")
    exit(1)
}

// The keystroke loops, on their own so callgrind counts only them
// (`--toggle-collect='*typeIntoSwiftStore*'`, `'*typeThroughCAPI*'`): the work a keystroke
// costs the thread that types it, as `cinematic-bench abi` times it.

/// The in-process side: a Swift value in; the observer runs on this thread.
@inline(never) func typeIntoSwiftStore(_ store: Store<SearchReducer>, rounds: Int) {
    for index in 0..<rounds { store.send(.queryChanged(index % 2 == 0 ? "lovf" : "lovg")) }
}

/// The C API side, as a C host calls it: JSON text in; the callback runs on this thread.
@inline(never) func typeThroughCAPI(_ store: OpaquePointer?, intents: [UnsafeMutablePointer<CChar>], rounds: Int) {
    for index in 0..<rounds { _ = cinematic_store_send(store, intents[index % 2]) }
}

let arguments = CommandLine.arguments
guard arguments.count == 4, ["c", "swift", "search-patches", "app-patches"].contains(arguments[1]), let rounds = Int(arguments[3]) else {
    fail("usage: cinematic-abi-profile c|swift|search-patches|app-patches INDEX ROUNDS")
}
let indexPath = arguments[2]
let deliveries = Deliveries()

if arguments[1] == "swift" {
    let catalog: SQLiteMovieCatalog
    do { catalog = try SQLiteMovieCatalog.open(.index(path: indexPath)) } catch { fail("cannot open \(indexPath): \(error)") }
    let store = Store(initialState: SearchState(),
                      reducer: SearchReducer(searchMovies: SearchMoviesUseCase(repository: catalog), clock: ManualClock()))
    store.send(.queryChanged("love"))
    store.send(.submitted)
    // No top-level await: an async main parks the main thread in a way valgrind cannot follow.
    for _ in 0..<600_000 where store.state.results.value == nil { usleep(1_000) }
    guard store.state.results.value?.count == 20 else { fail("expected 20 movies") }
    let observation = store.observe { _ in deliveries.count += 1 }
    typeIntoSwiftStore(store, rounds: rounds)
    observation.cancel()
    store.close()
} else if arguments[1].hasSuffix("-patches") {
    typePatched(feature: arguments[1] == "app-patches" ? "app" : "search", rounds: rounds)
} else {
    var runtime: OpaquePointer?
    var store: OpaquePointer?
    guard cinematic_runtime_open(#"{"clock":"manual","catalog":{"path":"\#(indexPath)"}}"#, &runtime) == 0,
          cinematic_store_open(runtime, "search", nil, &store) == 0,
          cinematic_store_send(store, #"{"type":"queryChanged","query":"love"}"#) == 0,
          cinematic_store_send(store, #"{"type":"submitted"}"#) == 0,
          cinematic_store_settle(store, 600_000) == 0 else { fail("cannot open the search store") }
    _ = cinematic_store_observe(store, DeliveryCallback.count, Unmanaged.passUnretained(deliveries).toOpaque())
    let intents = ["lovf", "lovg"].map { strdup(#"{"type":"queryChanged","query":"\#($0)"}"#)! }
    typeThroughCAPI(store, intents: intents, rounds: rounds)
    _ = cinematic_runtime_close(runtime)
}
guard deliveries.count >= rounds else { fail("\(deliveries.count) deliveries for \(rounds) keystrokes") }
print("\(arguments[1]): \(rounds) keystrokes, \(deliveries.count) deliveries")

/// Opens `feature` through the C API with "love" searched (the app: its first page loaded),
/// observed with patches, and types `rounds` keystrokes into it.
func typePatched(feature: String, rounds: Int) {
    var runtime: OpaquePointer?
    var store: OpaquePointer?
    let submitted = feature == "app" ? #"{"type":"search","intent":{"type":"submitted"}}"# : #"{"type":"submitted"}"#
    guard cinematic_runtime_open(#"{"clock":"manual","catalog":{"path":"\#(indexPath)"}}"#, &runtime) == 0,
          cinematic_store_open(runtime, feature, nil, &store) == 0,
          feature == "search" || cinematic_store_send(store, #"{"type":"task"}"#) == 0,
          cinematic_store_send(store, #"{"type":"queryChanged","query":"love"}"#) == 0,
          cinematic_store_send(store, submitted) == 0 else { fail("cannot open the \(feature) store") }
    for _ in 0..<600_000 {
        var state: UnsafeMutablePointer<CChar>?
        _ = cinematic_store_state(store, &state)
        defer { cinematic_free(state) }
        if String(cString: state!).contains(#""pagesLoaded":1"#) { break }
        usleep(1_000)
    }
    _ = cinematic_store_observe_patches(store, DeliveryCallback.count, Unmanaged.passUnretained(deliveries).toOpaque())
    let intents = ["lovf", "lovg"].map { strdup(#"{"type":"queryChanged","query":"\#($0)"}"#)! }
    typeThroughCAPI(store, intents: intents, rounds: rounds)
    _ = cinematic_runtime_close(runtime)
}
