import CinematicDomain
import Synchronization

/// The scripted catalog of seed 004: every search is held until the test releases it, in any
/// order, and it IGNORES cancellation, like a network layer that answers late. A cancelled
/// caller still gets its answer whenever the test releases it.
public final class HoldingCatalogRepository: MovieCatalogRepository {
    /// Creates a repository holding nothing yet.
    public init() {}

    private struct Held {
        let query: String
        let continuation: CheckedContinuation<Result<[Movie], MovieError>, Never>
    }

    private struct Inner {
        var queries: [String] = []
        var held: [Held] = []
    }

    private let inner = Mutex(Inner())

    /// Every search query received, in order.
    public var searchQueries: [String] { inner.withLock { $0.queries } }

    /// Queries whose callers are still waiting for an answer, oldest first.
    public var heldQueries: [String] { inner.withLock { $0.held.map(\.query) } }

    public func search(matching query: String, page: Int) async throws(MovieError) -> Sourced<[Movie]> {
        // Not cancellable on purpose: the answer arrives only through `release`.
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<[Movie], MovieError>, Never>) in
            inner.withLock { inner in
                inner.queries.append(query)
                inner.held.append(Held(query: query, continuation: continuation))
            }
        }
        return Sourced(try result.get(), source: .local)
    }

    /// Answers the oldest held call for `query`. Returns false when no such call is waiting.
    @discardableResult
    public func release(_ query: String, with result: Result<[Movie], MovieError>) -> Bool {
        let held = inner.withLock { inner -> Held? in
            guard let index = inner.held.firstIndex(where: { $0.query == query }) else { return nil }
            return inner.held.remove(at: index)
        }
        held?.continuation.resume(returning: result)
        return held != nil
    }

    public func discover(section: DiscoverSection, page: Int) async throws(MovieError) -> Sourced<[Movie]> {
        throw .invalidResponse("not scripted")
    }

    public func detail(id: Int) async throws(MovieError) -> Sourced<MovieDetail> { throw .notFound }
}
