import CinematicDomain
import Synchronization

/// A catalog that answers at once from a script (`[query: movies]`, no movies for anything
/// else) and records every search query it receives.
final class RecordingCatalogRepository: MovieCatalogRepository {
    private let script: [String: [Movie]]
    private let queries = Mutex<[String]>([])

    init(_ script: [String: [Movie]] = [:]) { self.script = script }

    /// Every search query received, in order.
    var searchQueries: [String] { queries.withLock { $0 } }

    func searchMovies(matching query: String, page: Int) async throws(MovieError) -> [Movie] {
        queries.withLock { $0.append(query) }
        return script[query] ?? []
    }

    func movies(in section: DiscoverSection, page: Int) async throws(MovieError) -> [Movie] {
        throw .invalidResponse("not scripted")
    }

    func movieDetail(id: Int) async throws(MovieError) -> MovieDetail { throw .notFound }
}
