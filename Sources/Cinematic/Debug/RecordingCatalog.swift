import CinematicData
import CinematicDomain

/// A catalog that records every request the stores make of it, and each answer, in the
/// provider protocol's own JSON (`{"op":"search",…}`, `{"movies":[…]}`, `{"error":{…}}`), so a
/// replay can answer from the recording whatever the catalog was (embedded or host).
struct RecordingCatalog: MovieCatalogRepository {
    let inner: any MovieCatalogRepository
    let recorder: Recorder

    func searchMovies(matching query: String, page: Int) async throws(MovieError) -> [Movie] {
        try await record(.search(query: query, page: page)) { () async throws(MovieError) in
            .movies(try await inner.searchMovies(matching: query, page: page))
        }.movies
    }

    func movies(in section: DiscoverSection, page: Int) async throws(MovieError) -> [Movie] {
        try await record(.discover(section: section, page: page)) { () async throws(MovieError) in
            .movies(try await inner.movies(in: section, page: page))
        }.movies
    }

    func movieDetail(id: Int) async throws(MovieError) -> MovieDetail {
        try await record(.movie(id: id)) { () async throws(MovieError) in .movie(try await inner.movieDetail(id: id)) }.detail
    }

    private func record(_ request: HostCatalogRequest,
                        _ body: () async throws(MovieError) -> HostCatalogAnswer) async throws(MovieError) -> HostCatalogAnswer {
        let id = recorder.nextRequestID()
        recorder.write("request") { [("id", .int(Int(clamping: id))), ("request", JSONFragment(consuming: HostRequestJSON.node(request)))] }
        let result: Result<HostCatalogAnswer, MovieError>
        do throws(MovieError) { result = .success(try await body()) } catch { result = .failure(error) }
        // The answer to a cancelled effect never reaches its store, whatever it is; a replay
        // cancels the same effect at the same intent, so it is not an input there.
        let cancelled = Task.isCancelled
        recorder.write("answer") { [("id", .int(Int(clamping: id))), ("answer", HostRequestJSON.encode(result)), ("cancelled", .bool(cancelled))] }
        return try result.get()
    }
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
