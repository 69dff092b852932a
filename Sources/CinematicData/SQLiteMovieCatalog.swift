import CinematicDomain
import MVIKit
import Synchronization

/// The embedded catalog: 58,788 films in SQLite with an FTS5 title index.
///
/// Search ranks exact title matches first, then titles that start with the query, then
/// every other title containing all the query's words (the last one as a prefix), each group
/// by popularity (votes). User text is reduced to words before it reaches FTS5, so operators,
/// quotes and emoji can never form query syntax.
///
/// Threads: the connection is used on the catalog's own ``WorkerThread``; every query is a
/// job there that callers `await`, so neither a host's thread nor Swift's cooperative pool
/// ever runs SQLite. A query whose caller was cancelled before it started (a replaced
/// search) is skipped, so a host sending intents in a loop cannot pile up work.
///
/// ```swift
/// let catalog = try SQLiteMovieCatalog.open()          // builds the cache on first use
/// let movies = try await catalog.searchMovies(matching: "godfather")
/// catalog.close()                                      // the file is closed on return
/// ```
public final class SQLiteMovieCatalog: MovieCatalogRepository {
    /// Guarded by a lock as well as confined to the worker, so the benchmarks' synchronous
    /// ``search(_:page:)`` can share it.
    private let queries: LockedQueries
    private let worker = WorkerThread(name: "cinematic-catalog")

    /// Opens the catalog database at `path` (default ``CatalogDatabase/defaultPath``),
    /// building it from the embedded data first when it is missing or stale.
    public static func open(path: String = CatalogDatabase.defaultPath) throws(MovieError) -> SQLiteMovieCatalog {
        try CatalogDatabase.prepare(at: path)
        return try SQLiteMovieCatalog(path: path)
    }

    /// Opens the catalog at its default location, or, when that cannot be written (a
    /// read-only home), at ``CatalogDatabase/fallbackPath``. Throws the first location's
    /// error when both fail.
    public static func openDefault() throws(MovieError) -> SQLiteMovieCatalog {
        do {
            return try open(path: CatalogDatabase.defaultPath)
        } catch {
            guard let catalog = try? open(path: CatalogDatabase.fallbackPath) else { throw error }
            return catalog
        }
    }

    private init(path: String) throws(MovieError) { queries = LockedQueries(try CatalogQueries(path: path)) }

    deinit { close() }

    /// Closes the connection once queued queries finish; the file is closed when this returns
    /// (unless called on the worker itself). Later queries throw `.storage`. Idempotent.
    public func close() {
        worker.shutDown { [queries] in queries.withLock { $0.close() } }
    }

    public func searchMovies(matching query: String, page: Int) async throws(MovieError) -> [Movie] {
        try await onWorker { queries throws(MovieError) in try queries.search(query, page: page) }
    }

    public func movies(in section: DiscoverSection, page: Int) async throws(MovieError) -> [Movie] {
        try await onWorker { queries throws(MovieError) in try queries.movies(in: section, page: page) }
    }

    public func movieDetail(id: Int) async throws(MovieError) -> MovieDetail {
        try await onWorker { queries throws(MovieError) in try queries.detail(id: id) }
    }

    /// The synchronous search behind ``searchMovies(matching:page:)``, on the calling thread
    /// (benchmarks time it).
    package func search(_ query: String, page: Int = 1) throws(MovieError) -> [Movie] {
        try queries.withLock { queries throws(MovieError) in try queries.search(query, page: page) }
    }

    private func onWorker<T: Sendable>(_ body: @escaping @Sendable (CatalogQueries) throws(MovieError) -> T) async throws(MovieError) -> T {
        try await worker.perform({ [queries] () throws(MovieError) -> T in
            try queries.withLock { queries throws(MovieError) in try body(queries) }
        }, stopped: { .storage("the catalog is closed") }, cancelled: { .network("cancelled") })
    }
}

/// The catalog's statements behind a lock, shareable with the worker's jobs.
final class LockedQueries: Sendable {
    private let queries: Mutex<CatalogQueries>

    init(_ queries: sending CatalogQueries) { self.queries = Mutex(queries) }

    func withLock<T, E: Error>(_ body: (CatalogQueries) throws(E) -> T) throws(E) -> T {
        try queries.withLock { queries throws(E) in try body(queries) }
    }
}

/// The prepared statements of one catalog connection. Used only inside the catalog's lock.
final class CatalogQueries: @unchecked Sendable {
    private let connection: SQLiteConnection
    private let engine: SearchEngine
    private let byRank: SQLiteStatement
    private let byID: SQLiteStatement
    private let discover: DiscoverPages

    private static let columns = "id, title, year, runtime, rating, votes, genres, mpaa, budget, distribution"

    /// Closes the connection and its statements.
    func close() { connection.close() }

    init(path: String) throws(MovieError) {
        connection = try SQLiteConnection(path: path, readOnly: true)
        // Read through a memory map (no read(2) per page) with a larger page cache: a search
        // reads a few hundred scattered rows, and this keeps each one a memory access.
        try connection.execute("PRAGMA mmap_size = 1073741824; PRAGMA cache_size = -32768")
        let columns = Self.columns
        engine = try SearchEngine(connection)
        byRank = try connection.prepare("SELECT \(columns) FROM movies WHERE rank = ?1")
        byID = try connection.prepare("SELECT \(columns) FROM movies WHERE id = ?1")
        discover = try DiscoverPages(connection, columns: columns)
    }

    /// One page of the ranked matches of `query` (see ``SearchEngine``): the ranked list is
    /// kept for recent queries, so a later page is a slice, whatever its depth.
    func search(_ query: String, page: Int) throws(MovieError) -> [Movie] {
        guard page >= 1 else { return [] }
        let ranks = try engine.ranks(for: query, needed: page * MovieCatalog.pageSize)
            .dropFirst((page - 1) * MovieCatalog.pageSize).prefix(MovieCatalog.pageSize)
        var movies: [Movie] = []
        for rank in ranks {
            try byRank.bind([.int(rank)])
            if try byRank.step() { movies.append(Self.movie(byRank)) }
        }
        byRank.reset()
        return movies
    }

    func movies(in section: DiscoverSection, page: Int) throws(MovieError) -> [Movie] {
        try discover.page(page, of: section, row: Self.movie)
    }

    func detail(id: Int) throws(MovieError) -> MovieDetail {
        try byID.bind([.int(id)])
        guard try byID.step() else { throw .notFound }
        let distribution = (byID.text(9) ?? "").split(separator: ",").compactMap { Double(String($0)) }
        return MovieDetail(movie: Self.movie(byID), budget: byID.isNull(8) ? nil : byID.int(8), ratingDistribution: distribution)
    }

    private static func movie(_ row: SQLiteStatement) -> Movie {
        Movie(
            id: row.int(0), title: row.text(1) ?? "", year: row.int(2), runtime: row.int(3),
            rating: row.double(4), votes: row.int(5),
            genres: (row.text(6) ?? "").split(separator: ",").map(String.init), mpaa: row.text(7))
    }
}
