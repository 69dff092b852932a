import CinematicData
import CinematicDomain
import Synchronization
import Testing

@Suite("Cached movie catalog")
struct CachedMovieCatalogTests {
    @Test("a live answer is marked live; when the network fails the cached copy is served, for search, discover and detail",
          arguments: [MovieError.network("offline"), .timeout("no answer")])
    func servedFromCacheOnFailure(failure: MovieError) async throws {
        let fixture = try Fixture()
        defer { fixture.cache.close() }
        let live = try await fixture.catalog.search(matching: "dune", page: 1)
        #expect(live == Sourced([film(1, "Dune")], source: .live))
        #expect(try await fixture.catalog.discover(section: .popular, page: 2).source == .live)
        #expect(try await fixture.catalog.detail(id: 1).source == .live)

        fixture.remote.fail(with: failure)
        fixture.now.withLock { $0 = 2_000 }
        #expect(try await fixture.catalog.search(matching: "dune", page: 1) == Sourced([film(1, "Dune")], source: .cache(cachedAt: 1_000)))
        #expect(try await fixture.catalog.discover(section: .popular, page: 2) == Sourced([film(2, "popular 2")], source: .cache(cachedAt: 1_000)))
        #expect(try await fixture.catalog.detail(id: 1) == Sourced(MovieDetail(movie: film(1, "movie 1"), budget: nil, ratingDistribution: []), source: .cache(cachedAt: 1_000)))
    }

    @Test("nothing cached: the error stays; other errors are never covered up")
    func errorsWithoutACopy() async throws {
        let fixture = try Fixture()
        defer { fixture.cache.close() }
        _ = try await fixture.catalog.detail(id: 1)
        fixture.remote.fail(with: .network("offline"))
        await #expect(throws: MovieError.network("offline")) { try await fixture.catalog.search(matching: "alien", page: 1) }
        await #expect(throws: MovieError.network("offline")) { try await fixture.catalog.discover(section: .topRated, page: 1) }
        fixture.remote.fail(with: .notFound)
        await #expect(throws: MovieError.notFound) { try await fixture.catalog.detail(id: 1) }
    }

    @Test("searches are cached by their normalised words and page")
    func searchKeyIsNormalised() async throws {
        #expect(CachedMovieCatalog.key(search: "  Dune!", page: 1) == CachedMovieCatalog.key(search: "dune", page: 1))
        #expect(CachedMovieCatalog.key(search: "Amélie", page: 1) == CachedMovieCatalog.key(search: "amelie", page: 1))
        #expect(CachedMovieCatalog.key(search: "dune", page: 1) != CachedMovieCatalog.key(search: "dune", page: 2))
        let fixture = try Fixture()
        defer { fixture.cache.close() }
        _ = try await fixture.catalog.search(matching: "Dune", page: 1)
        fixture.remote.fail(with: .network("offline"))
        #expect(try await fixture.catalog.search(matching: "dune ", page: 1).source == .cache(cachedAt: 1_000))
        await #expect(throws: MovieError.network("offline")) { try await fixture.catalog.search(matching: "dune", page: 2) }
    }

    @Test("an expired copy is not served")
    func expiredCopy() async throws {
        let fixture = try Fixture(ttlSeconds: 100)
        defer { fixture.cache.close() }
        _ = try await fixture.catalog.search(matching: "dune", page: 1)
        fixture.remote.fail(with: .network("offline"))
        fixture.now.withLock { $0 = 1_099 }
        #expect(try await fixture.catalog.search(matching: "dune", page: 1).source == .cache(cachedAt: 1_000))
        fixture.now.withLock { $0 = 1_100 }
        await #expect(throws: MovieError.network("offline")) { try await fixture.catalog.search(matching: "dune", page: 1) }
    }

    @Test("a later live success replaces the copy")
    func liveReplacesCopy() async throws {
        let fixture = try Fixture()
        defer { fixture.cache.close() }
        _ = try await fixture.catalog.search(matching: "dune", page: 1)
        fixture.remote.rename("Dune (2021)")
        fixture.now.withLock { $0 = 1_500 }
        #expect(try await fixture.catalog.search(matching: "dune", page: 1) == Sourced([film(1, "Dune (2021)")], source: .live))
        fixture.remote.fail(with: .network("offline"))
        #expect(try await fixture.catalog.search(matching: "dune", page: 1) == Sourced([film(1, "Dune (2021)")], source: .cache(cachedAt: 1_500)))
    }

