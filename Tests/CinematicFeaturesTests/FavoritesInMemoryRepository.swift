import CinematicDomain
import Synchronization
import CinematicTestSupport

/// An in-memory favorites repository for the feature tests, honouring the protocol's contract
/// (no duplicates, most recent first, versions from 1 and +1 per change, observe yields the
/// current snapshot at once and one after each change), with knobs: ``failure`` makes every
/// write throw; ``isHoldingWrites`` parks each write before it commits, and
/// ``isHoldingResults`` parks it after it commits (and notifies) but before it returns, until
/// the test releases it (newest or oldest first), so tests control the order writes land and
/// report in; ``isHoldingNotifications`` keeps observers from hearing of changes until
/// ``deliverNotifications()``. It counts writes in flight to prove a store never runs two at
/// once.
final class InMemoryFavorites: FavoritesRepository {
    enum Write: Equatable, Sendable {
        case add(Int)
        case remove(Int)
    }

    private struct Inner {
        var list: [Movie] = []
        var version: UInt64 = 1
        var observers: [Int: AsyncStream<FavoritesSnapshot>.Continuation] = [:]
        var nextObserver = 0
        var observeCalls = 0
        var failure: MovieError?
        var holding = false
        var holdingResults = false
        var holdingNotifications = false
        var held: [CheckedContinuation<Void, Never>] = []
        var inFlight = 0
        var maxInFlight = 0
        var writes: [Write] = []
    }

    private let inner: Mutex<Inner>

    init(_ list: [Movie] = [], failure: MovieError? = nil, holdingWrites: Bool = false) {
        var inner = Inner()
        inner.list = list
        inner.failure = failure
        inner.holding = holdingWrites
        self.inner = Mutex(inner)
    }

    /// What is stored now.
    var stored: [Movie] { inner.withLock { $0.list } }
    /// The version of what is stored now.
    var version: UInt64 { inner.withLock { $0.version } }
    /// Live observations.
    var observerCount: Int { inner.withLock { $0.observers.count } }
    /// How many times ``observe()`` was called.
    var observeCalls: Int { inner.withLock { $0.observeCalls } }
    /// Writes parked by ``isHoldingWrites``.
    var heldWriteCount: Int { inner.withLock { $0.held.count } }
    /// The most writes ever in flight at once.
    var maxWritesInFlight: Int { inner.withLock { $0.maxInFlight } }
    /// Every write requested, in the order requested.
    var writes: [Write] { inner.withLock { $0.writes } }

    /// When set, every write throws it (after being held, if holding).
    var failure: MovieError? {
        get { inner.withLock { $0.failure } }
        set { inner.withLock { $0.failure = newValue } }
    }

    /// When true, each new write parks before it commits, until released.
    var isHoldingWrites: Bool {
        get { inner.withLock { $0.holding } }
        set { inner.withLock { $0.holding = newValue } }
    }

    /// When true, each new write commits (and notifies) at once, then parks before returning
    /// its version, until released.
    var isHoldingResults: Bool {
        get { inner.withLock { $0.holdingResults } }
        set { inner.withLock { $0.holdingResults = newValue } }
    }

    /// When true, changes reach no observer until ``deliverNotifications()``.
    var isHoldingNotifications: Bool {
        get { inner.withLock { $0.holdingNotifications } }
        set { inner.withLock { $0.holdingNotifications = newValue } }
    }

    /// Stops holding notifications and yields the current snapshot to every observer (a
    /// coalescing observer would have kept only that one).
    func deliverNotifications() {
        inner.withLock { inner in
            inner.holdingNotifications = false
            Self.notify(inner)
        }
    }

    /// Replaces the stored list as another store of the runtime would, as one change: bumps
    /// the version and notifies observers.
    func replace(with list: [Movie]) { inner.withLock { inner in inner.list = list; Self.committed(&inner) } }

    @discardableResult
    func add(_ movie: Movie) async throws(MovieError) -> UInt64 {
        try await write(.add(movie.id)) { list in
            if !list.contains(where: { $0.id == movie.id }) { list.insert(movie, at: 0) }
        }
    }

    @discardableResult
    func remove(id: Int) async throws(MovieError) -> UInt64 {
        try await write(.remove(id)) { list in list.removeAll { $0.id == id } }
    }

    func toggle(_ movie: Movie) async throws(MovieError) -> FavoriteToggle {
        let stored = inner.withLock { inner in inner.list.contains { $0.id == movie.id } }
        // The flip's outcome as committed (not as read after a held result is released).
        let version = stored ? try await remove(id: movie.id) : try await add(movie)
        return FavoriteToggle(isFavorite: !stored, version: version)
    }

    func list() async throws(MovieError) -> [Movie] { stored }

    func observe() -> AsyncStream<FavoritesSnapshot> {
        let (stream, continuation) = AsyncStream.makeStream(of: FavoritesSnapshot.self, bufferingPolicy: .bufferingNewest(1))
        let key = inner.withLock { inner -> Int in
            inner.nextObserver += 1
            inner.observeCalls += 1
            inner.observers[inner.nextObserver] = continuation
            continuation.yield(FavoritesSnapshot(version: inner.version, movies: inner.list))
            return inner.nextObserver
        }
        continuation.onTermination = { [weak self] _ in _ = self?.inner.withLock { $0.observers.removeValue(forKey: key) } }
        return stream
    }

    /// Releases the newest parked write. False when none is parked.
    @discardableResult
    func releaseNewestWrite() -> Bool { release { $0.popLast() } }

    /// Releases the oldest parked write. False when none is parked.
    @discardableResult
    func releaseOldestWrite() -> Bool { release { $0.isEmpty ? nil : $0.removeFirst() } }

    private func release(_ pick: (inout [CheckedContinuation<Void, Never>]) -> CheckedContinuation<Void, Never>?) -> Bool {
        guard let continuation = inner.withLock({ pick(&$0.held) }) else { return false }
        continuation.resume()
        return true
    }

    private func write(_ write: Write, _ change: (inout [Movie]) -> Void) async throws(MovieError) -> UInt64 {
        let hold = inner.withLock { inner -> Bool in
            inner.writes.append(write)
            inner.inFlight += 1
            inner.maxInFlight = max(inner.maxInFlight, inner.inFlight)
            return inner.holding
        }
        if hold { await park() }
        let (outcome, holdResult) = inner.withLock { inner -> (Result<UInt64, MovieError>, Bool) in
            if let failure = inner.failure { return (.failure(failure), inner.holdingResults) }
            let before = inner.list
            change(&inner.list)
            if inner.list != before { Self.committed(&inner) }
            return (.success(inner.version), inner.holdingResults)
        }
        if holdResult { await park() }
        inner.withLock { $0.inFlight -= 1 }
        return try outcome.get()
    }

    private func park() async {
        await withCheckedContinuation { continuation in inner.withLock { $0.held.append(continuation) } }
    }

    /// One change committed: the next version, heard by every observer.
    private static func committed(_ inner: inout Inner) {
        inner.version += 1
        notify(inner)
    }

    private static func notify(_ inner: Inner) {
        guard !inner.holdingNotifications else { return }
        let snapshot = FavoritesSnapshot(version: inner.version, movies: inner.list)
        for continuation in inner.observers.values { continuation.yield(snapshot) }
    }
}
