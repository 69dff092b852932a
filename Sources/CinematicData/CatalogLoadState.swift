import CinematicDomain

/// Where a catalog's loading is (``SQLiteMovieCatalog/loadState``).
public enum CatalogLoadState: Equatable, Sendable {
    /// Loading (in a library built without an index: building it in memory); `progress` is
    /// the share done, 0...1. Queries wait on the catalog's thread.
    case loading(progress: Double)
    /// Ready: queries run at once.
    case ready
    /// The load failed; every query fails with this error.
    case failed(MovieError)
}
