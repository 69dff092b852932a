import CinematicDomain
import CinematicFeatures
import MVIKit

/// The features a host can open by name, and how each is built from a runtime.
enum FeatureRegistry {
    /// Every feature name `cinematic_store_open` accepts.
    static let names = ["search", "discover", "favorites", "detail"]

    static func makeStore(feature: String, arguments: JSONDocument?, serial: UInt64, runtime: Runtime) throws(APIError) -> any FeatureStore {
        switch feature {
        case "search":
            try requireNoArguments(arguments)
            let reducer = SearchReducer(
                searchMovies: SearchMoviesUseCase(repository: runtime.catalog), clock: runtime.clock,
                debounce: .milliseconds(runtime.config.searchDebounceMilliseconds))
            return CodecStore(serial: serial, initialState: SearchState(), reducer: reducer, codec: SearchCodec(), runtime: runtime)
        case "discover":
            try requireNoArguments(arguments)
            return CodecStore(serial: serial, initialState: DiscoverState(), reducer: DiscoverReducer(catalog: runtime.catalog),
                              codec: DiscoverCodec(), runtime: runtime)
        case "favorites":
            try requireNoArguments(arguments)
            return CodecStore(serial: serial, initialState: FavoritesState(), reducer: FavoritesReducer(favorites: runtime.favorites),
                              codec: FavoritesCodec(), runtime: runtime)
        case "detail":
            let movieID = try DetailCodec.movieID(from: arguments)
            return CodecStore(serial: serial, initialState: DetailState(movieID: movieID),
                              reducer: DetailReducer(catalog: runtime.catalog, favorites: runtime.favorites),
                              codec: DetailCodec(), runtime: runtime)
        default:
            throw APIError(.unknownFeature, "unknown feature \"\(feature)\"; available: \(names.joined(separator: ", "))")
        }
    }

    /// Features without arguments accept NULL or `{}`.
    private static func requireNoArguments(_ arguments: JSONDocument?) throws(APIError) {
        guard let arguments else { return }
        let object = try arguments.object("an arguments object")
        try object.rejectUnknownKeys(allowing: [])
    }
}
