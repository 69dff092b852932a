import CinematicDomain
import CinematicThreads
import Synchronization

/// A catalog index opened for Search, Discover and Detail: the index compiled into the
/// library (``Source/embedded(libraryVersion:)``) or a file built by `cinematic-index`
/// (``Source/index(path:)``).
///
/// Opening checks what the index is (header and stamp, a few reads, nothing written) and
/// returns at once; the index is made ready on the catalog's own ``WorkerThread`` (the
/// embedded one is read in place; a file is read in one read and checked in one pass), and
/// queries queue behind it. A library built without an index
/// (`swift build`, the tests) builds the embedded catalog in memory there instead, reporting
/// ``loadProgress``; nothing is written anywhere.
///
/// Threads: the connection and the corpus are used on the catalog's own ``WorkerThread``;
/// every query is a job there that callers `await`, so neither a host's thread nor Swift's
/// cooperative pool ever runs SQLite or a search. A query whose caller was cancelled before
/// it started (a replaced search) is skipped, so a host sending intents in a loop cannot pile
/// up work.
///
/// ```swift
/// let catalog = try SQLiteMovieCatalog.open(.index(path: "/data/movies.idx"))
/// let movies = try await catalog.searchMovies(matching: "godfather")
/// catalog.close()                                      // the file is closed on return
/// ```
public final class SQLiteMovieCatalog: MovieCatalogRepository {
    /// Which index to open.
    public enum Source: Sendable, Equatable {
        /// The index compiled into the library, which must carry this library version's stamp
        /// (``CatalogIndex/expectedEmbeddedStamp(libraryVersion:)``).
        case embedded(libraryVersion: String)
        /// An index file built by `cinematic-index` (any library version, this format).
        case index(path: String)
    }

    /// Guarded by a lock as well as confined to the worker, so the benchmarks' synchronous
    /// ``search(_:page:)`` can share it.
    private let queries = LockedQueries()
    private let worker = WorkerThread(name: "cinematic-catalog")
    /// Share of the load done, in thousandths (1000: ready or failed).
    private let progress = LoadProgress()

    /// Opens `source`: checks it now (throwing `.storage` with the reason when it is not a
    /// cinematic index of this format, or the embedded one carries another stamp), and loads
    /// it on the catalog's thread.
    public static func open(_ source: Source) throws(MovieError) -> SQLiteMovieCatalog {
        let catalog = SQLiteMovieCatalog()
        switch source {
        case let .index(path):
            // The header is checked here (a few bytes), the whole file read and checked again
            // on the worker (it may have been replaced in between): once per process while a
            // runtime holds it (``SharedCatalog``).
            try CatalogIndex.checkHeader(at: path)
            catalog.load { _ throws(MovieError) in
                let image: IndexImage
                do throws(MovieError) {
                    let file = try CatalogIndex.openFile(at: path)
                    image = try SharedCatalog.image(of: file)
                } catch {
                    throw error.message.hasPrefix(path) ? error : .storage("\(path): \(error.message)")
                }
                let connection = try image.connect()
                do throws(MovieError) {
                    let stamp = try CatalogIndex.stamp(of: connection)
                    guard stamp.format == CatalogIndex.formatVersion else {
                        throw .storage("\(path) is a catalog index of format \(stamp.format); this library reads format \(CatalogIndex.formatVersion)")
                    }
                    return CatalogQueries(connection, image: image, provenance: CatalogCoverage.file(path))
                } catch {
                    connection.close()
                    throw error
                }
            }
        case let .embedded(version):
            // The compiled-in image's stamp is checked here; the image is shared by every
            // runtime of the process (``SharedCatalog``), read in place.
            if let image = EmbeddedCatalog.index { try Self.checkEmbedded(image, version: version) }
            catalog.load { report throws(MovieError) in
                let shared = try SharedCatalog.embedded(version: version, progress: report)
                return CatalogQueries(image: shared, provenance: CatalogCoverage.embeddedProvenance)
            }
        }
        return catalog
    }

    private init() {}

    /// Checks that the index compiled into the library carries this library's stamp (format,
    /// data, version): the stamp `make lib` read from it as it compiled it in
    /// (``CatalogIndex/compiledInStamp``: no SQL at open), else read from the image in place.
    private static func checkEmbedded(_ image: UnsafeRawBufferPointer, version: String) throws(MovieError) {
        let expected = CatalogIndex.expectedEmbeddedStamp(libraryVersion: version)
        let stamp = CatalogIndex.compiledInStamp ?? readStamp(of: image)
        guard stamp == expected else {
            let found = stamp.map { "format \($0.format), data \($0.data), library \($0.library)" } ?? "no stamp"
            throw .storage("the catalog index compiled into this library is not its own (\(found); expected format \(expected.format), data \(expected.data), library \(expected.library))")
        }
    }

