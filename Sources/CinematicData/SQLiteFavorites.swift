import CinematicDomain
import Synchronization

/// The user's favorites in a SQLite database in WAL mode, shared by every store of a runtime.
///
/// Each favorite keeps its movie's list fields, so ``list()`` and ``observe()`` need no
/// catalog. Every write is one transaction, committed (on disk, `synchronous=FULL`) before
/// any observer hears of it, and observers hear of changes in commit order. Errors are
/// ``MovieError/storage(_:)`` carrying SQLite's message. All methods are thread-safe: the
/// connection lives behind a `Mutex`.
///
/// Versions (see ``FavoritesSnapshot``) count the changes committed through this instance:
/// the favorites found at open are version 1, each committed change adds 1 (a no-op or failed
/// write adds nothing). The counter lives under the same lock as the connection, so versions
/// follow commit order.
///
/// ```swift
/// let favorites = try SQLiteFavorites.open(path: "/data/favorites.sqlite")  // or ":memory:"
/// let version = try await favorites.add(movie)
/// for await snapshot in favorites.observe() { render(snapshot.movies) }   // current, then each change
/// ```
public final class SQLiteFavorites: FavoritesRepository {
    private let database: Mutex<FavoritesDatabase>

    /// Opens (creating it and its schema when missing) the favorites database at `path`;
    /// ":memory:" keeps favorites for the life of this object only. The directory must exist
    /// (a mistyped path fails rather than creating directories). A file the process may read
    /// but not write opens read-only: listing works and every write throws `.storage`. Throws
    /// `.storage` when the file cannot be opened or comes from a newer schema.
    ///
    /// ```swift
    /// let favorites = try SQLiteFavorites.open(path: ":memory:")
    /// ```
    public static func open(path: String) throws(MovieError) -> SQLiteFavorites {
        SQLiteFavorites(database: try FavoritesDatabase(path: path, readOnly: false))
    }

    /// Opens an existing favorites database read-only, touching nothing on disk: listing
    /// works and every write throws `.storage`. Throws `.storage` when there is no favorites
    /// database at `path`.
    public static func openReadOnly(path: String) throws(MovieError) -> SQLiteFavorites {
        SQLiteFavorites(database: try FavoritesDatabase(path: path, readOnly: true))
    }

    private init(database: sending FavoritesDatabase) { self.database = Mutex(database) }

    deinit {
        // Streams still being consumed end (their `for await` loops finish).
        let continuations = database.withLock { $0.takeObservers() }
        for continuation in continuations { continuation.finish() }
    }

    /// Adds `movie` as the most recent favorite; a no-op (no notification, same version) when
    /// it already is a favorite, whose original position is kept. Returns the version right
    /// after the call.
    @discardableResult
    public func add(_ movie: Movie) async throws(MovieError) -> UInt64 {
        try database.withLock { database throws(MovieError) in try database.add(movie) }
    }

    /// Removes the favorite with `id`; a no-op (no notification, same version) when absent.
    /// Returns the version right after the call.
    @discardableResult
    public func remove(id: Int) async throws(MovieError) -> UInt64 {
        try database.withLock { database throws(MovieError) in try database.remove(id: id) }
    }

    /// The favorites as stored, most recently added first.
    public func list() async throws(MovieError) -> [Movie] {
        try database.withLock { database throws(MovieError) in try database.readAll() }
    }

    /// Yields the current snapshot at once, then a new snapshot after every change committed
    /// through this instance, in commit order (versions strictly increasing). Only the newest
    /// undelivered snapshot is buffered (a slow consumer skips intermediate ones, never the
    /// last one). Ends when the consuming task is cancelled or this repository is deallocated.
    ///
    /// ```swift
    /// for await snapshot in repository.observe() { await send(.favoritesChanged(snapshot)) }
    /// ```
    public func observe() -> AsyncStream<FavoritesSnapshot> {
        let (stream, continuation) = AsyncStream.makeStream(of: FavoritesSnapshot.self, bufferingPolicy: .bufferingNewest(1))
        let key = database.withLock { $0.addObserver(continuation) }
        continuation.onTermination = { [weak self] _ in
            // The removed continuation is released after the lock is left.
            _ = self?.database.withLock { $0.observers.removeValue(forKey: key) }
        }
        return stream
    }

    /// How many ``observe()`` streams are live (test hook: a closed store stops observing).
    public var observerCount: Int { database.withLock { $0.observers.count } }

    /// Makes every later write fail (`true`) or succeed again (`false`), exactly as a
    /// write-protected database file would: `add` and `remove` throw
    /// `.storage("attempt to write a readonly database")` and nothing changes. Reads keep
    /// working. Unlike file permissions, this also works for a process running as root.
    ///
    /// ```swift
    /// try favorites.setReadOnly(true)
    /// try await favorites.add(movie)   // throws MovieError.storage
    /// ```
    public func setReadOnly(_ readOnly: Bool) throws(MovieError) {
        try database.withLock { database throws(MovieError) in try database.setQueryOnly(readOnly) }
    }

    /// The database's journal mode as SQLite reports it: "wal" for a file, "memory" for
    /// ":memory:".
    public func journalMode() throws(MovieError) -> String {
        try database.withLock { database throws(MovieError) in try database.journalMode() }
    }
}

/// The favorites connection, its statements, the last committed snapshot and the observers.
/// Only used inside ``SQLiteFavorites``' lock, which is what orders versions and
/// notifications with commits.
final class FavoritesDatabase {
    /// The schema version stored in `PRAGMA user_version`.
    static let schemaVersion = 1

