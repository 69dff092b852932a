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
            try await inner.search(matching: query, page: page).map { .movies($0) }
        }.map(\.movies)
    }

    func discover(section: DiscoverSection, page: Int) async throws(MovieError) -> Sourced<[Movie]> {
        try await record(.discover(section: section, page: page)) { () async throws(MovieError) in
            try await inner.discover(section: section, page: page).map { .movies($0) }
        }.map(\.movies)
    }

    func detail(id: Int) async throws(MovieError) -> Sourced<MovieDetail> {
        try await record(.movie(id: id)) { () async throws(MovieError) in
            try await inner.detail(id: id).map { .movie($0) }
        }.map(\.detail)
    }

    private func record(_ request: HostCatalogRequest, _ body: () async throws(MovieError) -> Sourced<HostCatalogAnswer>)
        async throws(MovieError) -> Sourced<HostCatalogAnswer> {
        try await recorder.recordRequest({ JSONFragment(consuming: HostRequestJSON.node(request)) }, answer: { result in
            [("answer", HostRequestJSON.encode(result.map(\.value)))] + RecordedSource.members(of: try? result.get())
        }, body)
    }
}

/// Where a recorded catalog answer came from, as members of its `answer` line: none for
/// `.local`, `"source":"live"`, or `"source":"cache","cachedAt":n`; and what a search answer
/// says beyond its films, when it says something (``DomainJSON/notes(coverage:unmatched:)``:
/// `"coverage":{…}`, `"unmatched":[…]`), so a replayed search words the same hint.
enum RecordedSource {
    /// The members of `answer` beside its value (none for a failed request).
    static func members<Value>(of answer: Sourced<Value>?) -> [(key: String, value: JSONFragment)] {
        guard let answer else { return [] }
        let notes = DomainJSON.notes(coverage: answer.coverage, unmatched: answer.unmatched).map { (key: $0.0, value: JSONFragment(consuming: $0.1)) }
        switch answer.source {
        case .local: return notes
        case .live: return [("source", .string("live"))] + notes
        case let .cache(cachedAt): return [("source", .string("cache")), ("cachedAt", .int(Int(cachedAt)))] + notes
        }
    }

    /// The members read back, around no value yet (absent: `.local`, no coverage, no words):
    /// `decode(line).map { _ in value }` is the recorded answer.
    static func decode(_ line: JSONObjectReader) throws(APIError) -> Sourced<Void> {
        let unmatched = try line.optional("unmatched")?.array().map { word throws(APIError) in try word.string() } ?? []
        return Sourced((), source: try source(line), coverage: try coverage(line), unmatched: unmatched)
    }

    private static func coverage(_ line: JSONObjectReader) throws(APIError) -> CatalogCoverage? {
        guard let value = line.optional("coverage") else { return nil }
        let object = try value.object()
        return CatalogCoverage(films: try object.required("films").int(), firstYear: try object.required("firstYear").int(),
                               lastYear: try object.required("lastYear").int(), provenance: try object.required("provenance").string())
    }

    private static func source(_ line: JSONObjectReader) throws(APIError) -> AnswerSource {
        guard let source = line.optional("source") else { return .local }
        switch try source.string() {
        case "live": return .live
        case "cache": return .cache(cachedAt: Int64(try line.required("cachedAt").int()))
        case let other: throw .invalid("unknown answer source \"\(other)\"", at: source.path)
        }
    }
}

extension Sourced {
    /// The same answer (source, coverage, words left out) with the value transformed.
    func map<Other>(_ transform: (Value) -> Other) -> Sourced<Other> { Sourced<Other>(transform(value), source: source, coverage: coverage, unmatched: unmatched) }
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
