import CJansson
import CinematicData
import CinematicDomain
import MVIKit

/// The JSON forms of the domain's values, shared by every feature's codec.
/// Encoders return new references (see ``JSONBuilder``).
enum DomainJSON {
    typealias Node = UnsafeMutablePointer<json_t>

    /// `{"id":…,"title":…,"year":…,"runtime":…,"rating":…,"votes":…,"genres":[…],"mpaa":…|null}`
    static func encode(_ movie: Movie) -> Node {
        let object = JSONBuilder.object()
        fill(object, with: movie)
        return object
    }

    /// A movie's fields plus `budget` (null when unknown) and `ratingDistribution` (10 shares).
    static func encode(_ detail: MovieDetail) -> Node {
        let object = JSONBuilder.object()
        fill(object, with: detail.movie)
        JSONBuilder.set(object, "budget", detail.budget.map(JSONBuilder.int) ?? JSONBuilder.null())
        JSONBuilder.set(object, "ratingDistribution", JSONBuilder.array(detail.ratingDistribution, JSONBuilder.real))
        return object
    }

    private static func fill(_ object: Node, with movie: Movie) {
        JSONBuilder.set(object, "id", JSONBuilder.int(movie.id))
        JSONBuilder.set(object, "title", JSONBuilder.string(movie.title))
        JSONBuilder.set(object, "year", JSONBuilder.int(movie.year))
        JSONBuilder.set(object, "runtime", JSONBuilder.int(movie.runtime))
        JSONBuilder.set(object, "rating", JSONBuilder.real(movie.rating))
        JSONBuilder.set(object, "votes", JSONBuilder.int(movie.votes))
        JSONBuilder.set(object, "genres", JSONBuilder.array(movie.genres, JSONBuilder.string))
        JSONBuilder.set(object, "mpaa", movie.mpaa.map(JSONBuilder.string) ?? JSONBuilder.null())
    }

    static func encode(_ movies: [Movie]) -> Node { JSONBuilder.array(movies, encode) }

    /// A favorites snapshot's members: `"version": n, "movies": […]` (new references).
    static func members(of snapshot: FavoritesSnapshot) -> KeyValuePairs<String, Node> {
        ["version": JSONBuilder.int(Int(clamping: snapshot.version)), "movies": encode(snapshot.movies)]
    }

    /// `{"films":58788,"firstYear":1893,"lastYear":2005,"provenance":"…"}`
    static func encode(_ coverage: CatalogCoverage) -> Node {
        JSONBuilder.object(["films": JSONBuilder.int(coverage.films), "firstYear": JSONBuilder.int(coverage.firstYear),
                            "lastYear": JSONBuilder.int(coverage.lastYear), "provenance": JSONBuilder.string(coverage.provenance)])
    }

    /// What a search answer says beyond its films, as members present only when there is
    /// something to say: `"coverage": {…}`, `"unmatched": ["dark"]` (new references).
    static func notes(coverage: CatalogCoverage?, unmatched: [String]) -> [(String, Node)] {
        (coverage.map { [("coverage", encode($0))] } ?? [])
            + (unmatched.isEmpty ? [] : [("unmatched", JSONBuilder.array(unmatched, JSONBuilder.string))])
    }

    /// `{"code":"notFound","message":"movie not found"}`
    static func encode(_ error: MovieError) -> Node {
        JSONBuilder.object(["code": JSONBuilder.string(WireNames.code(of: error)), "message": JSONBuilder.string(error.message)])
    }

    /// Adds where an answer came from to `object`: `"source":"live"`, or `"source":"cache"`
    /// with `"cachedAt"`; nothing for `.local` (the embedded catalog).
    static func set(_ source: AnswerSource, on object: Node) {
        switch source {
        case .local: break
        case .live: JSONBuilder.set(object, "source", JSONBuilder.string("live"))
        case let .cache(cachedAt):
            JSONBuilder.set(object, "source", JSONBuilder.string("cache"))
            JSONBuilder.set(object, "cachedAt", JSONBuilder.int(Int(cachedAt)))
        }
    }

    // MARK: Decoding host answers (unknown members are ignored: forward compatibility)

    /// A movie from a host provider. `id` and `title` are required; the other fields default
    /// to 0, [] and null. `alternateTitles` (at most 8 names of 1 to 200 UTF-8 bytes): the first
    /// is shown beside the title, "Shichinin no samurai (Seven Samurai)", as the embedded
    /// catalog shows it.
    static func decodeMovie(_ value: JSONValueReader) throws(APIError) -> Movie {
        let object = try value.object()
        func int(_ key: String) throws(APIError) -> Int { try object.optional(key).map { v throws(APIError) in try v.int() } ?? 0 }
        let genres = try object.optional("genres")?.array().map { v throws(APIError) in try v.string() } ?? []
        let mpaa = try object.optional("mpaa").flatMap { v throws(APIError) in v.isNull ? nil : try v.string() }
        let names = try object.optional("alternateTitles").map { list throws(APIError) in try alternateTitles(list) } ?? []
        let title = try object.required("title").string()
        return Movie(
            id: try object.required("id").int(), title: AlternateTitles.display(title, shown: names.first),
            year: try int("year"), runtime: try int("runtime"),
            rating: try object.optional("rating")?.double() ?? 0, votes: try int("votes"),
            genres: genres, mpaa: mpaa)
    }

    /// A host movie's `alternateTitles`: at most 8 names of 1 to 200 UTF-8 bytes (the bounds of
    /// a movie file's, ``AlternateTitles``).
    private static func alternateTitles(_ list: JSONValueReader) throws(APIError) -> [String] {
        let names = try list.array(), most = AlternateTitles.perFilm, bytes = AlternateTitles.nameBytes
        guard names.count <= most else { throw .invalid("alternateTitles holds more than \(most) names", at: list.path) }
        return try names.map { name throws(APIError) in
            let text = try name.text(maxCharacters: bytes, maxBytes: bytes)
            guard !text.isEmpty else { throw .invalid("an alternate title is empty", at: name.path) }
            return text
        }
    }

    /// A detail from a host provider: a movie plus optional `budget` and `ratingDistribution`.
    static func decodeDetail(_ value: JSONValueReader) throws(APIError) -> MovieDetail {
        let object = try value.object()
        let budget = try object.optional("budget").flatMap { v throws(APIError) in v.isNull ? nil : try v.int() }
        let distribution = try object.optional("ratingDistribution")?.array().map { v throws(APIError) in try v.double() } ?? []
        return MovieDetail(movie: try decodeMovie(value), budget: budget, ratingDistribution: distribution)
    }

    /// `{"code":…,"message":…}`; a code outside the closed set maps to `invalidResponse`.
    static func decodeError(_ value: JSONValueReader) throws(APIError) -> MovieError {
        let object = try value.object()
        let code = try object.required("code").string()
        let message = try object.optional("message")?.string() ?? ""
        return WireNames.error(code: code, message: message)
    }
}
