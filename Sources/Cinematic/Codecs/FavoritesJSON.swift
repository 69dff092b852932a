import CJansson
import CinematicDomain
import CinematicFeatures
import MVIKit

/// The Favorites feature on the wire.
///
/// Intents from hosts: `{"type":"task"}` (starts observing: the store never settles after
/// it), `{"type":"removed","movieId":15249}`.
/// State: `{"favorites":<phase of [movie]>,"removalError":null|{"code","message"}}`.
struct FavoritesCodec: FeatureCodec {
    typealias Reducer = FavoritesReducer

    enum HostKind: String, CaseIterable {
        case task, removed
    }

    static let name = "favorites"
    static let sampleArguments: String? = nil
    static let internalIntents = ["favoritesChanged", "removalFailed"]

    static func makeStore(arguments: JSONDocument?, serial: UInt64, environment: StoreEnvironment,
                          delivery: StoreDelivery) throws(APIError) -> any FeatureStore {
        try requireNoArguments(arguments)
        return CodecStore(serial: serial, initialState: FavoritesState(), reducer: FavoritesReducer(favorites: environment.favorites),
                          codec: FavoritesCodec(), delivery: delivery)
    }

    private let favorites = FragmentCache<LoadingPhase<[Movie], Never>>()

    func decodeHost(_ kind: HostKind, _ intent: IntentReader) throws(APIError) -> FavoritesIntent.Host {
        switch kind {
        case .task:
            try intent.requireNoMembers()
            return .task
        case .removed:
            try intent.object.rejectUnknownKeys(allowing: ["type", "movieId"])
            return .removed(movieID: try intent.object.required("movieId").int())
        }
    }

    static func encodeIntent(_ intent: FavoritesIntent) -> EncodedIntent {
        switch intent {
        case .host(.task): .host("task")
        case let .host(.removed(movieID)): .host("removed", ["movieId": JSONBuilder.int(movieID)])
        case let .favoritesChanged(snapshot): .internal("favoritesChanged", DomainJSON.members(of: snapshot))
        case let .removalFailed(error): .internal("removalFailed", ["error": DomainJSON.encode(error)])
        }
    }

    func stateMembers(_ state: FavoritesState) -> [StateMember] {
        [
            ("favorites", favorites.fragment(for: state.favorites) { DomainJSON.encode($0, value: DomainJSON.encode) }),
            ("removalError", JSONFragment(consuming: state.removalError.map(DomainJSON.encode) ?? JSONBuilder.null())),
        ]
    }
}
