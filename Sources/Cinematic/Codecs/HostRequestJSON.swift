import CJansson
import CinematicData
import CinematicDomain

/// The provider protocol of a host-provided catalog.
///
/// Requests: `{"op":"search","query":"dune","page":1}`, `{"op":"discover","section":"popular","page":1}`,
/// `{"op":"movie","id":20545}`, and `{"op":"cancel"}` with the id of a request no longer needed.
/// Answers: `{"movies":[movie, …]}` for search and discover, `{"movie":{…detail…}}` for movie,
/// or `{"error":{"code":"network","message":"…"}}` for any request.
enum HostRequestJSON {
    static let cancel = #"{"op":"cancel"}"#

    static func encode(_ request: HostCatalogRequest) -> String {
        JSONBuilder.dumpString(consuming: node(request))
    }

    /// A request as a jansson object (new reference).
    static func node(_ request: HostCatalogRequest) -> UnsafeMutablePointer<json_t> {
        let object: UnsafeMutablePointer<json_t>
        switch request {
        case let .search(query, page):
            object = JSONBuilder.object(["op": JSONBuilder.string("search"), "query": JSONBuilder.string(query), "page": JSONBuilder.int(page)])
        case let .discover(section, page):
            object = JSONBuilder.object(["op": JSONBuilder.string("discover"), "section": JSONBuilder.string(WireNames.id(of: section)), "page": JSONBuilder.int(page)])
        case let .movie(id):
            object = JSONBuilder.object(["op": JSONBuilder.string("movie"), "id": JSONBuilder.int(id)])
        }
        return object
    }

    /// An answer as a provider gives it: `{"movies":[…]}`, `{"movie":{…}}` or `{"error":{…}}`.
    static func encode(_ answer: Result<HostCatalogAnswer, MovieError>) -> JSONFragment {
        switch answer {
        case let .success(.movies(movies)): JSONFragment(consuming: JSONBuilder.object(["movies": DomainJSON.encode(movies)]))
        case let .success(.movie(detail)): JSONFragment(consuming: JSONBuilder.object(["movie": DomainJSON.encode(detail)]))
        case let .failure(error): JSONFragment(consuming: JSONBuilder.object(["error": DomainJSON.encode(error)]))
        }
    }

    /// Reads a request back (from a recording); nil when its `op` is not a catalog one.
    static func decodeRequest(_ value: JSONValueReader) throws(APIError) -> HostCatalogRequest? {
        let object = try value.object()
        switch try object.required("op").string() {
        case "search": return .search(query: try object.required("query").string(), page: try object.required("page").int())
        case "discover":
            let member = try object.required("section")
            guard let section = WireNames.section(id: try member.string()) else { throw .invalid("unknown section", at: member.path) }
            return .discover(section: section, page: try object.required("page").int())
        case "movie": return .movie(id: try object.required("id").int())
        default: return nil
        }
    }

    /// Decodes a host's answer to `request` (a whole document, or a member of one such as
    /// a recording's `answer`).
    static func decodeAnswer(_ value: JSONValueReader, for request: HostCatalogRequest) throws(APIError) -> Result<HostCatalogAnswer, MovieError> {
        let object = try value.object("an answer object")
        if let error = object.optional("error") { return .failure(try DomainJSON.decodeError(error)) }
        switch request {
        case .search, .discover: return .success(.movies(try decodeMovies(object)))
        case .movie: return .success(.movie(try decodeDetail(object)))
        }
    }

    /// The movies of `{"movies":[…]}`.
    static func decodeMovies(_ answer: JSONObjectReader) throws(APIError) -> [Movie] {
        try answer.required("movies").array().map { movie throws(APIError) in try DomainJSON.decodeMovie(movie) }
    }

    /// The detail of `{"movie":{…}}`.
    static func decodeDetail(_ answer: JSONObjectReader) throws(APIError) -> MovieDetail {
        try DomainJSON.decodeDetail(answer.required("movie"))
    }
}
