import CinematicDomain
import Synchronization
import CinematicTestSupport

/// An in-memory favorites repository for the feature tests, honouring the protocol's contract
/// (no duplicates, most recent first, observe yields at once and after each change), with
/// knobs: ``failure`` makes every write throw; ``isHoldingWrites`` parks each write until the
/// test releases it (newest or oldest first), so tests control the order writes land in. It
/// counts writes in flight to prove a store never runs two at once.
final class InMemoryFavorites: FavoritesRepository {
    enum Write: Equatable, Sendable {
        case add(Int)
        case remove(Int)
    }

    private struct Inner {
        var list: [Movie] = []
        var observers: [Int: AsyncStream<[Movie]>.Continuation] = [:]
        var nextObserver = 0
        var observeCalls = 0
        var failure: MovieError?
        var holding = false
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

    /// When true, each new write parks until released.
    var isHoldingWrites: Bool {
        get { inner.withLock { $0.holding } }
        set { inner.withLock { $0.holding = newValue } }
    }

    /// Replaces the stored list as another store of the runtime would, notifying observers.
    func replace(with list: [Movie]) { inner.withLock { inner in inner.list = list; Self.notify(inner) } }

    func add(_ movie: Movie) async throws(MovieError) {
        try await write(.add(movie.id)) { list in
            if !list.contains(where: { $0.id == movie.id }) { list.insert(movie, at: 0) }
        }
    }

    func remove(id: Int) async throws(MovieError) {
        try await write(.remove(id)) { list in list.removeAll { $0.id == id } }
    }

    func list() async throws(MovieError) -> [Movie] { stored }

    func observe() -> AsyncStream<[Movie]> {
        let (stream, continuation) = AsyncStream.makeStream(of: [Movie].self, bufferingPolicy: .bufferingNewest(1))
        let key = inner.withLock { inner -> Int in
            inner.nextObserver += 1
            inner.observeCalls += 1
            inner.observers[inner.nextObserver] = continuation
            continuation.yield(inner.list)
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

    private func write(_ write: Write, _ change: (inout [Movie]) -> Void) async throws(MovieError) {
        let hold = inner.withLock { inner -> Bool in
            inner.writes.append(write)
            inner.inFlight += 1
            inner.maxInFlight = max(inner.maxInFlight, inner.inFlight)
            return inner.holding
        }
        if hold {
            await withCheckedContinuation { continuation in inner.withLock { $0.held.append(continuation) } }
        }
        let failure = inner.withLock { inner -> MovieError? in
            inner.inFlight -= 1
            if let failure = inner.failure { return failure }
            let before = inner.list
            change(&inner.list)
            if inner.list != before { Self.notify(inner) }
            return nil
        }
        if let failure { throw failure }
    }

    private static func notify(_ inner: Inner) {
        for continuation in inner.observers.values { continuation.yield(inner.list) }
    }
}
