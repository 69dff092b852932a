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

    static func makeStore(arguments: JSONDocument?, serial: UInt64, environment: StoreEnvironment,
                          delivery: StoreDelivery) throws(APIError) -> any FeatureStore {
        try requireNoArguments(arguments)
        return CodecStore(serial: serial, initialState: FavoritesState(), reducer: FavoritesReducer(favorites: environment.favorites),
                          codec: FavoritesCodec(), delivery: delivery)
    }

    /// The favorites' films, each encoded once while it stays in the list.
    private let movies = MovieFragments()
    /// The list's phase, described once per distinct list.
    private let favorites = NodeCache<LoadingPhase<[Movie], Never>>()

    static func encodeIntent(_ intent: FavoritesIntent) -> EncodedIntent {
        switch intent {
        case let .host(host): encodeHost(host)
        case let .favoritesChanged(snapshot): result(.favoritesChanged, DomainJSON.members(of: snapshot))
        case let .removalFailed(error): result(.removalFailed, ["error": DomainJSON.encode(error)])
        }
    }

    func stateMembers(_ state: FavoritesState) -> [StateMember] {
        [
            (StateKey.favorites, favorites.node(for: state.favorites) { .phase($0, value: { .movies($0, movies) }, failure: StateNode.never) }),
            (StateKey.removalError, .error(state.removalError)),
        ]
    }
}
