import CinematicData
import CinematicDomain

/// How the offline cache stores answers: the provider protocol's own answer JSON
/// (`{"movies":[…]}`, `{"movie":{…}}`), written and read with the domain codecs, so a cache
/// file holds exactly what hosts send and see.
struct CachedAnswerJSON: AnswerCoder {
    func encode(_ movies: [Movie]) -> String {
        JSONBuilder.dumpString(consuming: JSONBuilder.object(["movies": DomainJSON.encode(movies)]))
    }

    func encode(_ detail: MovieDetail) -> String {
        JSONBuilder.dumpString(consuming: JSONBuilder.object(["movie": DomainJSON.encode(detail)]))
    }

    func decodeMovies(_ text: String) -> [Movie]? {
        try? Self.member("movies", of: text) { value throws(APIError) in
            try value.array().map { movie throws(APIError) in try DomainJSON.decodeMovie(movie) }
        }
    }

    func decodeDetail(_ text: String) -> MovieDetail? {
        try? Self.member("movie", of: text) { value throws(APIError) in try DomainJSON.decodeDetail(value) }
    }

    private static func member<T>(_ key: String, of text: String, _ decode: (JSONValueReader) throws(APIError) -> T) throws(APIError) -> T {
        let parsed = text.withCString { text in Result { () throws(APIError) in try JSONDocument(parsing: text) } }
        let document = try parsed.get()
        return try decode(document.object("a cached answer").required(key))
    }
}
