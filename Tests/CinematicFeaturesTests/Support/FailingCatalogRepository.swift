import CinematicDomain
import Synchronization

/// A catalog whose every call fails with `error`; it records the search queries it refused.
final class FailingCatalogRepository: MovieCatalogRepository {
    let error: MovieError
    private let queries = Mutex<[String]>([])

    init(error: MovieError) { self.error = error }

    var searchQueries: [String] { queries.withLock { $0 } }

    func searchMovies(matching query: String, page: Int) async throws(MovieError) -> [Movie] {
        queries.withLock { $0.append(query) }
        throw error
    }

    func movies(in section: DiscoverSection, page: Int) async throws(MovieError) -> [Movie] { throw error }
    func movieDetail(id: Int) async throws(MovieError) -> MovieDetail { throw error }
}
