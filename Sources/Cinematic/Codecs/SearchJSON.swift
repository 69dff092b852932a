import CJansson
import CinematicDomain
import CinematicFeatures
import MVIKit

/// The Search feature on the wire.
///
/// Intents from hosts: `{"type":"queryChanged","query":"dune"}`, `{"type":"submitted"}`,
/// `{"type":"loadMore"}`.
/// State: `{"query":"dune","results":{"phase":"loaded","query":"dune","value":[movie, …]},
/// "pagesLoaded":1,"isExhausted":false,"isLoadingMore":false,"loadMoreError":null,"hint":null}`
/// (a hint: `{"kind":"person","text":"…"}`, `{"kind":"genre","text":"…"}`); every
/// phase but idle names the query it answers, and loaded results of a host catalog say
/// where they came from (`"source":"live"`, or `"source":"cache","cachedAt":…`).
package struct SearchCodec: FeatureCodec {
    typealias Reducer = SearchReducer

    static func makeStore(arguments: JSONDocument?, serial: UInt64, environment: StoreEnvironment,
                          delivery: StoreDelivery) throws(APIError) -> any FeatureStore {
        try requireNoArguments(arguments)
        let reducer = SearchReducer(
            searchMovies: SearchMoviesUseCase(repository: environment.catalog), clock: environment.clock,
            debounce: environment.searchDebounce)
        return CodecStore(serial: serial, initialState: SearchState(), reducer: reducer, codec: SearchCodec(), delivery: delivery)
    }

    static func encodeIntent(_ intent: SearchIntent) -> EncodedIntent {
        switch intent {
        case let .host(host): encodeHost(host)
        case .searchNow: result(.searchNow)
        case let .resultsLoaded(query, page, movies, source, coverage, unmatched):
            result(.resultsLoaded, ["query": JSONBuilder.string(query), "page": JSONBuilder.int(page), "movies": DomainJSON.encode(movies)],
                   source: source, notes: DomainJSON.notes(coverage: coverage, unmatched: unmatched))
        case let .searchFailed(query, page, error):
            result(.searchFailed, ["query": JSONBuilder.string(query), "page": JSONBuilder.int(page), "error": DomainJSON.encode(error)])
        case let .restored(query, pages): result(.restored, ["query": JSONBuilder.string(query), "pages": JSONBuilder.int(pages)])
        }
    }

    /// The results' films, each encoded once while it stays in the list (typing changes only
    /// the query; a page appended encodes 20 films).
    private let movies = MovieFragments()

    /// The results, the query they answer and where they came from: described (and
    /// serialized) once per distinct value, so typing changes only the query.
    private struct Results: Equatable, Sendable {
        let phase: LoadingPhase<[Movie], MovieError>
        let query: String
        let source: AnswerSource
    }

    private let results = NodeCache<Results>()

    /// The results phase, with the query it answers in every phase but idle.
    private func node(_ results: Results) -> StateNode {
        let phase = StateNode.phase(results.phase, source: results.source, value: { .movies($0, movies) }, failure: StateNode.error)
        guard case var .object(members) = phase, results.phase != .idle else { return phase }
        members.append(("query", .string(results.query)))
        return .object(members)
    }

    func stateMembers(_ state: SearchState) -> [StateMember] {
        [
            (StateKey.query, .string(state.query)),
            (StateKey.results, results.node(for: Results(phase: state.results, query: state.resultsQuery, source: state.resultsSource), node)),
            (StateKey.pagesLoaded, .int(state.pagesLoaded)),
            (StateKey.isExhausted, .bool(state.isExhausted)),
            (StateKey.isLoadingMore, .bool(state.isLoadingMore)),
            (StateKey.loadMoreError, .error(state.loadMoreError)),
            (StateKey.hint, state.hint.map(Self.node) ?? .null),
        ]
    }

    /// A hint as the wire shows it (schema `searchHint`): what it is about and the words to show.
    static func node(_ hint: SearchHint) -> StateNode {
        .object([("kind", .string(hint.kind.rawValue)), ("text", .string(hint.text))])
    }
}

extension SearchCodec {
    /// The wire JSON of `state` as a new codec writes it, the whole tree (no fragment cache):
    /// what `make bench` times against the cached path (`package`: this package's targets only).
    package static func stateJSON(_ state: SearchState) -> String { SearchCodec().encodeState(state).text }
}