    /// The stamp in the `meta` table of an index image, nil when it has none.
    private static func readStamp(of image: UnsafeRawBufferPointer) -> CatalogIndex.Stamp? {
        guard let connection = try? SQLiteConnection(path: ":memory:") else { return nil }
        defer { connection.close() }
        guard let database = try? CorpusLayout.split(image).database, (try? connection.deserializeReadOnly(database)) != nil else { return nil }
        return try? CatalogIndex.stamp(of: connection)
    }

    /// Runs `body` on the worker to make the queries; until it has run, queries wait behind it.
    private func load(_ body: @escaping @Sendable (_ report: (Double) -> Void) throws(MovieError) -> sending CatalogQueries) {
        _ = worker.submit { [queries, progress] in
            let result: Result<CatalogQueries, MovieError>
            do throws(MovieError) {
                result = .success(try body { share in progress.value.store(min(999, Int(share * 1000)), ordering: .relaxed) })
            } catch {
                result = .failure(error)
            }
            queries.set(result)
            progress.value.store(1000, ordering: .releasing)
        }
    }

    deinit { close() }

    /// The share of the catalog's loading done (0...1) while it loads (a library built
    /// without an index builds it in memory first), nil once it is ready (or failed).
    public var loadProgress: Double? {
        let value = progress.value.load(ordering: .acquiring)
        return value >= 1000 ? nil : Double(value) / 1000
    }

    /// Where the catalog's loading is: ``CatalogLoadState``. Never waits.
    public var loadState: CatalogLoadState {
        if let share = loadProgress { return .loading(progress: share) }
        if let error = queries.loadError { return .failed(error) }
        return .ready
    }

    /// Blocks until the catalog has loaded (benchmarks and tests; never a host's thread).
    package func waitUntilLoaded() { _ = worker.waitUntilIdle() }

    /// Closes the connection once queued queries finish; the file is closed when this returns
    /// (unless called on the worker itself). Later queries throw `.storage`. Idempotent.
    public func close() {
        worker.shutDown { [queries] in queries.close() }
    }

    /// A search of the embedded catalog (`.local`), with what the catalog holds and, when no
    /// title matches every word, the words the first film leaves out.
    public func search(matching query: String, page: Int) async throws(MovieError) -> Sourced<[Movie]> {
        let (found, coverage) = try await onWorker { queries throws(MovieError) in (try queries.searchNoting(query, page: page), queries.coverage) }
        return Sourced(found.movies, source: .local, coverage: coverage, unmatched: found.unmatched)
    }

    /// A Discover page of the embedded catalog (`.local`).
    public func discover(section: DiscoverSection, page: Int) async throws(MovieError) -> Sourced<[Movie]> {
        Sourced(try await onWorker { queries throws(MovieError) in try queries.movies(in: section, page: page) }, source: .local)
    }

    /// A movie's detail from the embedded catalog (`.local`).
    public func detail(id: Int) async throws(MovieError) -> Sourced<MovieDetail> {
        Sourced(try await onWorker { queries throws(MovieError) in try queries.detail(id: id) }, source: .local)
    }

    /// The synchronous search behind ``search(matching:page:)``, on the calling thread,
    /// once loaded (benchmarks time it).
    package func search(_ query: String, page: Int = 1) throws(MovieError) -> [Movie] {
        waitUntilLoaded()
        return try queries.withLock { queries throws(MovieError) in try queries.search(query, page: page) }
    }

    private func onWorker<T: Sendable>(_ body: @escaping @Sendable (CatalogQueries) throws(MovieError) -> T) async throws(MovieError) -> T {
        try await worker.perform({ [queries] () throws(MovieError) -> T in
            try queries.withLock { queries throws(MovieError) in try body(queries) }
        }, stopped: { .storage("the catalog is closed") }, cancelled: { .network("cancelled") })
    }
}

/// A catalog's loading progress in thousandths (1000: done), shared with its load job.
final class LoadProgress: Sendable {
    let value = Atomic<Int>(0)
}

/// The catalog's queries behind a lock, shareable with the worker's jobs: absent until the
/// load job has run, then the queries or the load's error.
final class LockedQueries: Sendable {
    private let state = Mutex<Result<CatalogQueries, MovieError>?>(nil)

    /// The load's error, once it failed (set before the progress says done).
    private let failure = Mutex<MovieError?>(nil)

    func set(_ result: sending Result<CatalogQueries, MovieError>) {
        if case let .failure(error) = result { failure.withLock { $0 = error } }
        state.withLock { $0 = result }
    }

    /// The load's error, nil while loading or once loaded (never waits for a query).
    var loadError: MovieError? { failure.withLock { $0 } }

    func close() {
        state.withLock { state in
            if case let .success(queries)? = state { queries.close() }
            state = .failure(.storage("the catalog is closed"))
        }
    }

    func withLock<T>(_ body: (CatalogQueries) throws(MovieError) -> T) throws(MovieError) -> T {
        try state.withLock { state throws(MovieError) in
            switch state {
            case let .success(queries)?: return try body(queries)
            case let .failure(error)?: throw error
            case nil: throw .storage("the catalog is still loading")
            }
        }
    }
}
