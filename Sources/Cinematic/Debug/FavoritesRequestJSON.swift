import CJansson
import CinematicDomain

/// A request the stores make of the favorites, as a recording writes it:
/// `{"op":"favorites.toggle","movie":{…}}`, `{"op":"favorites.add","movie":{…}}`,
/// `{"op":"favorites.remove","movieId":n}`, `{"op":"favorites.list"}`.
enum FavoritesRequest: Equatable, Sendable {
    case add(Movie)
    case remove(movieID: Int)
    case toggle(Movie)
    case list

    var json: JSONFragment {
        switch self {
        case let .add(movie): Self.node("favorites.add", ["movie": DomainJSON.encode(movie)])
        case let .remove(id): Self.node("favorites.remove", ["movieId": JSONBuilder.int(id)])
        case let .toggle(movie): Self.node("favorites.toggle", ["movie": DomainJSON.encode(movie)])
        case .list: Self.node("favorites.list", [:])
        }
    }

    private static func node(_ op: String, _ members: KeyValuePairs<String, UnsafeMutablePointer<json_t>>) -> JSONFragment {
        let object = JSONBuilder.object(["op": JSONBuilder.string(op)])
        for (key, value) in members { JSONBuilder.set(object, key, value) }
        return JSONFragment(consuming: object)
    }

    /// Reads a recorded request; nil when its `op` is not a favorites one.
    static func decode(_ value: JSONValueReader) throws(APIError) -> FavoritesRequest? {
        let object = try value.object()
        switch try object.required("op").string() {
        case "favorites.add": return .add(try DomainJSON.decodeMovie(object.required("movie")))
        case "favorites.remove": return .remove(movieID: try object.required("movieId").int())
        case "favorites.toggle": return .toggle(try DomainJSON.decodeMovie(object.required("movie")))
        case "favorites.list": return .list
        default: return nil
        }
    }

    /// A snapshot's members for a `"snapshot"` line.
    static func members(of snapshot: FavoritesSnapshot) -> [(key: String, value: JSONFragment)] {
        [("version", .int(Int(clamping: snapshot.version))), ("movies", JSONFragment(consuming: DomainJSON.encode(snapshot.movies)))]
    }
}

/// The favorites' answer to a ``FavoritesRequest``: `{"version":n}`,
/// `{"isFavorite":true,"version":n}`, `{"movies":[…]}` or `{"error":{…}}`.
enum FavoritesAnswer: Equatable, Sendable {
    case version(UInt64)
    case toggled(FavoriteToggle)
    case movies([Movie])

    var version: UInt64 {
        switch self {
        case let .version(version): version
        case let .toggled(toggle): toggle.version
        case .movies: 0
        }
    }

    var toggle: FavoriteToggle {
        if case let .toggled(toggle) = self { return toggle }
        return FavoriteToggle(isFavorite: false, version: version)
    }

    var movies: [Movie] {
        if case let .movies(movies) = self { return movies }
        return []
    }

    static func encode(_ result: Result<FavoritesAnswer, MovieError>) -> JSONFragment {
        let node: UnsafeMutablePointer<json_t>
        switch result {
        case let .success(.version(version)): node = JSONBuilder.object(["version": JSONBuilder.int(Int(clamping: version))])
        case let .success(.toggled(toggle)):
            node = JSONBuilder.object(["isFavorite": JSONBuilder.bool(toggle.isFavorite), "version": JSONBuilder.int(Int(clamping: toggle.version))])
        case let .success(.movies(movies)): node = JSONBuilder.object(["movies": DomainJSON.encode(movies)])
        case let .failure(error): node = JSONBuilder.object(["error": DomainJSON.encode(error)])
        }
        return JSONFragment(consuming: node)
    }

    /// Reads a recorded answer to `request`.
    static func decode(_ value: JSONValueReader, for request: FavoritesRequest) throws(APIError) -> Result<FavoritesAnswer, MovieError> {
        let object = try value.object()
        if let error = object.optional("error") { return .failure(try DomainJSON.decodeError(error)) }
        switch request {
        case .add, .remove: return .success(.version(UInt64(clamping: try object.required("version").int())))
        case .toggle:
            return .success(.toggled(FavoriteToggle(isFavorite: try object.required("isFavorite").bool(),
                                                    version: UInt64(clamping: try object.required("version").int()))))
        case .list:
            return .success(.movies(try object.required("movies").array().map { m throws(APIError) in try DomainJSON.decodeMovie(m) }))
        }
    }
}
