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
        let object: UnsafeMutablePointer<json_t>
        switch request {
        case let .search(query, page):
            object = JSONBuilder.object(["op": JSONBuilder.string("search"), "query": JSONBuilder.string(query), "page": JSONBuilder.int(page)])
        case let .discover(section, page):
            object = JSONBuilder.object(["op": JSONBuilder.string("discover"), "section": JSONBuilder.string(WireNames.id(of: section)), "page": JSONBuilder.int(page)])
        case let .movie(id):
            object = JSONBuilder.object(["op": JSONBuilder.string("movie"), "id": JSONBuilder.int(id)])
        }
        return JSONBuilder.dumpString(consuming: object)
    }

    /// Decodes a host's answer to `request`.
    static func decodeAnswer(_ document: JSONDocument, for request: HostCatalogRequest) throws(APIError) -> Result<HostCatalogAnswer, MovieError> {
        let object = try document.object("an answer object")
        if let error = object.optional("error") { return .failure(try DomainJSON.decodeError(error)) }
        switch request {
        case .search, .discover:
            let movies = try object.required("movies").array().map { movie throws(APIError) in try DomainJSON.decodeMovie(movie) }
            return .success(.movies(movies))
        case .movie:
            return .success(.movie(try DomainJSON.decodeDetail(object.required("movie"))))
        }
    }
}
