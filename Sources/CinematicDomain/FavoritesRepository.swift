/// The favorites as of one committed change: the list and its version.
///
/// Versions are per repository instance: the favorites found when it opens are version 1,
/// and every committed change adds 1. A no-op or failed write changes nothing, version
/// included. So of two snapshots (or a snapshot and a write's returned version) from one
/// repository, the higher version is the newer state of storage, whichever reaches a reducer
/// first.
public struct FavoritesSnapshot: Equatable, Sendable {
    /// The version of the favorites: 1 at open, +1 per committed change.
    public let version: UInt64
    /// The favorites, most recently added first.
    public let movies: [Movie]

    /// Creates the snapshot of `movies` at `version`.
    ///
    /// ```swift
    /// let snapshot = FavoritesSnapshot(version: 1, movies: [])
    /// ```
    public init(version: UInt64, movies: [Movie]) {
        self.version = version
        self.movies = movies
    }

    /// Whether the movie with `id` is a favorite in this snapshot.
    public func contains(movieID id: Int) -> Bool { movies.contains { $0.id == id } }
}

/// What a favorites write left in storage: whether the movie is a favorite now, and the
/// version of the favorites right after the write.
public struct FavoriteToggle: Equatable, Sendable {
    /// Whether the movie is stored as a favorite after the write.
    public let isFavorite: Bool
    /// The favorites version right after the write.
    public let version: UInt64

    /// Creates the outcome of a write.
    ///
    /// ```swift
    /// let outcome = FavoriteToggle(isFavorite: true, version: 2)
    /// ```
    public init(isFavorite: Bool, version: UInt64) {
        self.isFavorite = isFavorite
        self.version = version
    }
}

/// Where favorites live. Every store of one runtime shares one repository, so a change made
/// through one is observed by all.
///
/// Every state of the favorites has a version (see ``FavoritesSnapshot``): writes return the
/// version right after them and observations carry it, so a store can tell which of two
/// reports about storage is newer even when they reach it out of order.
public protocol FavoritesRepository: Sendable {
    /// Adds `movie` (no-op when already a favorite). Returns the version of the favorites
    /// right after the call, in which `movie` is a favorite (unchanged for a no-op).
    @discardableResult
    func add(_ movie: Movie) async throws(MovieError) -> UInt64
    /// Removes the movie with `id` (no-op when absent). Returns the version of the favorites
    /// right after the call, in which `id` is not a favorite (unchanged for a no-op).
    @discardableResult
    func remove(id: Int) async throws(MovieError) -> UInt64
    /// Flips what is stored for `movie`, atomically: removes it when it is a favorite in
    /// storage, adds it otherwise (whatever this process last saw). Returns the outcome.
    func toggle(_ movie: Movie) async throws(MovieError) -> FavoriteToggle
    /// The favorites, most recently added first.
    func list() async throws(MovieError) -> [Movie]
    /// Yields the current snapshot at once and a new one after every change, versions
    /// strictly increasing in commit order; ends when the consuming task is cancelled.
    func observe() -> AsyncStream<FavoritesSnapshot>
}
