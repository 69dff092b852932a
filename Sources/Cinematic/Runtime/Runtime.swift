import CinematicData
import CinematicDomain
import MVIKit
import Synchronization

/// The host's catalog provider callback and its userdata.
struct ProviderCallback: @unchecked Sendable {
    typealias Function = @convention(c) (UnsafeMutableRawPointer?, UInt64, UnsafePointer<CChar>?) -> Void
    let function: Function
    let userdata: UnsafeMutableRawPointer?
}

/// The runtime's current provider, shared with the catalog's request closures.
final class ProviderSlot: Sendable {
    private let callback = Mutex<ProviderCallback?>(nil)
    /// The catalog whose requests fail when no provider is registered (cleared at close).
    let catalog = Mutex<HostMovieCatalog?>(nil)

    var current: ProviderCallback? { callback.withLock { $0 } }

    func set(_ value: ProviderCallback?) { callback.withLock { $0 = value } }

    /// Hands request `id` to the provider; with none registered the request fails at once
    /// with a `network` error rather than waiting forever.
    func request(id: UInt64, json: String) {
        guard let callback = current else {
            let catalog = catalog.withLock { $0 }
            catalog?.respond(to: id, with: .failure(.network("no catalog provider is registered")))
            return
        }
        json.withCString { callback.function(callback.userdata, id, $0) }
    }

    /// Tells the provider that request `id` is no longer needed.
    func cancel(id: UInt64) {
        guard let callback = current else { return }
        HostRequestJSON.cancel.withCString { callback.function(callback.userdata, id, $0) }
    }
}

/// Everything one `cinematic_runtime` owns: configuration, clock, catalog, callback queue and
/// its stores.
///
/// Threads (the execution model; include/cinematic.h, THREADS, is the contract):
/// - a host thread only decodes, reduces, delivers what its call produced and starts effects
///   up to their first suspension; it never waits for I/O, a callback or another runtime;
/// - `effects`, this runtime's own thread, runs its effects after their first suspension
///   (never Swift's shared cooperative pool, so no runtime can starve another);
/// - the catalog, the favorites and a host catalog's offline cache each own a thread for
///   their SQLite connection (blocking work awaits it there);
/// - the delivery queue's thread delivers what effects produce.
/// Locks are leaves: none is held while calling out (observers, continuations, task
/// cancellation, callbacks, another component). The one nesting, in this order only: the
/// runtime's store table, then the handle table (opening a store registers both at once).
final class Runtime: Sendable {
    let serial: UInt64
    let config: RuntimeConfig
    let effects: ThreadExecutor
    let queue: DeliveryQueue
    let clock: any Clock<Duration>
    let manualClock: ManualClock?
    /// The catalog the stores use (recorded when the runtime records).
    let catalog: any MovieCatalogRepository
    let hostCatalog: HostMovieCatalog?
    /// The host catalog's offline cache; nil for the embedded catalog or when turned off.
    let offlineCache: OfflineCache?
    /// The embedded catalog (closed with the runtime), under any recorder.
    private let embeddedCatalog: SQLiteMovieCatalog?

    /// Where the catalog's loading is (a host catalog is always ready).
    var catalogLoadState: CatalogLoadState { embeddedCatalog?.loadState ?? .ready }
    /// The favorites file.
    let favoritesFile: SQLiteFavorites
    /// The favorites the stores use (recorded when the runtime records).
    let favorites: any FavoritesRepository
    /// The debugging sinks: recorder, logger, a replay's collector.
    let debug: DebugHub
    private let provider = ProviderSlot()
    private let stores = Mutex<[UInt64: any FeatureStore]?>([:])
    /// Serializes turning tracing on and off (then the store's lock: the one nesting here).
    private let tracing = Mutex(())

    /// Where a replay's stores get their answers instead of a catalog and a favorites file.
    struct Substitutes {
        let catalog: any MovieCatalogRepository
        let favorites: any FavoritesRepository
        let sink: any DebugSink
    }

