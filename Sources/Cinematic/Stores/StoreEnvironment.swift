import CinematicDomain
import CinematicFeatures

/// What a feature's store is built from: the services and settings its runtime gives every
/// store, and nothing else of the runtime. ``FeatureCodec/makeStore(arguments:serial:environment:delivery:)``
/// picks what its reducer needs.
///
/// ```swift
/// let reducer = SearchReducer(searchMovies: SearchMoviesUseCase(repository: environment.catalog),
///                             clock: environment.clock, debounce: environment.searchDebounce)
/// ```
struct StoreEnvironment: Sendable {
    /// The catalog the stores use (through the recorder when the runtime records).
    let catalog: any MovieCatalogRepository
    /// The favorites the stores use (through the recorder when the runtime records).
    let favorites: any FavoritesRepository
    /// The runtime's clock, on which effects sleep.
    let clock: RuntimeClock
    /// How long Search waits after the last keystroke (config `search.debounceMs`).
    let searchDebounce: Duration
    /// The app store's bounds (config `app`).
    var appLimits = AppLimits()
}
