import CinematicDomain
import Synchronization

/// A request a host-provided catalog must answer.
public enum HostCatalogRequest: Equatable, Sendable {
    /// Free-text search, one page.
    case search(query: String, page: Int)
    /// One page of a Discover section.
    case discover(section: DiscoverSection, page: Int)
    /// Everything about one movie.
    case movie(id: Int)
}

/// A host's answer to a ``HostCatalogRequest``.
public enum HostCatalogAnswer: Equatable, Sendable {
    /// For `.search` and `.discover`.
    case movies([Movie])
    /// For `.movie`.
    case movie(MovieDetail)
}

/// A catalog whose answers come from the host (for example a network client written in the
/// host's language). Each request gets an id; the host answers whenever it likes, from any
/// thread, with ``respond(to:with:)``. When the core stops needing an answer (the effect was
/// cancelled or replaced) the host is told through `onCancel`; a late answer is accepted and
/// dropped, so the search promises hold even with a host that ignores cancellation.
public final class HostMovieCatalog: MovieCatalogRepository {
    /// What happened to an answer.
    public enum Delivery: Equatable, Sendable {
        /// It completed a pending request.
        case delivered
        /// The request was already answered or cancelled; the answer was dropped.
        case dropped
        /// No request with that id was ever made.
        case unknown
    }

    private enum Entry {
        case waiting(HostCatalogRequest, CheckedContinuation<Result<HostCatalogAnswer, MovieError>, Never>?)
        case cancelled
    }

    private struct Requests {
        var lastID: UInt64 = 0
        var entries: [UInt64: Entry] = [:]
    }

    private let requests = Mutex(Requests())
    private let onRequest: @Sendable (UInt64, HostCatalogRequest) -> Void
    private let onCancel: @Sendable (UInt64) -> Void

    /// Creates the catalog. `onRequest` hands a request to the host; `onCancel` tells it that
    /// the request with that id is no longer needed. Neither may block for long.
    public init(onRequest: @escaping @Sendable (UInt64, HostCatalogRequest) -> Void,
                onCancel: @escaping @Sendable (UInt64) -> Void) {
        self.onRequest = onRequest
        self.onCancel = onCancel
    }

    public func searchMovies(matching query: String, page: Int) async throws(MovieError) -> [Movie] {
        try movies(from: await perform(.search(query: query, page: page)))
    }

    public func movies(in section: DiscoverSection, page: Int) async throws(MovieError) -> [Movie] {
        try movies(from: await perform(.discover(section: section, page: page)))
    }

    public func movieDetail(id: Int) async throws(MovieError) -> MovieDetail {
        guard case let .movie(detail) = try await perform(.movie(id: id)) else {
            throw .invalidResponse("expected {\"movie\": …} for a movie request")
        }
        return detail
    }

    /// The pending request with `id`, if it still waits for an answer (to decode the answer).
    public func pendingRequest(_ id: UInt64) -> HostCatalogRequest? {
        requests.withLock { requests in
            guard case let .waiting(request, _) = requests.entries[id] else { return nil }
            return request
        }
    }

    /// True when a request with `id` was ever made (answered, cancelled or pending).
    public func wasIssued(_ id: UInt64) -> Bool {
        requests.withLock { id >= 1 && id <= $0.lastID }
    }

    /// Completes request `id` with the host's answer or error.
    @discardableResult
    public func respond(to id: UInt64, with result: Result<HostCatalogAnswer, MovieError>) -> Delivery {
        let outcome = requests.withLock { requests -> (Delivery, CheckedContinuation<Result<HostCatalogAnswer, MovieError>, Never>?) in
            guard let entry = requests.entries.removeValue(forKey: id) else {
                return (id >= 1 && id <= requests.lastID ? .dropped : .unknown, nil)
            }
            guard case let .waiting(_, continuation) = entry else { return (.dropped, nil) }
            return (.delivered, continuation)
        }
        outcome.1?.resume(returning: result)
        return outcome.0
    }

    private func movies(from answer: HostCatalogAnswer) throws(MovieError) -> [Movie] {
        guard case let .movies(movies) = answer else { throw .invalidResponse("expected {\"movies\": […]} for a list request") }
        return movies
    }

    private func perform(_ request: HostCatalogRequest) async throws(MovieError) -> HostCatalogAnswer {
        let id = requests.withLock { requests -> UInt64 in
            requests.lastID += 1
            requests.entries[requests.lastID] = .waiting(request, nil)
            return requests.lastID
        }
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<HostCatalogAnswer, MovieError>, Never>) in
                let proceed = requests.withLock { requests -> Bool in
                    guard case .waiting = requests.entries[id] else { return false }
                    requests.entries[id] = .waiting(request, continuation)
                    return true
                }
                if proceed {
                    onRequest(id, request)
                } else {
                    requests.withLock { _ = $0.entries.removeValue(forKey: id) }
                    continuation.resume(returning: .failure(.network("cancelled")))
                }
            }
        } onCancel: {
            let continuation = requests.withLock { requests -> CheckedContinuation<Result<HostCatalogAnswer, MovieError>, Never>?? in
                guard case let .waiting(_, continuation) = requests.entries[id] else { return nil }
                if continuation == nil {
                    requests.entries[id] = .cancelled        // not sent yet: never will be
                } else {
                    requests.entries[id] = nil
                }
                return .some(continuation)
            }
            guard let continuation, let continuation else { return }
            continuation.resume(returning: .failure(.network("cancelled")))
            onCancel(id)
        }
        return try result.get()
    }
}
