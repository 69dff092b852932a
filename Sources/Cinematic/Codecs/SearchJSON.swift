import CJansson
import CinematicDomain
import CinematicFeatures
import MVIKit

/// The Search feature on the wire.
///
/// Intents from hosts: `{"type":"queryChanged","query":"dune"}`, `{"type":"submitted"}`.
/// State: `{"query":"dune","results":{"phase":"loaded","value":[movie, …]}}`.
struct SearchCodec: FeatureCodec {
    typealias Reducer = SearchReducer

    enum HostKind: String, CaseIterable {
        case queryChanged, submitted
    }

    static let name = "search"
    static let sampleArguments: String? = nil
    static let internalIntents = ["searchNow", "resultsLoaded", "searchFailed"]

    static func makeStore(arguments: JSONDocument?, serial: UInt64, runtime: Runtime) throws(APIError) -> any FeatureStore {
        try requireNoArguments(arguments)
        let reducer = SearchReducer(
            searchMovies: SearchMoviesUseCase(repository: runtime.catalog), clock: runtime.clock,
            debounce: .milliseconds(runtime.config.searchDebounceMilliseconds))
        return CodecStore(serial: serial, initialState: SearchState(), reducer: reducer, codec: SearchCodec(), runtime: runtime)
    }

    static func kind(of intent: SearchIntent.Host) -> HostKind {
        switch intent {
        case .queryChanged: .queryChanged
        case .submitted: .submitted
        }
    }

    func decodeHost(_ kind: HostKind, _ intent: IntentReader) throws(APIError) -> SearchIntent.Host {
        switch kind {
        case .queryChanged:
            try intent.object.rejectUnknownKeys(allowing: ["type", "query"])
            let member = try intent.object.required("query")
            let query = try member.string()
            guard !SearchMoviesUseCase.isTooLong(query) else {
                throw .invalid("query longer than \(SearchMoviesUseCase.maximumQueryLength) characters", at: member.path)
            }
            return .queryChanged(query)
        case .submitted:
            try intent.requireNoMembers()
            return .submitted
        }
    }

    /// The results, encoded once per distinct list (typing changes only the query).
    private let results = FragmentCache<LoadingPhase<[Movie], MovieError>>()

    /// The whole state as one jansson tree (new reference), without the cache.
    static func node(_ state: SearchState) -> UnsafeMutablePointer<json_t> {
        JSONBuilder.object([
            "query": JSONBuilder.string(state.query),
            "results": DomainJSON.encode(state.results, value: DomainJSON.encode),
        ])
    }

    func encodeState(_ state: SearchState) -> JSONFragment {
        .object([
            "query": .string(state.query),
            "results": results.fragment(for: state.results) { DomainJSON.encode($0, value: DomainJSON.encode) },
        ])
    }
}
