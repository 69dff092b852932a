import Cinematic
import CinematicDomain
import CinematicFeatures
import Foundation

/// Encoding one search state with 20 movies: the library's jansson path (the whole tree,
/// cache bypassed) against Foundation's JSONEncoder on mirror types (benchmark-only code;
/// the library cannot use Foundation). Also reports `cinematic_store_state`, which reuses the
/// cached results fragment.
enum EncodingComparison {
    struct WireMovie: Codable {
        let id: Int, title: String, year: Int, runtime: Int, rating: Double, votes: Int
        let genres: [String], mpaa: String?
    }
    struct WirePhase: Codable { let phase: String; let value: [WireMovie] }
    struct WireState: Codable { let query: String; let results: WirePhase }

    static func run(catalogPath: String) throws {
        var runtime: OpaquePointer?
        var store: OpaquePointer?
        try ABIRoundTrip.check(cinematic_runtime_open(#"{"clock":"manual","catalog":{"path":"\#(catalogPath)"}}"#, &runtime), "runtime_open")
        try ABIRoundTrip.check(cinematic_store_open(runtime, "search", nil, &store), "store_open")
        try ABIRoundTrip.check(cinematic_store_send(store, #"{"type":"queryChanged","query":"love"}"#), "send")
        try ABIRoundTrip.check(cinematic_store_send(store, #"{"type":"submitted"}"#), "send")
        try ABIRoundTrip.check(cinematic_store_settle(store, 10_000), "settle")
        var json: UnsafeMutablePointer<CChar>?
        try ABIRoundTrip.check(cinematic_store_state(store, &json), "state")
        let state = try JSONDecoder().decode(WireState.self, from: Data(String(cString: json!).utf8))
        cinematic_free(json)
        precondition(state.results.value.count == 20)
        let encoder = JSONEncoder()

        let rounds = 20_000
        let swiftState = SearchState(query: state.query, results: .loaded(state.results.value.map {
            Movie(id: $0.id, title: $0.title, year: $0.year, runtime: $0.runtime, rating: $0.rating, votes: $0.votes,
                  genres: $0.genres, mpaa: $0.mpaa)
        }))
        var janssonSamples: [Duration] = []
        var cachedSamples: [Duration] = []
        var foundationSamples: [Duration] = []
        let clock = ContinuousClock()
        var bytes = (0, 0)
        for _ in 0..<(rounds / 500) {
            for _ in 0..<500 {
                let start = clock.now
                bytes.0 = encodeUncached(swiftState)
                janssonSamples.append(clock.now - start)
            }
            for _ in 0..<500 {
                let start = clock.now
                var out: UnsafeMutablePointer<CChar>?
                _ = cinematic_store_state(store, &out)
                cinematic_free(out)
                cachedSamples.append(clock.now - start)
            }
            for _ in 0..<500 {
                let start = clock.now
                let data = try encoder.encode(state)
                bytes.1 = data.count
                foundationSamples.append(clock.now - start)
            }
        }
        _ = cinematic_runtime_close(runtime)
        let jansson = Report.median(janssonSamples)
        let foundation = Report.median(foundationSamples)
        print("encoding a search state with 20 movies, \(rounds) each")
        print("  jansson, whole tree             median \(Report.format(jansson))  (\(bytes.0) bytes)")
        print("  Foundation JSONEncoder          median \(Report.format(foundation))  (\(bytes.1) bytes)")
        print("  speed-up jansson over Foundation \(Report.ratio(foundation, jansson))  (goal >= 1.5x)")
        print("  cinematic_store_state (cached results fragment) median \(Report.format(Report.median(cachedSamples)))")
    }

    /// `state` encoded the way the C API would without its fragment cache (a new codec each
    /// time: ``SearchCodec/stateJSON(_:)``), copied for a host and freed. Returns the byte count.
    static func encodeUncached(_ state: SearchState) -> Int {
        let text = strdup(SearchCodec.stateJSON(state))!
        defer { free(text) }
        return strlen(text)
    }
}
