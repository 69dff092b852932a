import CinematicDomain
import Synchronization

/// A catalog that answers every search at once with `results` and records each query it was
/// asked, so a test can see exactly what reached the repository.
final class RecordingCatalogRepository: MovieCatalogRepository {
    private let results: [Movie]
    private let queries = Mutex<[String]>([])

    init(results: [Movie] = []) { self.results = results }

    /// Every search query received, in order.
    var searchQueries: [String] { queries.withLock { $0 } }

    func searchMovies(matching query: String, page: Int) async throws(MovieError) -> [Movie] {
        queries.withLock { $0.append(query) }
        return results
    }

    func movies(in section: DiscoverSection, page: Int) async throws(MovieError) -> [Movie] {
        throw .invalidResponse("not scripted")
    }

    func movieDetail(id: Int) async throws(MovieError) -> MovieDetail {
        throw .notFound
    }
}
