import CinematicDomain
import CinematicThreads

/// The user's favorites in a SQLite database in WAL mode, shared by every store of a runtime
/// and, through the file, by other runtimes and processes.
///
/// Threads: the connection lives on its own ``WorkerThread``; every read and write is a job
/// there that callers `await`, so no caller's thread (a host's UI thread, Swift's cooperative
/// pool) ever waits for the disk or for another connection's lock. Every write is one
/// transaction, committed (`synchronous=FULL`) before any observer hears of it, and observers
/// hear of changes in commit order (the worker publishes them one by one, with no lock held
/// while yielding).
///
/// Other connections: the worker checks `PRAGMA data_version` every
/// ``pollMilliseconds`` while idle and before every write, so a change committed by another
/// runtime or process reaches observers within about that time, and a write applies to what
/// is stored, not to a stale view. Read-only favorites (which must create no file, so cannot
/// use the WAL index) compare the file's size and modification time instead and reopen.
///
/// Writes change the observed list by what they changed: the one row inserted (read back as
/// stored, put where its position orders it) or removed, so a heart tap costs the same at
/// 1,000 favorites as at none. When another connection committed since this instance last
/// looked (`data_version` moved), a write reads the whole table instead, like a poll.
///
/// Versions (see ``FavoritesSnapshot``) count the changes this instance has seen: the
/// favorites found at open are version 1, and each committed change (ours, or another
/// connection's, noticed) adds 1.
///
/// Files: a favorites file is adopted only when it is new or ours (see ``FavoritesFile``);
/// anything else is refused with `.storage` and left unchanged byte for byte.
///
/// ```swift
/// let favorites = try SQLiteFavorites.open(path: "/data/favorites.sqlite")  // or ":memory:"
/// let version = try await favorites.add(movie)
/// for await snapshot in favorites.observe() { render(snapshot.movies) }   // current, then each change
/// favorites.close()                                                       // the file is closed on return
/// ```
public final class SQLiteFavorites: FavoritesRepository {
    /// How often an idle worker looks for changes made by other connections.
    public static let pollMilliseconds = 50

    private let worker: WorkerThread
    private let database: FavoritesDatabase
    private let feed: FavoritesFeed

    /// Opens (creating it and its schema when missing) the favorites database at `path`;
    /// ":memory:" keeps favorites for the life of this object only. The directory must exist
    /// (a mistyped path fails rather than creating directories). A file the process may read
    /// but not write opens read-only: listing works and every write throws `.storage`. Throws
    /// `.storage` when the file cannot be opened, is not ours, or comes from a newer schema.
    /// Runs on the calling thread (opening is the one blocking step).
    ///
    /// ```swift
    /// let favorites = try SQLiteFavorites.open(path: ":memory:")
    /// ```
    public static func open(path: String) throws(MovieError) -> SQLiteFavorites {
        SQLiteFavorites(database: try FavoritesDatabase(path: path, readOnly: false))
    }

    /// Opens an existing favorites database read-only, creating and changing nothing on disk
    /// (no `-wal` or `-shm` either): listing works and every write throws `.storage`. Throws
    /// `.storage` when there is no favorites database of ours at `path`.
    public static func openReadOnly(path: String) throws(MovieError) -> SQLiteFavorites {
        SQLiteFavorites(database: try FavoritesDatabase(path: path, readOnly: true))
    }

    private init(database: FavoritesDatabase) {
        self.database = database
        let feed = FavoritesFeed(initial: database.snapshot)
        self.feed = feed
        worker = WorkerThread(name: "cinematic-favorites", tickMilliseconds: database.isShared ? Self.pollMilliseconds : nil) {
            if let snapshot = database.refreshIfChanged() { feed.publish(snapshot) }
        }
    }

    deinit { close() }

