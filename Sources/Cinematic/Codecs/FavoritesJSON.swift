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

    static let hostIntents: Set<String> = ["task", "removed"]
    static let internalIntents: Set<String> = ["favoritesChanged", "removalFailed"]

    private let favorites = FragmentCache<LoadingPhase<[Movie], Never>>()

    func decodeIntent(_ intent: IntentReader) throws(APIError) -> FavoritesIntent {
        switch intent.type {
        case "task":
            try intent.requireNoMembers()
            return .task
        case "removed":
            try intent.object.rejectUnknownKeys(allowing: ["type", "movieId"])
            return .removed(movieID: try intent.object.required("movieId").int())
        default:
            throw intent.unknown(hostIntents: Self.hostIntents, internalIntents: Self.internalIntents)
        }
    }

    func encodeState(_ state: FavoritesState) -> JSONFragment {
        .object([
            "favorites": favorites.fragment(for: state.favorites) { DomainJSON.encode($0, value: DomainJSON.encode) },
            "removalError": JSONFragment(consuming: state.removalError.map(DomainJSON.encode) ?? JSONBuilder.null()),
        ])
    }
}
