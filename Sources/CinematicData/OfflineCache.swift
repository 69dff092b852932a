import CinematicDomain
import CinematicThreads
import Synchronization

/// A bounded store of a remote catalog's answers on disk, so an app can show what it saw
/// before when the network fails. Keys and bodies are text (the layer above encodes answers
/// as JSON); each answer remembers when it was stored.
///
/// - Bounded: after each store the least recently used answers (by lookups and stores) are
///   evicted until keys and bodies fit in `maxBytes` (the file itself is somewhat larger).
/// - Time to live: an answer older than `ttlSeconds` is never served, and is deleted when
///   looked up. "Now" is passed in by the caller, so a test's manual clock drives it.
/// - Disposable, but never silently broken: a store that fails caches nothing and a lookup
///   that fails finds nothing, and each failure is recorded in ``status`` (and passed to the
///   `onProblem` handler given at open), so the layer above can report it.
/// - Files: ours or untouched, and busy is not damaged (see ``open(path:maxBytes:ttlSeconds:onProblem:)``).
///
/// Threads: the connection lives on the cache's own ``WorkerThread``. ``store(_:body:now:)``
/// queues a job and returns at once; ``lookup(_:now:)`` is a job the caller awaits. Jobs run
/// in order, so a lookup sees every store queued before it.
///
/// ```swift
/// let cache = try OfflineCache.open(path: "/tmp/cache.sqlite", maxBytes: 1 << 20, ttlSeconds: 86_400)
/// cache.store("search:dune:1", body: json, now: now)
/// let hit = await cache.lookup("search:dune:1", now: now)   // (body, storedAt)?
/// cache.close()
/// ```
public final class OfflineCache: Sendable {
    /// The default bound on the answers' size: 64 MiB.
    public static let defaultMaxBytes = 64 << 20
    /// The default time to live: 7 days.
    public static let defaultTTLSeconds = 7 * 24 * 3_600

    /// The bound on the answers' size, in bytes.
    public let maxBytes: Int
    /// How long an answer may be served, in seconds.
    public let ttlSeconds: Int
    private let database: LockedCacheDatabase
    private let health: OfflineCacheHealth
    private let worker = WorkerThread(name: "cinematic-offline-cache")
    private let pendingStores = Atomic<Int>(0)

    /// Opens (creating it when missing) the cache at `path` (":memory:" allowed). Runs on the
    /// calling thread (opening is the one blocking step: at most about 2 s of waiting for
    /// another process's lock).
    ///
    /// - A missing or empty file is initialized in place (several processes may create one
    ///   cache at once; each gets it). An empty file is never unlinked.
    /// - A file locked by another connection past the wait is left alone: the cache opens
    ///   without its file (``status``'s `isUsable` is false, `lastError` says why) and
    ///   nothing is stored or found until it is opened again. Nothing is ever deleted.
    /// - Our own file (application id "CNOC") that SQLite reports damaged is replaced by an
    ///   empty cache in one transaction, at open (which reads every stored answer, so one
    ///   damaged page anywhere in them is found there) or when a later lookup or store meets
    ///   the damage (``status``'s `replacements` counts it, `lastError` says why).
    /// - Anything else throws `.storage` and leaves the file unchanged, byte for byte: a file
    ///   that is not SQLite, another program's SQLite file, ours from a newer schema, a path
    ///   that cannot be opened or read.
    ///
    /// `onProblem` is called with the new status after each later failure or replacement,
    /// on the cache's worker thread (keep it short; never call back into the cache).
    public static func open(path: String, maxBytes: Int = defaultMaxBytes, ttlSeconds: Int = defaultTTLSeconds,
                            onProblem: (@Sendable (OfflineCacheStatus) -> Void)? = nil) throws(MovieError) -> OfflineCache {
        do {
            let database = try OfflineCacheDatabase(path: path)
            var status = OfflineCacheStatus.working
            if let damage = database.replacedBecause {
                status = status.failed(OfflineCacheDatabase.replaced(path, because: damage), usable: true)
            }
            status.replacements = database.replacements
            return OfflineCache(database: database, status: status, onProblem: onProblem, maxBytes: maxBytes, ttlSeconds: ttlSeconds)
        } catch {
            switch error {
            case let .busy(reason):
                let status = OfflineCacheStatus.working.failed(reason, usable: false)
                return OfflineCache(database: nil, status: status, onProblem: onProblem, maxBytes: maxBytes, ttlSeconds: ttlSeconds)
            case let .failed(reason):
                throw reason
            }
        }
    }

    /// What works and what last went wrong, from any thread: read it after ``open(path:maxBytes:ttlSeconds:onProblem:)``
    /// to learn whether the cache runs without its file, and later to learn of failed stores
    /// and lookups and of a damaged file that was replaced.
    public var status: OfflineCacheStatus { health.status }

