import CinematicDomain
import Synchronization

/// A catalog that answers at once from a script (`[query: movies]`, no movies for anything
/// else) and records every search query it receives.
public final class RecordingCatalogRepository: MovieCatalogRepository {
    private let script: [String: [Movie]]
    private let everyQuery: [Movie]?
    private let queries = Mutex<[String]>([])

    public init(_ script: [String: [Movie]] = [:]) {
        self.script = script
        self.everyQuery = nil
    }

    /// A catalog that answers every search with `results`.
    public init(results: [Movie]) {
        self.script = [:]
        self.everyQuery = results
    }

    /// Every search query received, in order.
    public var searchQueries: [String] { queries.withLock { $0 } }

    public func search(matching query: String, page: Int) async throws(MovieError) -> Sourced<[Movie]> {
        queries.withLock { $0.append(query) }
        return Sourced(everyQuery ?? script[query] ?? [], source: .local)
    }

    public func discover(section: DiscoverSection, page: Int) async throws(MovieError) -> Sourced<[Movie]> {
        throw .invalidResponse("not scripted")
    }

    public func detail(id: Int) async throws(MovieError) -> Sourced<MovieDetail> { throw .notFound }
}
