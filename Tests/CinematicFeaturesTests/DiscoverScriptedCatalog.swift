import CinematicDomain
import MVIKit
import Synchronization
import Testing
import CinematicTestSupport

/// A scripted in-memory catalog for the Discover and Detail tests (never the real catalog).
///
/// Section pages come from ``answer`` (by default ``DiscoverFixtures/page(_:_:count:)``, full
/// pages). With ``isHolding`` on, every call waits until the test releases it, in any order,
/// and IGNORES cancellation (seed 004): a cancelled caller still gets its answer, late.
final class ScriptedCatalog: MovieCatalogRepository {
    /// One call to ``movies(in:page:)``.
    struct Request: Equatable, Sendable {
        let section: DiscoverSection
        let page: Int
    }

    private struct Held {
        let request: Request
        let answer: Result<[Movie], MovieError>
        let continuation: CheckedContinuation<Result<[Movie], MovieError>, Never>
    }

    private struct Inner {
        var answer: @Sendable (Request, Int) -> Result<[Movie], MovieError>
        var holding = false
        var requests: [Request] = []
        var held: [Held] = []
        var details: [Int: MovieDetail] = [:]
        var detailRequests: [Int] = []
        var heldDetails: [CheckedContinuation<Void, Never>] = []
    }

    private let inner: Mutex<Inner>

    /// `answer(request, n)` scripts the answer to the n-th request (0-based, all sections).
    init(holding: Bool = false, details: [MovieDetail] = [],
         answer: @escaping @Sendable (Request, Int) -> Result<[Movie], MovieError> = { request, _ in
             .success(DiscoverFixtures.page(request.section, request.page))
         }) {
        var inner = Inner(answer: answer)
        inner.holding = holding
        for detail in details { inner.details[detail.movie.id] = detail }
        self.inner = Mutex(inner)
    }

    /// Every section request received, in order.
    var requests: [Request] { inner.withLock { $0.requests } }
    /// Requests whose callers are still waiting, oldest first.
    var heldRequests: [Request] { inner.withLock { $0.held.map(\.request) } }
    /// Every detail id requested, in order.
    var detailRequests: [Int] { inner.withLock { $0.detailRequests } }

    /// Whether new calls wait for a release.
    var isHolding: Bool {
        get { inner.withLock { $0.holding } }
        set { inner.withLock { $0.holding = newValue } }
    }

    func discover(section: DiscoverSection, page: Int) async throws(MovieError) -> Sourced<[Movie]> {
        let request = Request(section: section, page: page)
        let (answer, hold) = inner.withLock { inner in
            inner.requests.append(request)
            return (inner.answer(request, inner.requests.count - 1), inner.holding)
        }
        guard hold else { return Sourced(try answer.get(), source: .local) }
        // Not cancellable on purpose: the answer arrives only through `release`.
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<[Movie], MovieError>, Never>) in
            inner.withLock { $0.held.append(Held(request: request, answer: answer, continuation: continuation)) }
        }
        return Sourced(try result.get(), source: .local)
    }

    /// Answers the oldest held call for `request` with its scripted answer. False when none waits.
    @discardableResult
    func release(_ request: Request) -> Bool {
        let held = inner.withLock { inner -> Held? in
            guard let index = inner.held.firstIndex(where: { $0.request == request }) else { return nil }
            return inner.held.remove(at: index)
        }
        guard let held else { return false }
        held.continuation.resume(returning: held.answer)
        return true
    }

    /// Answers the most recent held call. False when none waits.
    @discardableResult
    func releaseNewest() -> Bool {
        guard let held = inner.withLock({ $0.held.popLast() }) else { return false }
        held.continuation.resume(returning: held.answer)
        return true
    }

    /// Answers every held call, oldest first.
    func releaseAll() {
        let held = inner.withLock { inner -> [Held] in
            defer { inner.held = [] }
            return inner.held
        }
        for call in held { call.continuation.resume(returning: call.answer) }
    }

    /// Detail calls waiting for ``releaseAllDetails()`` (when ``isHolding``).
    var heldDetailCount: Int { inner.withLock { $0.heldDetails.count } }

    /// Answers every held detail call.
    func releaseAllDetails() {
        for call in inner.withLock({ inner in defer { inner.heldDetails = [] }; return inner.heldDetails }) { call.resume() }
    }

    func detail(id: Int) async throws(MovieError) -> Sourced<MovieDetail> {
        let (detail, hold) = inner.withLock { inner -> (MovieDetail?, Bool) in
            inner.detailRequests.append(id)
            return (inner.details[id], inner.holding)
        }
        // Held like section calls: not cancellable, answered only through the release.
        if hold { await withCheckedContinuation { continuation in inner.withLock { $0.heldDetails.append(continuation) } } }
        guard let detail else { throw .notFound }
        return Sourced(detail, source: .local)
    }

    func search(matching query: String, page: Int) async throws(MovieError) -> Sourced<[Movie]> { Sourced([], source: .local) }
}

/// Recognisable movies and pages for the Discover, Favorites and Detail tests.
enum DiscoverFixtures {
    static func movie(_ id: Int) -> Movie {
        Movie(id: id, title: "Movie \(id)", year: 1_950 + id % 70, runtime: 80 + id % 60, rating: Double(id % 10) + 0.5,
              votes: id * 10, genres: id.isMultiple(of: 2) ? ["Drama"] : ["Comedy"], mpaa: id.isMultiple(of: 3) ? nil : "PG")
    }

    /// Page `page` of `section`: `count` movies (a full page by default) with ids unique per
    /// section and page, plus `offset` to tell apart two answers for the same page.
    static func page(_ section: DiscoverSection, _ page: Int, count: Int = MovieCatalog.pageSize, offset: Int = 0) -> [Movie] {
        let base = 100_000 * (sectionIndex(section) + 1) + 1_000 * page + offset
        return (0..<count).map { movie(base + $0) }
    }

    static func sectionIndex(_ section: DiscoverSection) -> Int { DiscoverSection.all.firstIndex(of: section) ?? 99 }

    static func detail(_ id: Int) -> MovieDetail {
        MovieDetail(movie: movie(id), budget: id * 1_000, ratingDistribution: Array(repeating: 10, count: 10))
    }
}

/// `store.settle()`, bounded: records a test failure instead of hanging when the store does
/// not settle within `timeout` (a broken guard must fail its test, not stall the suite).
func settleWithin<R: Reducer>(_ store: Store<R>, timeout: Duration = .seconds(5),
                              sourceLocation: SourceLocation = #_sourceLocation) async {
    let settled = SettledFlag()
    let waiter = store.whenSettled { settled.set() }
    await waitUntil("the store settles", timeout: timeout, sourceLocation: sourceLocation) { settled.isSet }
    waiter.cancel()
}

private final class SettledFlag: Sendable {
    private let flag = Mutex(false)
    var isSet: Bool { flag.withLock { $0 } }
    func set() { flag.withLock { $0 = true } }
}
