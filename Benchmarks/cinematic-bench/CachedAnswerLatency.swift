import CinematicData
import CinematicDomain
import Cinematic
import Foundation
import Synchronization

/// A cached answer served when the remote catalog fails: `CachedMovieCatalog.search`
/// with a remote that throws `network`, over a cache file holding 500 searches of 20 movies
/// (the provider's JSON, as the runtime stores them). Timed from the call to the decoded
/// answer: the failure, the lookup on the cache's thread (an await and two thread hops),
/// decoding. Also the SQLite lookup alone, on the calling thread; and through the C API, from
/// `cinematic_runtime_respond` with a `network` error to the settled state showing the copy
/// (`"source":"cache"`).
enum CachedAnswerLatency {
    static let rounds = 4_000
    static let queries = 500

    static func run(catalogPath: String, directory: URL) async throws {
        let catalog = try SQLiteMovieCatalog.open(.index(path: catalogPath))
        defer { catalog.close() }
        let page = try await catalog.searchMovies(matching: "star", page: 1)
        let remote = SwitchableRemote(movies: page)
        let cache = try OfflineCache.open(path: directory.appendingPathComponent("offline-cache.sqlite").path)
        defer { cache.close() }
        let cached = CachedMovieCatalog(remote: remote, cache: cache, coder: CachedAnswerJSON(),
                                        now: { Int64(Date().timeIntervalSince1970) })
        let names = (0..<queries).map { "query \($0)" }
        // Live: stored. Waiting for the writes every 128 stores keeps the queue under
        // OfflineCache.maximumPendingStores (256), past which stores are dropped: on a busy
        // machine the cache's thread falls behind and the lookups below would miss.
        for (index, name) in names.enumerated() {
            _ = try await cached.search(matching: name, page: 1)
            if index % 128 == 127 { _ = await cache.usage() }
        }
        _ = await cache.usage()                                                           // every store written
        remote.fail(true)
        let clock = ContinuousClock()
        var served: [Duration] = []
        var sqliteOnly: [Duration] = []
        for round in 0..<rounds {
            let name = names[(round * 7919) % queries]
            let start = clock.now
            let answer = try await cached.search(matching: name, page: 1)
            served.append(clock.now - start)
            guard case .cache = answer.source, answer.value.count == page.count else { throw BenchError("not served from the cache") }
            let key = CachedMovieCatalog.Scope.anonymous.prefix + CachedMovieCatalog.key(search: name, page: 1)
            let direct = clock.now
            guard cache.lookupNow(key, now: Int64(Date().timeIntervalSince1970)) != nil else { throw BenchError("missing \(key)") }
            sqliteOnly.append(clock.now - direct)
        }
        print("offline cache: a cached search answer (\(page.count) movies) served when the remote fails, \(rounds) lookups over \(queries) cached searches")
        print("  served (failure, lookup on the cache's thread, decode)  p50 \(Report.format(Report.percentile(served, 0.5)))  p99 \(Report.format(Report.percentile(served, 0.99)))  (goal p99 < 1 ms)")
        print("  SQLite lookup alone, calling thread                    p50 \(Report.format(Report.percentile(sqliteOnly, 0.5)))  p99 \(Report.format(Report.percentile(sqliteOnly, 0.99)))")
        let abi = try throughTheCAPI(answer: CachedAnswerJSON().encode(page),
                                     cachePath: directory.appendingPathComponent("abi-cache.sqlite").path)
        print("  C API: respond(network error) to the settled state with the copy  p50 \(Report.format(Report.percentile(abi, 0.5)))  p99 \(Report.format(Report.percentile(abi, 0.99)))")
    }

    /// A host-catalog search store over a cache holding "dune": each round submits, answers
    /// the request with a network error and waits (settle) for the state showing the copy.
    static func throughTheCAPI(answer: String, cachePath: String) throws -> [Duration] {
        var runtime: OpaquePointer?
        var store: OpaquePointer?
        let config = #"{"clock":"manual","catalog":"host","offlineCache":{"path":"\#(cachePath)"}}"#
        try ABIRoundTrip.check(cinematic_runtime_open(config, &runtime), "runtime_open")
        defer { _ = cinematic_runtime_close(runtime) }
        let provider: @convention(c) (UnsafeMutableRawPointer?, UInt64, UnsafePointer<CChar>?) -> Void = { userdata, id, json in
            guard let json, strstr(json, #""op":"search""#) != nil else { return }
            userdata!.assumingMemoryBound(to: Atomic<UInt64>.self).pointee.store(id, ordering: .releasing)
        }
        // The id of the last search request. The provider is called from the search effect,
        // which `send` starts up to its first suspension; the request is then delivered on the
        // runtime's delivery thread, possibly after `send` returned: `submit` waits for it.
        let box = UnsafeMutablePointer<Atomic<UInt64>>.allocate(capacity: 1)
        box.initialize(to: Atomic<UInt64>(0))
        defer { box.deinitialize(count: 1); box.deallocate() }
        try ABIRoundTrip.check(cinematic_runtime_set_provider(runtime, provider, UnsafeMutableRawPointer(box)), "set_provider")
        try ABIRoundTrip.check(cinematic_store_open(runtime, "search", nil, &store), "store_open")
        try ABIRoundTrip.check(cinematic_store_send(store, #"{"type":"queryChanged","query":"dune"}"#), "send")
        func submit() throws -> UInt64 {
            let previous = box.pointee.load(ordering: .acquiring)
            try ABIRoundTrip.check(cinematic_store_send(store, #"{"type":"submitted"}"#), "send")
            let deadline = ContinuousClock.now + .seconds(10)
            while box.pointee.load(ordering: .acquiring) == previous {
                guard ContinuousClock.now < deadline else { throw BenchError("no search request reached the provider") }
                usleep(20)
            }
            return box.pointee.load(ordering: .acquiring)
        }
        try ABIRoundTrip.check(cinematic_runtime_respond(runtime, try submit(), answer), "respond")
        try ABIRoundTrip.check(cinematic_store_settle(store, 10_000), "settle")
        let clock = ContinuousClock()
        var samples: [Duration] = []
        for _ in 0..<rounds / 4 {
            let id = try submit()
            let start = clock.now
            try ABIRoundTrip.check(cinematic_runtime_respond(runtime, id, #"{"error":{"code":"network","message":"offline"}}"#), "respond")
            try ABIRoundTrip.check(cinematic_store_settle(store, 10_000), "settle")
            samples.append(clock.now - start)
        }
        var json: UnsafeMutablePointer<CChar>?
        try ABIRoundTrip.check(cinematic_store_state(store, &json), "state")
        defer { cinematic_free(json) }
        let state = json.map { String(cString: $0) } ?? ""
        guard state.contains(#""source":"cache""#) else { throw BenchError("the copy was not shown: \(state)") }
        return samples
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

    func search(matching query: String, page: Int) async throws(MovieError) -> Sourced<[Movie]> { Sourced(try answer(), source: .live) }
    func discover(section: DiscoverSection, page: Int) async throws(MovieError) -> Sourced<[Movie]> { Sourced(try answer(), source: .live) }
    func detail(id: Int) async throws(MovieError) -> Sourced<MovieDetail> { throw .notFound }
}
