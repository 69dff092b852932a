import CJansson
import CinematicDomain
import CinematicFeatures
import MVIKit

/// The Detail feature on the wire. Opened with args `{"movieId": 15249}`.
///
/// Intents from hosts: `{"type":"task"}` (loads the detail and starts observing favorites:
/// the store never settles after it), `{"type":"favoriteToggled"}`.
/// State: `{"movieId":15249,"detail":<phase of movie detail>,"isFavorite":false,
/// "isSaving":false,"favoriteError":null|{"code","message"}}`.
struct DetailCodec: FeatureCodec {
    typealias Reducer = DetailReducer

    static func makeStore(arguments: JSONDocument?, serial: UInt64, environment: StoreEnvironment,
                          delivery: StoreDelivery) throws(APIError) -> any FeatureStore {
        let movieID = try decodeArguments(arguments).movieId
        return CodecStore(serial: serial, initialState: DetailState(movieID: movieID),
                          reducer: DetailReducer(catalog: environment.catalog, favorites: environment.favorites),
                          codec: DetailCodec(), delivery: delivery)
    }

    static func encodeIntent(_ intent: DetailIntent) -> EncodedIntent {
        switch intent {
        case let .host(host): encodeHost(host)
        case let .detailLoaded(detail, source): result(.detailLoaded, ["detail": DomainJSON.encode(detail)], source: source)
        case let .detailFailed(error): result(.detailFailed, ["error": DomainJSON.encode(error)])
        case let .favoritesChanged(snapshot): result(.favoritesChanged, DomainJSON.members(of: snapshot))
        case let .favoriteSaved(version, isFavorite):
            result(.favoriteSaved, ["version": JSONBuilder.int(Int(clamping: version)), "isFavorite": JSONBuilder.bool(isFavorite)])
        case let .favoriteSaveFailed(error): result(.favoriteSaveFailed, ["error": DomainJSON.encode(error)])
        }
    }

    /// The detail phase and where it came from, described and encoded once per distinct value
    /// (a heart tap changes only `isFavorite`).
    private struct Detail: Equatable, Sendable {
        let phase: LoadingPhase<MovieDetail, MovieError>
        let source: AnswerSource
    }

    private let detail = NodeCache<Detail>()

    func stateMembers(_ state: DetailState) -> [StateMember] {
        [
            (StateKey.movieId, .int(state.movieID)),
            (StateKey.detail, detail.node(for: Detail(phase: state.detail, source: state.detailSource)) {
                .phase($0.phase, source: $0.source, value: { .fragment(JSONFragment(consuming: DomainJSON.encode($0))) },
                       failure: StateNode.error)
            }),
            (StateKey.isFavorite, .bool(state.isFavorite)),
            (StateKey.isSaving, .bool(state.savingFavorite != nil)),
            (StateKey.favoriteError, .error(state.favoriteError)),
        ]
    }
}
