import CinematicData
import CinematicDomain
import Cinematic
import Foundation
import Synchronization

/// A cached answer served when the remote catalog fails: `CachedMovieCatalog.sourcedSearch`
/// with a remote that throws `network`, over a cache file holding 500 searches of 20 movies
/// (the provider's JSON, as the runtime stores them). Timed from the call to the decoded
/// answer: the failure, the lookup on the cache's thread (an await and two thread hops),
/// decoding. Also the SQLite lookup alone, on the calling thread.
enum CachedAnswerLatency {
    static let rounds = 4_000
    static let queries = 500

    static func run(catalogPath: String, directory: URL) async throws {
        let catalog = try SQLiteMovieCatalog.open(path: catalogPath)
        defer { catalog.close() }
        let page = try await catalog.searchMovies(matching: "star", page: 1)
        let remote = SwitchableRemote(movies: page)
        let cache = try OfflineCache.open(path: directory.appendingPathComponent("offline-cache.sqlite").path)
        defer { cache.close() }
        let cached = CachedMovieCatalog(remote: remote, cache: cache, coder: CinematicBenchmarks.offlineCacheCoder(),
                                        now: { Int64(Date().timeIntervalSince1970) })
        let names = (0..<queries).map { "query \($0)" }
        for name in names { _ = try await cached.sourcedSearch(matching: name, page: 1) }   // live: stored
        _ = await cache.usage()                                                           // every store written
        remote.fail(true)
        let clock = ContinuousClock()
        var served: [Duration] = []
        var sqliteOnly: [Duration] = []
        for round in 0..<rounds {
            let name = names[(round * 7919) % queries]
            let start = clock.now
            let answer = try await cached.sourcedSearch(matching: name, page: 1)
            served.append(clock.now - start)
            guard case .cache = answer.source, answer.value.count == page.count else { throw BenchError("not served from the cache") }
            let key = CachedMovieCatalog.key(search: name, page: 1)
            let direct = clock.now
            guard cache.lookupNow(key, now: Int64(Date().timeIntervalSince1970)) != nil else { throw BenchError("missing \(key)") }
            sqliteOnly.append(clock.now - direct)
        }
        print("offline cache: a cached search answer (\(page.count) movies) served when the remote fails, \(rounds) lookups over \(queries) cached searches")
        print("  served (failure, lookup on the cache's thread, decode)  p50 \(Report.format(Report.percentile(served, 0.5)))  p99 \(Report.format(Report.percentile(served, 0.99)))  (goal p99 < 1 ms)")
        print("  SQLite lookup alone, calling thread                    p50 \(Report.format(Report.percentile(sqliteOnly, 0.5)))  p99 \(Report.format(Report.percentile(sqliteOnly, 0.99)))")
    }
}

/// A remote that answers `movies` until told to fail with `network`.
private final class SwitchableRemote: MovieCatalogRepository {
    private let movies: [Movie]
    private let failing = Atomic<Bool>(false)

    init(movies: [Movie]) { self.movies = movies }

    func fail(_ value: Bool) { failing.store(value, ordering: .relaxed) }

    private func answer() throws(MovieError) -> [Movie] {
        if failing.load(ordering: .relaxed) { throw .network("offline") }
        return movies
    }

    func searchMovies(matching query: String, page: Int) async throws(MovieError) -> [Movie] { try answer() }
    func movies(in section: DiscoverSection, page: Int) async throws(MovieError) -> [Movie] { try answer() }
    func movieDetail(id: Int) async throws(MovieError) -> MovieDetail { throw .notFound }
}
