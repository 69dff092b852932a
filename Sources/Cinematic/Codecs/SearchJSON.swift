import CJansson
import CinematicDomain
import CinematicFeatures
import MVIKit

/// The Search feature on the wire.
///
/// Intents from hosts: `{"type":"queryChanged","query":"dune"}`, `{"type":"submitted"}`,
/// `{"type":"loadMore"}`.
/// State: `{"query":"dune","results":{"phase":"loaded","query":"dune","value":[movie, …]},
/// "pagesLoaded":1,"isExhausted":false,"isLoadingMore":false,"loadMoreError":null}`; every
/// phase but idle names the query it answers, and loaded results of a host catalog say
/// where they came from (`"source":"live"`, or `"source":"cache","cachedAt":…`).
struct SearchCodec: FeatureCodec {
    typealias Reducer = SearchReducer

    enum HostKind: String, CaseIterable {
        case queryChanged, submitted, loadMore
    }

    static let name = "search"
    static let sampleArguments: String? = nil
    static let internalIntents = ["searchNow", "resultsLoaded", "searchFailed"]

    static func makeStore(arguments: JSONDocument?, serial: UInt64, environment: StoreEnvironment,
                          delivery: StoreDelivery) throws(APIError) -> any FeatureStore {
        try requireNoArguments(arguments)
        let reducer = SearchReducer(
            searchMovies: SearchMoviesUseCase(repository: environment.catalog), clock: environment.clock,
            debounce: environment.searchDebounce)
        return CodecStore(serial: serial, initialState: SearchState(), reducer: reducer, codec: SearchCodec(), delivery: delivery)
    }

    func decodeHost(_ kind: HostKind, _ intent: IntentReader) throws(APIError) -> SearchIntent.Host {
        switch kind {
        case .queryChanged:
            try intent.object.rejectUnknownKeys(allowing: ["type", "query"])
            let member = try intent.object.required("query")
            let query = try member.string()
            guard !SearchMoviesUseCase.isTooLong(query) else {
                throw .invalid("query longer than \(SearchMoviesUseCase.maximumQueryLength) characters or \(SearchMoviesUseCase.maximumQueryBytes) bytes", at: member.path)
            }
            return .queryChanged(query)
        case .submitted:
            try intent.requireNoMembers()
            return .submitted
        case .loadMore:
            try intent.requireNoMembers()
            return .loadMore
        }
    }

    static func encodeIntent(_ intent: SearchIntent) -> EncodedIntent {
        switch intent {
        case let .host(.queryChanged(query)): .host("queryChanged", ["query": JSONBuilder.string(query)])
        case .host(.submitted): .host("submitted")
        case .host(.loadMore): .host("loadMore")
        case .searchNow: .internal("searchNow")
        case let .resultsLoaded(query, page, movies, source):
            .internal("resultsLoaded", ["query": JSONBuilder.string(query), "page": JSONBuilder.int(page), "movies": DomainJSON.encode(movies)],
                      source: source)
        case let .searchFailed(query, page, error):
            .internal("searchFailed", ["query": JSONBuilder.string(query), "page": JSONBuilder.int(page), "error": DomainJSON.encode(error)])
        }
    }

    /// The results, the query they answer and where they came from.
    struct Results: Equatable, Sendable {
        let phase: LoadingPhase<[Movie], MovieError>
        let query: String
        let source: AnswerSource
    }

    /// The results, encoded once per distinct list (typing changes only the query).
    private let results = FragmentCache<Results>()

    /// The results phase, with the query it answers in every phase but idle.
    static func node(_ results: Results) -> UnsafeMutablePointer<json_t> {
        let node = DomainJSON.encode(results.phase, value: DomainJSON.encode, source: results.source)
        if case .idle = results.phase { return node }
        JSONBuilder.set(node, "query", JSONBuilder.string(results.query))
        return node
    }

    /// The whole state as one jansson tree (new reference), without the cache.
    static func node(_ state: SearchState) -> UnsafeMutablePointer<json_t> {
        JSONBuilder.object([
            "query": JSONBuilder.string(state.query),
            "results": node(Results(phase: state.results, query: state.resultsQuery, source: state.resultsSource)),
            "pagesLoaded": JSONBuilder.int(state.pagesLoaded),
            "isExhausted": JSONBuilder.bool(state.isExhausted),
            "isLoadingMore": JSONBuilder.bool(state.isLoadingMore),
            "loadMoreError": state.loadMoreError.map(DomainJSON.encode) ?? JSONBuilder.null(),
        ])
    }

    func stateMembers(_ state: SearchState) -> [StateMember] {
        [
            ("query", .string(state.query)),
            ("results", results.fragment(for: Results(phase: state.results, query: state.resultsQuery, source: state.resultsSource), Self.node)),
            ("pagesLoaded", .int(state.pagesLoaded)),
            ("isExhausted", .bool(state.isExhausted)),
            ("isLoadingMore", .bool(state.isLoadingMore)),
            ("loadMoreError", state.loadMoreError.map { JSONFragment(consuming: DomainJSON.encode($0)) } ?? .null),
        ]
    }
}
