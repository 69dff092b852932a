import CinematicData
import CinematicThreads
import Synchronization

/// One `cinematic_runtime`: its lifecycle and its store table. What it runs on (clock,
/// catalogs, favorites, callback queue, debugging sinks) is built by the composition step,
/// ``RuntimeServices/make(config:substitutes:)``; stores are built from its
/// ``StoreEnvironment`` and deliver through its ``StoreDelivery``.
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
    /// The runtime's own thread for effects after their first suspension.
    let effects: ThreadExecutor
    /// The runtime's callback queue.
    let queue: DeliveryQueue
    /// The runtime's one clock (manual or continuous); every other time derives from it.
    let clock: RuntimeClock
    /// The host catalog, when the config says `"host"`.
    var hostCatalog: HostMovieCatalog? { catalogs.host }
    /// Where the catalog's loading is (a host catalog is always ready).
    var catalogLoadState: CatalogLoadState { catalogs.loadState }
    /// The debugging sinks: recorder, logger, a replay's collector.
    let debug: DebugHub
    /// What every store is built from (catalog, favorites, clock, settings).
    let environment: StoreEnvironment
    /// What every store delivers through.
    let delivery: StoreDelivery
    private let catalogs: RuntimeCatalogs
    private let favoritesFile: SQLiteFavorites
    private let provider: ProviderSlot
    private let stores = Mutex<[UInt64: any FeatureStore]?>([:])
    /// Serializes turning tracing on and off (then the store's lock: the one nesting here).
    private let tracing = Mutex(())

    /// Opens a runtime: ``RuntimeServices/make(config:substitutes:)`` builds what it runs on
    /// (a replay passes `substitutes` for the catalog, the favorites and a debug sink).
    init(serial: UInt64, config: RuntimeConfig, substitutes: RuntimeServices.Substitutes? = nil) throws(APIError) {
        let services = try RuntimeServices.make(config: config, substitutes: substitutes)
        self.serial = serial
        self.config = config
        effects = services.effects
        queue = services.queue
        clock = services.clock
        debug = services.debug
        environment = services.environment
        delivery = services.delivery
        catalogs = services.catalogs
        favoritesFile = services.favoritesFile
        provider = services.provider
        if let destination = LogSink.destinationFromEnvironment() { setLogger(destination) }
        debug.flushNotes()
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
    /// The open stores, in the order they were opened.
    var openStores: [any FeatureStore] { stores.withLock { ($0 ?? [:]).sorted { $0.key < $1.key }.map(\.value) } }

    /// Registers (or with nil removes) the catalog provider. When this returns the previous
    /// provider is not running on another thread and will never be called again, so its
    /// userdata may be released. Requests still waiting go to the new provider.
    func setProvider(_ callback: ProviderCallback?) throws(APIError) {
        guard catalogs.host != nil else { throw .misuse("the runtime's catalog is not \"host\"") }
        provider.set(callback)
        queue.waitUntilNotRunning(store: DeliveryQueue.runtimeEvents)
    }

    /// Opens a store of `feature` and registers its handle. Arguments `{"snapshot": {...}}`
    /// restore a store from its snapshot (Snapshots/StoreSnapshots.swift).
    func openStore(feature: String, arguments: JSONDocument?) throws(APIError) -> OpaquePointer {
        let codec = try FeatureCatalog.named(feature)
        if codec == AppCodec.self, let arguments, try Snapshots.snapshotArgument(arguments) == nil {
            let options = try AppOptions(arguments)
            if let path = options.stateFile { return try AppStateFile.open(options, path: path, in: self) }
        }
        if let arguments, let snapshot = try Snapshots.snapshotArgument(arguments) {
            return try restoreStore(Snapshots.readStore(snapshot, expecting: feature), recordedArguments: JSONFragment(copying: arguments.root))
        }
        let recorded = arguments.map { JSONFragment(copying: $0.root) }
        return try registerStore(feature: feature, recordedArguments: recorded ?? .null,
                                 origin: (ArgumentsSnapshot(arguments: recorded), .none)) { serial throws(APIError) in
            try codec.makeStore(arguments: arguments, serial: serial, environment: environment, delivery: delivery)
        }
    }

    /// Opens a child handle of `parent` showing its part `name` (``ChildStore``).
    func openScope(of parent: any FeatureStore, name: String) throws(APIError) -> OpaquePointer {
        let serial = HandleTable.shared.reserve()
        let child = try parent.scope(name, serial: serial)
        return HandleTable.shared.install(StoreEntry(store: child, runtime: self), serial: serial, as: .store)
    }

    /// Builds a store with `make` and registers its handle; `recordedArguments` is what a
    /// recording's `open` line says it was opened with.
    func registerStore(feature: String, recordedArguments: JSONFragment, origin: (ArgumentsSnapshot, SnapshotView),
                       make: (UInt64) throws(APIError) -> any FeatureStore) throws(APIError) -> OpaquePointer {
        try ensureRoom(for: 1)
        let serial = HandleTable.shared.reserve()
        let store = try make(serial)
        store.origin.set(arguments: origin.0, view: origin.1)
        // Registering the store and its handle in one step: a runtime closing concurrently
        // either closes this store with the others or refuses it, never misses it; stores
        // opened concurrently never take it past the limit.
        let registered = stores.withLock { stores -> Result<OpaquePointer, APIError> in
            guard let open = stores?.count else { return .failure(.closed("the runtime")) }
            guard open < Snapshots.maximumStores else { return .failure(Self.tooManyStores(adding: 1, to: open)) }
            stores?[serial] = store
            return .success(HandleTable.shared.install(StoreEntry(store: store, runtime: self), serial: serial, as: .store))
        }
        let handle: OpaquePointer
        switch registered {
        case let .success(installed): handle = installed
        case let .failure(error):
            store.close()
            throw error
        }
        if let recorder = debug.recorder {
            recorder.write("open") { [("store", .int(Int(clamping: serial))), ("feature", .string(feature)), ("args", recordedArguments)] }
        }
        tracing.withLock { _ in store.updateTracing(debug) }
        return handle
    }

    /// Throws `misuse` unless `count` more stores fit in the runtime: it keeps at most
    /// ``Snapshots/maximumStores`` open, as many as a runtime snapshot carries.
    func ensureRoom(for count: Int) throws(APIError) {
        let open = stores.withLock { $0?.count ?? 0 }
        guard open + count <= Snapshots.maximumStores else { throw Self.tooManyStores(adding: count, to: open) }
    }

    private static func tooManyStores(adding count: Int, to open: Int) -> APIError {
        .misuse("the runtime has \(open) open stores; \(count) more would pass \(Snapshots.maximumStores), the most a runtime "
                + "keeps (as many as a runtime snapshot carries): close some first")
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
        catalogs.close()
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
