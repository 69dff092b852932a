import CinematicData
import CinematicDomain

/// A catalog that records every request the stores make of it, and each answer, in the
/// provider protocol's own JSON (`{"op":"search",…}`, `{"movies":[…]}`, `{"error":{…}}`) with
/// where the answer came from (`"source"`, `"cachedAt"`), so a replay can answer from the
/// recording whatever the catalog was (embedded, host, host with its offline cache).
struct RecordingCatalog: MovieCatalogRepository {
    let inner: any MovieCatalogRepository
    let recorder: Recorder

    func search(matching query: String, page: Int) async throws(MovieError) -> Sourced<[Movie]> {
        try await record(.search(query: query, page: page)) { () async throws(MovieError) in
            let answer = try await inner.search(matching: query, page: page)
            return Sourced(.movies(answer.value), source: answer.source)
        }.map(\.movies)
    }

    func discover(section: DiscoverSection, page: Int) async throws(MovieError) -> Sourced<[Movie]> {
        try await record(.discover(section: section, page: page)) { () async throws(MovieError) in
            let answer = try await inner.discover(section: section, page: page)
            return Sourced(.movies(answer.value), source: answer.source)
        }.map(\.movies)
    }

    func detail(id: Int) async throws(MovieError) -> Sourced<MovieDetail> {
        try await record(.movie(id: id)) { () async throws(MovieError) in
            let answer = try await inner.detail(id: id)
            return Sourced(.movie(answer.value), source: answer.source)
        }.map(\.detail)
    }

    private func record(_ request: HostCatalogRequest, _ body: () async throws(MovieError) -> Sourced<HostCatalogAnswer>)
        async throws(MovieError) -> Sourced<HostCatalogAnswer> {
        try await recorder.recordRequest({ JSONFragment(consuming: HostRequestJSON.node(request)) }, answer: { result in
            [("answer", HostRequestJSON.encode(result.map(\.value)))] + RecordedSource.members(of: (try? result.get())?.source ?? .local)
        }, body)
    }
}

/// Where a recorded catalog answer came from, as members of its `answer` line: none for
/// `.local`, `"source":"live"`, or `"source":"cache","cachedAt":n`.
enum RecordedSource {
    static func members(of source: AnswerSource) -> [(key: String, value: JSONFragment)] {
        switch source {
        case .local: []
        case .live: [("source", .string("live"))]
        case let .cache(cachedAt): [("source", .string("cache")), ("cachedAt", .int(Int(cachedAt)))]
        }
    }

    /// Reads the members back (absent: `.local`).
    static func decode(_ line: JSONObjectReader) throws(APIError) -> AnswerSource {
        guard let source = line.optional("source") else { return .local }
        switch try source.string() {
        case "live": return .live
        case "cache": return .cache(cachedAt: Int64(try line.required("cachedAt").int()))
        case let other: throw .invalid("unknown answer source \"\(other)\"", at: source.path)
        }
    }
}

extension Sourced {
    /// The same source with the value transformed.
    func map<Other>(_ transform: (Value) -> Other) -> Sourced<Other> { Sourced<Other>(transform(value), source: source) }
}

extension HostCatalogAnswer {
    /// The movies of a list answer (a recording wrapper only ever wraps the matching call).
    var movies: [Movie] {
        if case let .movies(movies) = self { return movies }
        return []
    }

    /// The detail of a movie answer.
    var detail: MovieDetail {
        if case let .movie(detail) = self { return detail }
        preconditionFailure("a movie request answered with a list")
    }
}
