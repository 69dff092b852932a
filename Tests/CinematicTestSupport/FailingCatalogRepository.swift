import CinematicDomain
import Synchronization

/// A catalog whose every call fails with `error`; it records the search queries it refused.
public final class FailingCatalogRepository: MovieCatalogRepository {
    let error: MovieError
    private let queries = Mutex<[String]>([])

    public init(error: MovieError) { self.error = error }

    public var searchQueries: [String] { queries.withLock { $0 } }

    public func search(matching query: String, page: Int) async throws(MovieError) -> Sourced<[Movie]> {
        queries.withLock { $0.append(query) }
        throw error
    }

    public func discover(section: DiscoverSection, page: Int) async throws(MovieError) -> Sourced<[Movie]> { throw error }
    public func detail(id: Int) async throws(MovieError) -> Sourced<MovieDetail> { throw error }
}
