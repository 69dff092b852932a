import CinematicData
import CinematicDomain

/// How the offline cache stores answers: the provider protocol's own answer JSON
/// (`{"movies":[…]}`, `{"movie":{…}}`), written and read by ``HostRequestJSON``, so a cache
/// file holds exactly what hosts send and see.
package struct CachedAnswerJSON: AnswerCoder {
    /// The coder (it holds nothing).
    package init() {}

    package func encode(_ movies: [Movie]) -> String { HostRequestJSON.encode(.success(.movies(movies))).text }

    package func encode(_ detail: MovieDetail) -> String { HostRequestJSON.encode(.success(.movie(detail))).text }

    package func decodeMovies(_ text: String) -> [Movie]? { try? Self.answer(text, HostRequestJSON.decodeMovies) }

    package func decodeDetail(_ text: String) -> MovieDetail? { try? Self.answer(text, HostRequestJSON.decodeDetail) }

    /// Parses a stored answer and reads it with `decode`.
    private static func answer<T>(_ text: String, _ decode: (JSONObjectReader) throws(APIError) -> T) throws(APIError) -> T {
        let parsed = text.withCString { text in Result { () throws(APIError) in try JSONDocument(parsing: text) } }
        return try decode(parsed.get().object("a cached answer"))
    }
}
