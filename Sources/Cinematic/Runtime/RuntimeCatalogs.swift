import CinematicData
import CinematicDomain

/// The catalog a runtime's config chose, and what it is made of: the embedded SQLite catalog
/// (`"catalog": "embedded"` or an index file), or a host-provided catalog with, when turned
/// on, its offline cache in front. Part of the composition step (``RuntimeServices``).
struct RuntimeCatalogs: Sendable {
    /// What the stores ask (before any recorder): the embedded catalog, the host catalog, or
    /// the host catalog behind its offline cache.
    let catalog: any MovieCatalogRepository
    /// The host catalog, when the config says `"host"`.
    let host: HostMovieCatalog?
    /// The host catalog's offline cache; nil for the embedded catalog or when turned off.
    let offlineCache: OfflineCache?
    /// The embedded catalog, when the config says so.
    let embedded: SQLiteMovieCatalog?

    /// Where the catalog's loading is (a host catalog is always ready).
    var loadState: CatalogLoadState { embedded?.loadState ?? .ready }

    /// Closes the files: the offline cache, then the embedded catalog.
    func close() {
        offlineCache?.close()
        embedded?.close()
    }

    /// Opens the catalog `config` asks for. A host catalog's requests and cancellations go to
    /// the provider through `queue` (recorded when `debug` has a recorder); its deadline is
    /// measured on `clock`, and its offline cache dates answers with the clock's wall time.
    static func open(config: RuntimeConfig, clock: RuntimeClock, queue: DeliveryQueue, provider: ProviderSlot,
                     debug: DebugHub) throws(APIError) -> RuntimeCatalogs {
        switch config.catalog {
        case .embedded, .index:
            let source: SQLiteMovieCatalog.Source = if case let .index(path) = config.catalog {
                .index(path: path)
            } else {
                .embedded(libraryVersion: "\(libraryVersion)")
            }
            let embedded: SQLiteMovieCatalog
            do {
                embedded = try SQLiteMovieCatalog.open(source)
            } catch {
                throw APIError(.io, "cannot open the movie catalog: \(error.message)")
            }
            return RuntimeCatalogs(catalog: embedded, host: nil, offlineCache: nil, embedded: embedded)
        case let .host(source):
            let offlineCache = try openOfflineCache(config.remote.offlineCache, source: source) { [weak debug] message in
                debug?.note("offline cache \(message)")
            }
            let host = hostCatalog(deadline: .milliseconds(config.remote.deadlineMilliseconds), clock: clock, queue: queue,
                                   provider: provider, recorder: debug.recorder)
            provider.catalog.withLock { $0 = host }
            guard let offlineCache else {
                return RuntimeCatalogs(catalog: host, host: host, offlineCache: nil, embedded: nil)
            }
            // Rows are scoped to the declared source: one source's answers are never shown for
            // another's (or for a runtime that declared none).
            let scope: CachedMovieCatalog.Scope = source.map { .source($0) } ?? .anonymous
            let cached = CachedMovieCatalog(remote: host, cache: offlineCache, coder: CachedAnswerJSON(), scope: scope,
                                            now: { clock.wallSeconds() })
            return RuntimeCatalogs(catalog: cached, host: host, offlineCache: offlineCache, embedded: nil)
        }
    }

    /// A catalog whose requests go to the host's provider (through the delivery queue, as
    /// runtime events), recorded when the runtime records.
    private static func hostCatalog(deadline: Duration, clock: RuntimeClock, queue: DeliveryQueue, provider: ProviderSlot,
                                    recorder: Recorder?) -> HostMovieCatalog {
        HostMovieCatalog(
            deadline: HostMovieCatalog.Deadline(deadline, on: clock),
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
    }

    /// Opens the offline cache the config asks for. A cache is disposable: one that cannot be
    /// opened at the default location is skipped (the runtime works without it; the reason
    /// is logged), but an explicitly configured path that fails is an `io` error. Our damaged
    /// file replaced at open, and later problems (a failed write, damage found by a lookup or
    /// store), go to the log through `onProblem`.
    /// The shared default file is used only by a host catalog that declared its `source`: a
    /// runtime without one gets no default cache (an explicit path still works, its rows
    /// scoped "anonymous").
    private static func openOfflineCache(_ setting: RemoteCatalogConfig.OfflineCache, source: String?,
                                         onProblem: @escaping @Sendable (String) -> Void) throws(APIError) -> OfflineCache? {
        guard case let .on(path, maxBytes, ttlSeconds) = setting else { return nil }
        if path == nil && source == nil {
            onProblem("not used: the host catalog declares no source ({\"catalog\": {\"host\": \"<url or name>\"}}), "
                      + "and the shared default cache is kept per source")
            return nil
        }
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
        if let error = cache.status.lastError {
            // Busy: running without the file. Usable: our damaged file was replaced at open.
            onProblem(cache.status.isUsable ? error.message : "not used for now: \(error.message)")
        }
        return cache
    }
}