    private let connection: SQLiteConnection
    private let insert: SQLiteStatement
    private let delete: SQLiteStatement
    private let selectAll: SQLiteStatement
    /// The snapshot as of the last commit made through this connection (version 1: as opened).
    private var current = FavoritesSnapshot(version: 1, movies: [])
    var observers: [UInt64: AsyncStream<FavoritesSnapshot>.Continuation] = [:]
    private var nextKey: UInt64 = 0

    init(path: String, readOnly: Bool) throws(MovieError) {
        connection = try SQLiteConnection(path: path, readOnly: readOnly)
        if readOnly {
            guard try connection.userVersion() == Self.schemaVersion else {
                throw .storage("\(path) holds no favorites database of schema version \(Self.schemaVersion)")
            }
        } else {
            try Self.configure(connection)
        }
        insert = try connection.prepare("""
            INSERT OR IGNORE INTO favorites (movie_id, title, year, runtime, rating, votes, genres, mpaa)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
            """)
        delete = try connection.prepare("DELETE FROM favorites WHERE movie_id = ?1")
        selectAll = try connection.prepare("""
            SELECT movie_id, title, year, runtime, rating, votes, genres, mpaa FROM favorites ORDER BY position DESC
            """)
        current = FavoritesSnapshot(version: 1, movies: try readAll())
    }

    /// WAL journal, full sync on commit, and the schema (created once, versioned).
    private static func configure(_ connection: SQLiteConnection) throws(MovieError) {
        do {
            try connection.execute("PRAGMA journal_mode = WAL")
        } catch {
            // A write-protected file cannot switch journal mode; it still opens, read-only.
            guard connection.isReadOnly else { throw error }
        }
        try connection.execute("PRAGMA synchronous = FULL")
        let version = try connection.userVersion()
        switch version {
        case 0:
            // `position` is the rowid: each insert gets max + 1, so it orders by time added.
            try connection.transaction { () throws(MovieError) in
                try connection.execute("""
                    CREATE TABLE IF NOT EXISTS favorites (
                        position INTEGER PRIMARY KEY,
                        movie_id INTEGER NOT NULL UNIQUE,
                        title TEXT NOT NULL,
                        year INTEGER NOT NULL,
                        runtime INTEGER NOT NULL,
                        rating REAL NOT NULL,
                        votes INTEGER NOT NULL,
                        genres TEXT NOT NULL,
                        mpaa TEXT
                    );
                    PRAGMA user_version = \(schemaVersion);
                    """)
            }
        case schemaVersion:
            break
        default:
            throw .storage("favorites database schema version \(version) is newer than this library's (\(schemaVersion))")
        }
    }

    func add(_ movie: Movie) throws(MovieError) -> UInt64 {
        try write { () throws(MovieError) in
            try insert.run([
                .int(movie.id), .text(movie.title), .int(movie.year), .int(movie.runtime),
                .double(movie.rating), .int(movie.votes), .text(Self.encode(movie.genres)),
                movie.mpaa.map { .text($0) } ?? .null,
            ])
        }
    }

    func remove(id: Int) throws(MovieError) -> UInt64 {
        try write { () throws(MovieError) in try delete.run([.int(id)]) }
    }

    /// Runs `change` in a transaction that also reads back the new list; after the commit,
    /// and only if a row changed, bumps the version, remembers the snapshot and yields it to
    /// every observer. Returns the version after the call (unchanged when nothing changed or
    /// the write threw).
    private func write(_ change: () throws(MovieError) -> Void) throws(MovieError) -> UInt64 {
        let changed = try connection.transaction { () throws(MovieError) -> [Movie]? in
            try change()
            return connection.changes > 0 ? try readAll() : nil
        }
        guard let changed else { return current.version }
        current = FavoritesSnapshot(version: current.version + 1, movies: changed)
        for continuation in observers.values { continuation.yield(current) }
        return current.version
    }

    func readAll() throws(MovieError) -> [Movie] {
        try selectAll.bind([])
        var movies: [Movie] = []
        while try selectAll.step() {
            movies.append(Movie(
                id: selectAll.int(0), title: selectAll.text(1) ?? "", year: selectAll.int(2),
                runtime: selectAll.int(3), rating: selectAll.double(4), votes: selectAll.int(5),
                genres: Self.decode(selectAll.text(6) ?? ""), mpaa: selectAll.text(7)))
        }
        return movies
    }

    /// Registers an observer and yields it the current snapshot.
    func addObserver(_ continuation: AsyncStream<FavoritesSnapshot>.Continuation) -> UInt64 {
        nextKey &+= 1
        observers[nextKey] = continuation
        continuation.yield(current)
        return nextKey
    }

    func takeObservers() -> [AsyncStream<FavoritesSnapshot>.Continuation] {
        defer { observers = [:] }
        return Array(observers.values)
    }

    func setQueryOnly(_ on: Bool) throws(MovieError) {
        try connection.execute("PRAGMA query_only = \(on ? 1 : 0)")
    }

    func journalMode() throws(MovieError) -> String {
        let statement = try connection.prepare("PRAGMA journal_mode")
        try statement.bind([])
        guard try statement.step() else { throw .storage("PRAGMA journal_mode returned no row") }
        return statement.text(0) ?? ""
    }

    /// Genres are stored joined by U+001F (unit separator), which no genre name contains.
    private static let genreSeparator: Character = "\u{1F}"

    static func encode(_ genres: [String]) -> String { genres.joined(separator: String(genreSeparator)) }

    static func decode(_ text: String) -> [String] {
        text.isEmpty ? [] : text.split(separator: genreSeparator, omittingEmptySubsequences: false).map(String.init)
    }
}
