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

    enum HostKind: String, CaseIterable {
        case task, favoriteToggled
    }

    static let name = "detail"
    static let sampleArguments: String? = #"{"movieId":15249}"#
    static let internalIntents = ["detailLoaded", "detailFailed", "favoritesChanged", "favoriteSaved", "favoriteSaveFailed"]

    static func makeStore(arguments: JSONDocument?, serial: UInt64, environment: StoreEnvironment,
                          delivery: StoreDelivery) throws(APIError) -> any FeatureStore {
        let movieID = try movieID(from: arguments)
        return CodecStore(serial: serial, initialState: DetailState(movieID: movieID),
                          reducer: DetailReducer(catalog: environment.catalog, favorites: environment.favorites),
                          codec: DetailCodec(), delivery: delivery)
    }

    /// The movie id from the store's arguments: `{"movieId": N}`, required.
    static func movieID(from arguments: JSONDocument?) throws(APIError) -> Int {
        guard let arguments else { throw .invalid("the detail feature needs {\"movieId\": N}", at: "$") }
        let object = try arguments.object("an arguments object {\"movieId\": N}")
        try object.rejectUnknownKeys(allowing: ["movieId"])
        return try object.required("movieId").int()
    }

    func decodeHost(_ kind: HostKind, _ intent: IntentReader) throws(APIError) -> DetailIntent.Host {
        switch kind {
        case .task:
            try intent.requireNoMembers()
            return .task
        case .favoriteToggled:
            try intent.requireNoMembers()
            return .favoriteToggled
        }
    }

    static func encodeIntent(_ intent: DetailIntent) -> EncodedIntent {
        switch intent {
        case .host(.task): .host("task")
        case .host(.favoriteToggled): .host("favoriteToggled")
        case let .detailLoaded(detail, source): .internal("detailLoaded", ["detail": DomainJSON.encode(detail)], source: source)
        case let .detailFailed(error): .internal("detailFailed", ["error": DomainJSON.encode(error)])
        case let .favoritesChanged(snapshot): .internal("favoritesChanged", DomainJSON.members(of: snapshot))
        case let .favoriteSaved(version, isFavorite):
            .internal("favoriteSaved", ["version": JSONBuilder.int(Int(clamping: version)), "isFavorite": JSONBuilder.bool(isFavorite)])
        case let .favoriteSaveFailed(error): .internal("favoriteSaveFailed", ["error": DomainJSON.encode(error)])
        }
    }

    func stateMembers(_ state: DetailState) -> [StateMember] {
        [
            ("movieId", .int(state.movieID)),
            ("detail", JSONFragment(consuming: DomainJSON.encode(state.detail, value: DomainJSON.encode, source: state.detailSource))),
            ("isFavorite", .bool(state.isFavorite)),
            ("isSaving", .bool(state.savingFavorite != nil)),
            ("favoriteError", JSONFragment(consuming: state.favoriteError.map(DomainJSON.encode) ?? JSONBuilder.null())),
        ]
    }
}