    init(serial: UInt64, config: RuntimeConfig, substitutes: Substitutes? = nil) throws(APIError) {
        self.serial = serial
        self.config = config
        // Each step below registers how to undo it: a failing step closes what opened before.
        var unwind = Unwind()
        let effects = ThreadExecutor(name: "cinematic-effects")
        self.effects = effects
        unwind.push { effects.shutDown() }
        let queue: DeliveryQueue
        do {
            queue = try DeliveryQueue(mode: config.delivery, effects: effects)
        } catch {
            throw unwind.fail(error)
        }
        self.queue = queue
        unwind.push { queue.close() }
        let favoritesFile: SQLiteFavorites
        do {
            favoritesFile = config.favoritesReadOnly
                ? try SQLiteFavorites.openReadOnly(path: config.favorites)
                : try SQLiteFavorites.open(path: config.favorites)
        } catch {
            throw unwind.fail(APIError(.io, "cannot open the favorites at \(config.favorites): \(error.message)"))
        }
        self.favoritesFile = favoritesFile
        unwind.push { favoritesFile.close() }
        let manualClock = config.manualClock ? ManualClock() : nil
        self.manualClock = manualClock
        self.clock = manualClock ?? ContinuousClock()
        let sessionClock = SessionClock(manual: manualClock)
        let recorder: Recorder?
        do {
            recorder = try config.recordPath.map { path throws(APIError) in
                try Recorder(path: path, clock: sessionClock, refusing: config.databasePaths)
            }
        } catch {
            throw unwind.fail(error)
        }
        unwind.push { _ = recorder?.close() }
        let debug = DebugHub(clock: sessionClock, recorder: recorder, fixed: substitutes?.sink)
        self.debug = debug
        recorder?.onFailure { [weak debug] message in debug?.note("recording stopped: \(message)") }
        let catalog: any MovieCatalogRepository
        switch config.catalog {
        case .embedded, .index:
            do throws(MovieError) {
                let source: SQLiteMovieCatalog.Source = if case let .index(path) = config.catalog {
                    .index(path: path)
                } else {
                    .embedded(libraryVersion: "\(libraryVersion)")
                }
                let embedded = try SQLiteMovieCatalog.open(source)
                embeddedCatalog = embedded
                catalog = embedded
            } catch {
                throw unwind.fail(APIError(.io, "cannot open the movie catalog: \(error.message)"))
            }
            hostCatalog = nil
            offlineCache = nil
        case .host:
            do {
                offlineCache = try Self.openOfflineCache(config.remote.offlineCache) { [weak debug] message in
                    debug?.note("offline cache \(message)")
                }
            } catch {
                throw unwind.fail(error)
            }
            let provider = self.provider
            let hostCatalog = HostMovieCatalog(
                deadline: HostMovieCatalog.Deadline(.milliseconds(config.remote.deadlineMilliseconds), on: clock),
                onRequest: { [recorder] id, request in
                    recorder?.write("providerRequest") { [("requestId", .int(Int(clamping: id))), ("request", JSONFragment(consuming: HostRequestJSON.node(request)))] }
                    queue.enqueue(DeliveryQueue.Event(store: DeliveryQueue.runtimeEvents) {
                        provider.request(id: id, json: HostRequestJSON.encode(request))
                        return true
                    })
                    queue.deliver()
                },
                onCancel: { [recorder] id in
                    recorder?.write("providerCancel") { [("requestId", .int(Int(clamping: id)))] }
                    // Runs inside a task's cancellation handler (or as a request's deadline
                    // expires): only queue the callback; the call that cancelled delivers it
                    // once it holds no lock, and an expired request's failure state, queued
                    // right after, carries it along.
                    queue.enqueue(DeliveryQueue.Event(store: DeliveryQueue.runtimeEvents) {
                        provider.cancel(id: id)
                        return true
                    })
                })
            provider.catalog.withLock { $0 = hostCatalog }
            self.hostCatalog = hostCatalog
            embeddedCatalog = nil
            if let offlineCache {
                let wall = WallClock(manual: manualClock)
                catalog = CachedMovieCatalog(remote: hostCatalog, cache: offlineCache, coder: CachedAnswerJSON(), now: { wall.now() })
            } else {
                catalog = hostCatalog
            }
        }
        // The stores see the catalog and favorites through the recorder when the session is
        // recorded: outermost, so a recording holds what the stores got (cache included).
        let favorites: any FavoritesRepository = substitutes?.favorites ?? favoritesFile
        if let recorder {
            self.catalog = RecordingCatalog(inner: substitutes?.catalog ?? catalog, recorder: recorder)
            self.favorites = RecordingFavorites(inner: favorites, recorder: recorder)
            recorder.write("session") { [("library", .string(String(describing: libraryVersion))), ("config", config.json)] }
        } else {
            self.catalog = substitutes?.catalog ?? catalog
            self.favorites = favorites
        }
        if let destination = LogSink.destinationFromEnvironment() { setLogger(destination) }
        debug.flushNotes()
    }

    /// Opens the offline cache the config asks for. A cache is disposable: one that cannot be
    /// opened at the default location is skipped (the runtime works without it; the reason
    /// is logged), but an explicitly configured path that fails is an `io` error. Later
    /// problems (a failed write, our damaged file replaced) go to the log through `onProblem`.
    private static func openOfflineCache(_ setting: RemoteCatalogConfig.OfflineCache,
                                         onProblem: @escaping @Sendable (String) -> Void) throws(APIError) -> OfflineCache? {
        guard case let .on(path, maxBytes, ttlSeconds) = setting else { return nil }
        let report: @Sendable (OfflineCacheStatus) -> Void = { status in
            if let error = status.lastError { onProblem(error.message) }
        }
        let cache: OfflineCache
        do {
            cache = if let path {
                try OfflineCache.open(path: path, maxBytes: maxBytes, ttlSeconds: ttlSeconds, onProblem: report)
            } else {
                try OfflineCache.openDefault(maxBytes: maxBytes, ttlSeconds: ttlSeconds, onProblem: report)
            }
        } catch {
            guard let path else {
                onProblem("not used: \(error.message)")
                return nil
            }
            throw APIError(.io, "cannot open the offline cache at \(path): \(error.message)")
        }
        if !cache.status.isUsable, let error = cache.status.lastError { onProblem("not used for now: \(error.message)") }
        return cache
    }

