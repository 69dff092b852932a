import CinematicDomain
import CinematicThreads
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
///
/// With a ``Deadline``, a request the host has not answered when it passes (on the given
/// clock: a ``ManualClock`` in tests) fails with `.timeout`, and the host is told to cancel
/// it exactly as for a replaced request. Answers are `.live` (see ``AnswerSource``).
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

    /// How long a request may wait for its answer, measured on `clock`.
    public struct Deadline: Sendable {
        /// The clock the wait is measured on (the runtime's).
        public let clock: any Clock<Duration>
        /// The longest wait.
        public let duration: Duration

        /// Creates a deadline of `duration` on `clock`.
        public init(_ duration: Duration, on clock: any Clock<Duration>) {
            self.clock = clock
            self.duration = duration
        }

        /// A sleep until `duration` from now (the instant is fixed when this is called).
        func timer() -> @Sendable () async throws -> Void { Self.timer(on: clock, for: duration) }

        private static func timer<C: Clock<Duration>>(on clock: C, for duration: Duration) -> @Sendable () async throws -> Void {
            let now = clock.now
            let instant = now.advanced(by: duration)
            // A clock at its limit (a manual clock advanced by years) cannot move `duration`
            // further: the deadline is never reached, rather than reached at once.
            guard now.duration(to: instant) >= duration else {
                return { try await TimerThread.shared.sleepUntilCancelled() }
            }
            return { try await clock.sleep(until: instant, tolerance: nil) }
        }
    }

    private let requests = Mutex(Requests())
    private let deadline: Deadline?
    private let onRequest: @Sendable (UInt64, HostCatalogRequest) -> Void
    private let onCancel: @Sendable (UInt64) -> Void

    /// Creates the catalog. `onRequest` hands a request to the host; `onCancel` tells it that
    /// the request with that id is no longer needed. Neither may block for long. Without a
    /// `deadline` a request waits for its answer forever.
    public init(deadline: Deadline? = nil, onRequest: @escaping @Sendable (UInt64, HostCatalogRequest) -> Void,
                onCancel: @escaping @Sendable (UInt64) -> Void) {
        self.deadline = deadline
        self.onRequest = onRequest
        self.onCancel = onCancel
    }

    /// A search, asked of the host (`.live`).
    public func search(matching query: String, page: Int) async throws(MovieError) -> Sourced<[Movie]> {
        Sourced(try movies(from: await perform(.search(query: query, page: page))), source: .live)
    }

    /// A Discover page, asked of the host (`.live`).
    public func discover(section: DiscoverSection, page: Int) async throws(MovieError) -> Sourced<[Movie]> {
        Sourced(try movies(from: await perform(.discover(section: section, page: page))), source: .live)
    }

    /// A movie's detail, asked of the host (`.live`).
    public func detail(id: Int) async throws(MovieError) -> Sourced<MovieDetail> {
        guard case let .movie(detail) = try await perform(.movie(id: id)) else {
            throw .invalidResponse("expected {\"movie\": …} for a movie request")
        }
        return Sourced(detail, source: .live)
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

    /// Asks the host. With a deadline a timer starts with the request (its instant is fixed
    /// now, on this thread); when it fires first the request fails with `.timeout` and the
    /// host is told to cancel it, exactly like a replaced request (a late answer is dropped).
    /// The request itself is handed over on the caller's thread, as without a deadline.
    private func perform(_ request: HostCatalogRequest) async throws(MovieError) -> HostCatalogAnswer {
        let id = requests.withLock { requests -> UInt64 in
            requests.lastID += 1
            requests.entries[requests.lastID] = .waiting(request, nil)
            return requests.lastID
        }
        guard let deadline else { return try await ask(id, request).get() }
        let timer = deadline.timer()
        let result = await withTaskGroup(of: Void.self) { group in
            group.addTask { [self] in
                do { try await timer() } catch { return }
                expire(id, after: deadline.duration)
            }
            let result = await ask(id, request)
            group.cancelAll()
            return result
        }
        return try result.get()
    }

    /// Fails request `id` with `.timeout` if it still waits, and tells the host to cancel it.
    private func expire(_ id: UInt64, after duration: Duration) {
        let continuation = requests.withLock { requests -> CheckedContinuation<Result<HostCatalogAnswer, MovieError>, Never>? in
            guard case let .waiting(_, continuation?) = requests.entries[id] else { return nil }
            requests.entries[id] = nil
            return continuation
        }
        guard let continuation else { return }
        let (seconds, attoseconds) = duration.components
        let milliseconds = seconds * 1_000 + attoseconds / 1_000_000_000_000_000
        continuation.resume(returning: .failure(.timeout("the catalog did not answer within \(milliseconds) ms")))
        onCancel(id)
    }

    private func ask(_ id: UInt64, _ request: HostCatalogRequest) async -> Result<HostCatalogAnswer, MovieError> {
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
        return result
    }
}