    /// Closes the database: a write waiting for another connection's lock gives up, queued
    /// jobs finish, observing streams end, and the file is closed when this returns (unless
    /// called on the worker itself). Later calls throw `.storage`. Idempotent.
    public func close() {
        database.stopWaiting()
        worker.shutDown { [database, feed] in
            database.close()
            feed.finishAll()
        }
    }

    /// Adds `movie` as the most recent favorite; a no-op (no notification) when it already is
    /// a favorite, whose original position is kept. Returns the version right after the call.
    @discardableResult
    public func add(_ movie: Movie) async throws(MovieError) -> UInt64 {
        try await write { database throws(MovieError) in try database.add(movie) }.version
    }

    /// Removes the favorite with `id`; a no-op (no notification) when absent. Returns the
    /// version right after the call.
    @discardableResult
    public func remove(id: Int) async throws(MovieError) -> UInt64 {
        try await write { database throws(MovieError) in try database.remove(id: id) }.version
    }

    /// Flips what is stored for `movie` in one transaction: removes it when stored, adds it
    /// otherwise, whatever this instance last saw.
    public func toggle(_ movie: Movie) async throws(MovieError) -> FavoriteToggle {
        try await write { database throws(MovieError) in try database.toggle(movie) }
    }

    /// The favorites as stored, most recently added first.
    public func list() async throws(MovieError) -> [Movie] {
        try await worker.perform({ [database, feed] () throws(MovieError) -> [Movie] in
            if let snapshot = database.refreshIfChanged() { feed.publish(snapshot) }
            return try database.readAll()
        }, stopped: Self.closedError)
    }

    /// Yields the current snapshot at once, then a newer snapshot after every change (ours
    /// or another connection's), versions strictly increasing. Only the newest undelivered
    /// snapshot is buffered (a slow consumer skips intermediate ones, never the last one).
    /// Ends when the consuming task is cancelled or the favorites close.
    ///
    /// ```swift
    /// for await snapshot in repository.observe() { await send(.favoritesChanged(snapshot)) }
    /// ```
    public func observe() -> AsyncStream<FavoritesSnapshot> { feed.observe() }

    /// How many ``observe()`` streams are live (test hook: a closed store stops observing).
    package var observerCount: Int { feed.observerCount }

    /// The snapshot observers were last given (test hook: a write publishes its snapshot
    /// before it returns, so this is the list after the write).
    package var observedSnapshot: FavoritesSnapshot { feed.current }

    /// Makes every later write fail (`true`) or succeed again (`false`), exactly as a
    /// write-protected database file would: `add` and `remove` throw
    /// `.storage("attempt to write a readonly database")` and nothing changes. Reads keep
    /// working. Unlike file permissions, this also works for a process running as root.
    ///
    /// ```swift
    /// try await favorites.setReadOnly(true)
    /// try await favorites.add(movie)   // throws MovieError.storage
    /// ```
    package func setReadOnly(_ readOnly: Bool) async throws(MovieError) {
        try await worker.perform({ [database] () throws(MovieError) in try database.setQueryOnly(readOnly) }, stopped: Self.closedError)
    }

    /// The database's journal mode as SQLite reports it: "wal" for a file, "memory" for
    /// ":memory:".
    package func journalMode() async throws(MovieError) -> String {
        try await worker.perform({ [database] () throws(MovieError) in try database.journalMode() }, stopped: Self.closedError)
    }

    /// Runs a write on the worker and publishes what it committed (or another connection's
    /// change it noticed first), in commit order.
    private func write(_ change: @escaping @Sendable (FavoritesDatabase) throws(MovieError) -> FavoriteToggle) async throws(MovieError) -> FavoriteToggle {
        try await worker.perform({ [database, feed] () throws(MovieError) -> FavoriteToggle in
            defer { if let snapshot = database.takeUnpublished() { feed.publish(snapshot) } }
            return try change(database)
        }, stopped: Self.closedError)
    }

    @Sendable private static func closedError() -> MovieError { .storage("the favorites database is closed") }
}