    /// Sets (or with nil removes) the logger. When this returns the previous logger is not
    /// running on another thread and will never be called again.
    func setLogger(_ destination: LogSink.Destination?) {
        let sink = destination.map { destination in
            LogSink(destination: destination, queue: queue) { [weak debug] sink in debug?.currentLogger === sink }
        }
        tracing.withLock { _ in
            _ = debug.setLogger(sink)
            for store in openStores { store.updateTracing(debug) }
        }
        queue.waitUntilNotRunning(store: LogSink.queueKey)
    }

    /// Every open store.
    private var openStores: [any FeatureStore] { stores.withLock { Array(($0 ?? [:]).values) } }

    /// Registers (or with nil removes) the catalog provider. When this returns the previous
    /// provider is not running on another thread and will never be called again, so its
    /// userdata may be released. Requests still waiting go to the new provider.
    func setProvider(_ callback: ProviderCallback?) throws(APIError) {
        guard hostCatalog != nil else { throw .misuse("the runtime's catalog is not \"host\"") }
        provider.set(callback)
        queue.waitUntilNotRunning(store: DeliveryQueue.runtimeEvents)
    }

    /// Opens a store of `feature` and registers its handle.
    func openStore(feature: String, arguments: JSONDocument?) throws(APIError) -> OpaquePointer {
        let serial = HandleTable.shared.reserve()
        let store = try FeatureCatalog.named(feature).makeStore(arguments: arguments, serial: serial, runtime: self)
        // Registering the store and its handle in one step: a runtime closing concurrently
        // either closes this store with the others or refuses it, never misses it.
        let handle = stores.withLock { stores -> OpaquePointer? in
            guard stores != nil else { return nil }
            stores?[serial] = store
            return HandleTable.shared.install(StoreEntry(store: store, runtime: self), serial: serial, as: .store)
        }
        guard let handle else {
            store.close()
            throw .closed("the runtime")
        }
        if let recorder = debug.recorder {
            let arguments = arguments.map { JSONFragment(copying: $0.root) } ?? .null
            recorder.write("open") { [("store", .int(Int(clamping: serial))), ("feature", .string(feature)), ("args", arguments)] }
        }
        tracing.withLock { _ in store.updateTracing(debug) }
        return handle
    }

    /// Closes one store: effects stop, and no callback for it runs after this returns.
    /// Provider cancellations its effects queued are delivered on this thread.
    func closeStore(_ store: any FeatureStore) {
        HandleTable.shared.remove(store.serial)
        let removed = stores.withLock { $0?.removeValue(forKey: store.serial) } != nil
        store.close()
        if removed, let recorder = debug.recorder {
            recorder.write("close") { [("store", .int(Int(clamping: store.serial)))] }
        }
        queue.deliver()
    }

    /// Runs `body` (which wakes effects: a clock advance, a provider answer), waits until the
    /// effects it woke have reached their next suspension on the runtime's effect thread,
    /// then delivers what they produced on this thread. The wait is bounded by the effects'
    /// CPU work: effects never block on the effect thread.
    func drive(_ body: () -> Void) {
        queue.hold()
        body()
        if !effects.isCurrent { effects.waitUntilIdle() }
        queue.release()
    }

    /// Closes every store and stops all callbacks; no callback runs after this returns, and
    /// the catalog and favorites files are closed. Returns the error of a recording whose
    /// writes failed (the runtime is closed all the same).
    @discardableResult
    func close() -> APIError? {
        HandleTable.shared.remove(serial)
        queue.close()
        let open = stores.withLock { stores -> [any FeatureStore] in
            defer { stores = nil }
            return Array((stores ?? [:]).values)
        }
        for store in open { closeStore(store) }
        provider.catalog.withLock { $0 = nil }
        let recordingError = debug.recorder?.close()
        favoritesFile.close()
        offlineCache?.close()
        embeddedCatalog?.close()
        effects.shutDown()
        return recordingError.map { APIError(.io, "the runtime closed, but its recording is incomplete: \($0)") }
    }
}

/// What a store handle names: the store and the runtime that owns it.
final class StoreEntry: Sendable {
    let store: any FeatureStore
    let runtime: Runtime

    init(store: any FeatureStore, runtime: Runtime) {
        self.store = store
        self.runtime = runtime
    }
}