    @Test("one cache, several sources: a copy is only ever served to the source that stored it")
    func copiesArePerSource() async throws {
        let cache = try OfflineCache.open(path: ":memory:")
        defer { cache.close() }
        let remote = ScriptedRemote()
        func catalog(_ scope: CachedMovieCatalog.Scope) -> CachedMovieCatalog {
            CachedMovieCatalog(remote: remote, cache: cache, coder: LineCoder(), scope: scope, now: { 1_000 })
        }
        let first = catalog(.source("http://a")), second = catalog(.source("http://b"))
        let prefix = catalog(.source("http://")), anonymous = catalog(.anonymous)
        _ = try await first.search(matching: "dune", page: 1)
        remote.fail(with: .network("offline"))
        #expect(try await first.search(matching: "dune", page: 1).source == .cache(cachedAt: 1_000))
        for other in [second, prefix, anonymous] {
            await #expect(throws: MovieError.network("offline")) { try await other.search(matching: "dune", page: 1) }
        }
        remote.fail(with: nil)
        _ = try await anonymous.detail(id: 7)
        remote.fail(with: .network("offline"))
        #expect(try await anonymous.detail(id: 7).source == .cache(cachedAt: 1_000))
        await #expect(throws: MovieError.network("offline")) { try await catalog(.source("anonymous")).detail(id: 7) }
        await #expect(throws: MovieError.network("offline")) { try await first.detail(id: 7) }
    }
}

/// A cache over a scripted remote, with "now" set by the test.
private struct Fixture {
    let remote = ScriptedRemote()
    let cache: OfflineCache
    let now = SharedTime()
    let catalog: CachedMovieCatalog

    init(ttlSeconds: Int = OfflineCache.defaultTTLSeconds) throws {
        cache = try OfflineCache.open(path: ":memory:", ttlSeconds: ttlSeconds)
        catalog = CachedMovieCatalog(remote: remote, cache: cache, coder: LineCoder(), now: { [now] in now.withLock { $0 } })
    }
}

private final class SharedTime: Sendable {
    private let value = Mutex<Int64>(1_000)
    func withLock<T>(_ body: (inout Int64) -> T) -> T { value.withLock { body(&$0) } }
}

private func film(_ id: Int, _ title: String) -> Movie {
    Movie(id: id, title: title, year: 2000, runtime: 0, rating: 0, votes: 0, genres: [], mpaa: nil)
}

/// Answers every search with one film titled as the query (or the renamed title), every
/// Discover page with "<section> <page>", every detail with "movie <id>"; or fails.
private final class ScriptedRemote: MovieCatalogRepository {
    private let failure = Mutex<MovieError?>(nil)
    private let title = Mutex<String?>(nil)

    func fail(with error: MovieError?) { failure.withLock { $0 = error } }
    func rename(_ newTitle: String) { title.withLock { $0 = newTitle } }

    private func check() throws(MovieError) {
        if let error = failure.withLock({ $0 }) { throw error }
    }

    func search(matching query: String, page: Int) async throws(MovieError) -> Sourced<[Movie]> {
        try check()
        return Sourced([film(1, title.withLock { $0 } ?? query.capitalized)], source: .live)
    }

    func discover(section: DiscoverSection, page: Int) async throws(MovieError) -> Sourced<[Movie]> {
        try check()
        return Sourced([film(page, "\(section) \(page)")], source: .live)
    }

    func detail(id: Int) async throws(MovieError) -> Sourced<MovieDetail> {
        try check()
        return Sourced(MovieDetail(movie: film(id, "movie \(id)"), budget: nil, ratingDistribution: []), source: .live)
    }
}

extension String {
    fileprivate var capitalized: String { prefix(1).uppercased() + dropFirst() }
}

/// A coder for tests: one line per movie, "id<TAB>title".
private struct LineCoder: AnswerCoder {
    func encode(_ movies: [Movie]) -> String { movies.map { "\($0.id)\t\($0.title)" }.joined(separator: "\n") }
    func encode(_ detail: MovieDetail) -> String { encode([detail.movie]) }
    func decodeMovies(_ text: String) -> [Movie]? {
        text.split(separator: "\n").map { line in
            let parts = line.split(separator: "\t", maxSplits: 1)
            return film(Int(parts[0]) ?? 0, String(parts[1]))
        }
    }
    func decodeDetail(_ text: String) -> MovieDetail? {
        decodeMovies(text)?.first.map { MovieDetail(movie: $0, budget: nil, ratingDistribution: []) }
    }
}