    /// The default location: `$XDG_CACHE_HOME/cinematic/offline-cache.sqlite` (else under
    /// `$HOME/.cache`), its directory created when missing.
    public static var defaultPath: String {
        let base = FileSystem.environment("XDG_CACHE_HOME")
            ?? FileSystem.environment("HOME").map { $0 + "/.cache" }
            ?? "/tmp/cinematic-cache-\(FileSystem.userID)"
        return base + "/cinematic/offline-cache.sqlite"
    }

    /// Opens the cache at ``defaultPath``, creating its directory; as ``open(path:maxBytes:ttlSeconds:onProblem:)``.
    public static func openDefault(maxBytes: Int = defaultMaxBytes, ttlSeconds: Int = defaultTTLSeconds,
                                   onProblem: (@Sendable (OfflineCacheStatus) -> Void)? = nil) throws(MovieError) -> OfflineCache {
        let path = defaultPath
        FileSystem.makeDirectories(FileSystem.directory(of: path))
        return try open(path: path, maxBytes: maxBytes, ttlSeconds: ttlSeconds, onProblem: onProblem)
    }

    private init(database: sending OfflineCacheDatabase?, status: OfflineCacheStatus,
                 onProblem: (@Sendable (OfflineCacheStatus) -> Void)?, maxBytes: Int, ttlSeconds: Int) {
        self.database = LockedCacheDatabase(database)
        health = OfflineCacheHealth(status, onProblem: onProblem)
        self.maxBytes = maxBytes
        self.ttlSeconds = ttlSeconds
    }

    deinit { close() }

    /// Runs queued stores, then closes the file (closed when this returns, unless called on
    /// the worker). Later stores are dropped and lookups find nothing. Idempotent.
    public func close() {
        worker.shutDown { [database, health] in
            database.withLock { database in
                if let database, let error = database.close() { health.note(replacements: database.replacements, error: error) }
                database = nil
            }
        }
    }

    /// The most stores that wait for the cache's thread; more are dropped (the cache is
    /// disposable), so a host answering faster than the disk writes cannot grow memory.
    public static let maximumPendingStores = 256

    /// Queues storing `body` under `key`, stored at `now` (Unix seconds); returns at once.
    /// Dropped when ``maximumPendingStores`` wait already.
    public func store(_ key: String, body: String, now: Int64) {
        guard pendingStores.add(1, ordering: .relaxed).newValue <= Self.maximumPendingStores else {
            pendingStores.subtract(1, ordering: .relaxed)
            return
        }
        let submitted = worker.submit { [self] in
            database.withLock { database in
                guard let database else { return }
                _ = health.run(database) { database throws(MovieError) in try database.store(key, body: body, now: now, maxBytes: maxBytes) }
            }
            pendingStores.subtract(1, ordering: .relaxed)
        }
        if !submitted { pendingStores.subtract(1, ordering: .relaxed) }
    }

    /// The answer under `key` and when it was stored, unless missing or expired at `now`.
    public func lookup(_ key: String, now: Int64) async -> (body: String, storedAt: Int64)? {
        let ttl = Int64(ttlSeconds)
        let hit = try? await worker.perform({ [database, health] () throws(MovieError) -> Hit? in
            database.withLock { database in
                guard let database else { return nil }
                return health.run(database) { database throws(MovieError) in
                    try database.lookup(key, now: now, ttl: ttl).map { Hit(body: $0.body, storedAt: $0.storedAt) }
                } ?? nil
            }
        }, stopped: { .storage("the offline cache is closed") })
        return (hit ?? nil).map { ($0.body, $0.storedAt) }
    }

    /// The answers' total size in bytes and their count, after every queued store.
    public func usage() async -> (bytes: Int, count: Int) {
        let usage = try? await worker.perform({ [database, health] () throws(MovieError) -> [Int] in
            database.withLock { database in
                guard let database, let usage = health.run(database, { database throws(MovieError) in try database.usage() }) else { return [0, 0] }
                return [usage.bytes, usage.count]
            }
        }, stopped: { .storage("the offline cache is closed") })
        return (usage?[0] ?? 0, usage?[1] ?? 0)
    }

    /// The synchronous lookup behind ``lookup(_:now:)``, on the calling thread (benchmarks
    /// time it; not for a host's thread).
    package func lookupNow(_ key: String, now: Int64) -> (body: String, storedAt: Int64)? {
        database.withLock { database in
            guard let database else { return nil }
            return health.run(database) { database throws(MovieError) in try database.lookup(key, now: now, ttl: Int64(ttlSeconds)) } ?? nil
        }
    }

    private struct Hit: Sendable {
        let body: String
        let storedAt: Int64
    }
}

/// The cache's database behind a lock, shareable with the worker's jobs (used there only,
/// and by the benchmarks' synchronous lookup).
final class LockedCacheDatabase: Sendable {
    private let database: Mutex<OfflineCacheDatabase?>

    init(_ database: sending OfflineCacheDatabase?) { self.database = Mutex(database) }

    func withLock<T, E: Error>(_ body: (inout OfflineCacheDatabase?) throws(E) -> T) throws(E) -> T {
        try database.withLock { database throws(E) in try body(&database) }
    }
}
