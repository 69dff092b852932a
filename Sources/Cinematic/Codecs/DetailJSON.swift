import CJansson
import CinematicDomain
import CinematicFeatures
import MVIKit

/// The Detail feature on the wire. Opened with args `{"movie_id": 15249}`.
///
/// Intents from hosts: `{"type":"task"}` (loads the detail and starts observing favorites:
/// the store never settles after it), `{"type":"favoriteToggled"}`.
/// State: `{"movieId":15249,"detail":<phase of movie detail>,"isFavorite":false,
/// "isSaving":false,"favoriteError":null|{"code","message"}}`.
struct DetailCodec: FeatureCodec {
    typealias Reducer = DetailReducer

    static let hostIntents: Set<String> = ["task", "favoriteToggled"]
    static let internalIntents: Set<String> = ["detailLoaded", "detailFailed", "favoritesChanged", "favoriteSaved", "favoriteSaveFailed"]

    /// The movie id from the store's arguments: `{"movie_id": N}`, required.
    static func movieID(from arguments: JSONDocument?) throws(APIError) -> Int {
        guard let arguments else { throw .invalid("the detail feature needs {\"movie_id\": N}", at: "$") }
        let object = try arguments.object("an arguments object {\"movie_id\": N}")
        try object.rejectUnknownKeys(allowing: ["movie_id"])
        return try object.required("movie_id").int()
    }

    func decodeIntent(_ intent: IntentReader) throws(APIError) -> DetailIntent {
        switch intent.type {
        case "task":
            try intent.requireNoMembers()
            return .task
        case "favoriteToggled":
            try intent.requireNoMembers()
            return .favoriteToggled
        default:
            throw intent.unknown(hostIntents: Self.hostIntents, internalIntents: Self.internalIntents)
        }
    }

    func encodeState(_ state: DetailState) -> JSONFragment {
        JSONFragment(consuming: JSONBuilder.object([
            "movieId": JSONBuilder.int(state.movieID),
            "detail": DomainJSON.encode(state.detail, value: DomainJSON.encode),
            "isFavorite": JSONBuilder.bool(state.isFavorite),
            "isSaving": JSONBuilder.bool(state.savingFavorite != nil),
            "favoriteError": state.favoriteError.map(DomainJSON.encode) ?? JSONBuilder.null(),
        ]))
    }
}
