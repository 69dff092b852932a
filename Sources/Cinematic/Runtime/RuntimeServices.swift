import CinematicData
import CinematicDomain
import CinematicThreads

/// Everything a runtime runs on, built from its config by ``make(config:substitutes:)``: the
/// composition step. ``Runtime`` keeps lifecycle and the store table; which catalog, cache,
/// recorder and clock a config means is decided here, once.
struct RuntimeServices: Sendable {
    /// Where a replay's stores get their answers instead of a catalog and a favorites file.
    struct Substitutes {
        let catalog: any MovieCatalogRepository
        let favorites: any FavoritesRepository
        let sink: any DebugSink
    }

    /// The runtime's own thread for effects after their first suspension.
    let effects: ThreadExecutor
    /// The runtime's callback queue.
    let queue: DeliveryQueue
    /// The runtime's one clock.
    let clock: RuntimeClock
    /// The favorites file (closed with the runtime).
    let favoritesFile: SQLiteFavorites
    /// The debugging sinks: recorder, logger, a replay's collector.
    let debug: DebugHub
    /// The host's catalog provider, shared with the host catalog's request closures.
    let provider: ProviderSlot
    /// The catalogs the config chose (closed with the runtime).
    let catalogs: RuntimeCatalogs
    /// What every store is built from.
    let environment: StoreEnvironment
    /// What every store delivers through.
    let delivery: StoreDelivery

    /// Opens what `config` asks for. Each step registers how to undo it: a failing step closes
    /// what opened before, and the error says what failed (`io` for files).
    static func make(config: RuntimeConfig, substitutes: Substitutes?) throws(APIError) -> RuntimeServices {
        var unwind = Unwind()
        let effects = ThreadExecutor(name: "cinematic-effects")
        unwind.push { effects.shutDown() }
        let queue: DeliveryQueue
        do {
            queue = try DeliveryQueue(mode: config.delivery, effects: effects)
        } catch {
            throw unwind.fail(error)
        }
        unwind.push { queue.close() }
        let favoritesFile: SQLiteFavorites
        do {
            favoritesFile = config.favoritesReadOnly
                ? try SQLiteFavorites.openReadOnly(path: config.favorites)
                : try SQLiteFavorites.open(path: config.favorites)
        } catch {
            throw unwind.fail(APIError(.io, "cannot open the favorites at \(config.favorites): \(error.message)"))
        }
        unwind.push { favoritesFile.close() }
        let clock = RuntimeClock(manual: config.manualClock)
        let recorder: Recorder?
        do {
            recorder = try config.recordPath.map { path throws(APIError) in
                try Recorder(path: path, clock: clock, refusing: config.databasePaths)
            }
        } catch {
            throw unwind.fail(error)
        }
        unwind.push { _ = recorder?.close() }
        let debug = DebugHub(clock: clock, recorder: recorder, fixed: substitutes?.sink)
        recorder?.onFailure { [weak debug] message in debug?.note("recording stopped: \(message)") }
        let provider = ProviderSlot()
        let catalogs: RuntimeCatalogs
        do {
            catalogs = try RuntimeCatalogs.open(config: config, clock: clock, queue: queue, provider: provider, debug: debug)
        } catch {
            throw unwind.fail(error)
        }
        // The stores see the catalog and favorites through the recorder when the session is
        // recorded: outermost, so a recording holds what the stores got (cache included).
        var catalog = substitutes?.catalog ?? catalogs.catalog
        var favorites: any FavoritesRepository = substitutes?.favorites ?? favoritesFile
        if let recorder {
            catalog = RecordingCatalog(inner: catalog, recorder: recorder)
            favorites = RecordingFavorites(inner: favorites, recorder: recorder)
            recorder.write("session") { [("library", .string(String(describing: libraryVersion))), ("config", config.json)] }
        }
        let environment = StoreEnvironment(catalog: catalog, favorites: favorites, clock: clock,
                                           searchDebounce: .milliseconds(config.searchDebounceMilliseconds), appLimits: config.appLimits)
        return RuntimeServices(
            effects: effects, queue: queue, clock: clock, favoritesFile: favoritesFile, debug: debug, provider: provider,
            catalogs: catalogs, environment: environment,
            delivery: StoreDelivery(queue: queue, effects: effects, historyCapacity: config.historyCapacity))
    }
}
