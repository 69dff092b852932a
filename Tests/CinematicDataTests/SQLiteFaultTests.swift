@testable import CinematicData
import CinematicTestHooks
import CinematicDomain
import Foundation
import Testing

/// Every open, write, fsync and read of the favorites database and the offline cache fails in
/// turn (EIO, ENOSPC, EFBIG, EINTR) through ``FaultVFS``: the API reports it, nothing
/// acknowledged is lost, and the database works again once the fault is gone. Serialized:
/// the rules are global to the process (each names only its own test's files).
@Suite("SQLite fault injection", .serialized)
struct SQLiteFaultTests {
    static let errnos: [Int32] = [EIO, ENOSPC, EFBIG, EINTR]

    init() {
        FaultInjection.installSQLiteShim()
    }

    // MARK: Favorites

    @Test("favorites: a failed write or fsync fails the toggle; what was acknowledged stays; the next write works",
          arguments: [FaultInjection.Operation.write, .fsync], errnos)
    func favoritesWriteFault(operation: FaultInjection.Operation, code: Int32) async throws {
        let path = try faultPath("favorites.sqlite")
        let favorites = try SQLiteFavorites.open(path: path)
        try await favorites.add(faultMovie(1))
        let injected = try await withFault(operation, path: path, errno: code) { () async throws in
            do {
                _ = try await favorites.toggle(faultMovie(2))
                Issue.record("a toggle whose \(operation) failed with \(code) was reported as done")
            } catch let error as MovieError {
                guard case .storage = error else { throw error }
            }
        }
        #expect(injected > 0, "the fault was met")
        #expect(try await favorites.list() == [faultMovie(1)], "the failed toggle changed nothing")
        #expect(try await favorites.toggle(faultMovie(2)).isFavorite, "the next write works")
        favorites.close()
        try await expectFavorites(path, [faultMovie(2), faultMovie(1)])
    }

    @Test("favorites: one EINTR on a write or fsync is retried and the toggle succeeds",
          arguments: [FaultInjection.Operation.write, .fsync])
    func favoritesInterruptedOnce(operation: FaultInjection.Operation) async throws {
        let path = try faultPath("favorites.sqlite")
        let favorites = try SQLiteFavorites.open(path: path)
        try await favorites.add(faultMovie(1))
        let injected = try await withFault(operation, path: path, errno: EINTR, times: 1) { () async throws in
            #expect(try await favorites.toggle(faultMovie(2)).isFavorite)
        }
        #expect(injected == 1)
        favorites.close()
        try await expectFavorites(path, [faultMovie(2), faultMovie(1)])
    }

    @Test("favorites: a failed open, read, write or fsync while opening throws .storage; afterwards it opens with everything",
          arguments: [FaultInjection.Operation.open, .read, .write, .fsync], errnos)
    func favoritesOpenFault(operation: FaultInjection.Operation, code: Int32) async throws {
        let path = try faultPath("favorites.sqlite")
        let existing = operation == .open || operation == .read
        if existing {
            let favorites = try SQLiteFavorites.open(path: path)
            try await favorites.add(faultMovie(1))
            favorites.close()
        }
        let injected = try await withFault(operation, path: path, errno: code) { () async throws in
            #expect(throws: MovieError.self) { try SQLiteFavorites.open(path: path).close() }
        }
        #expect(injected > 0, "the fault was met")
        try await expectFavorites(path, existing ? [faultMovie(1)] : [])
        let favorites = try SQLiteFavorites.open(path: path)
        try await favorites.add(faultMovie(3))
        favorites.close()
        try await expectFavorites(path, existing ? [faultMovie(3), faultMovie(1)] : [faultMovie(3)])
    }

    @Test("favorites: a refresh that failed (reopen, read) is tried again at the next poll, read-only or not",
          arguments: [true, false], [FaultInjection.Operation.open, .read])
    func refreshRetriesAfterAFailure(readOnly: Bool, operation: FaultInjection.Operation) throws {
        let path = try faultPath("favorites.sqlite")
        let writer = try FavoritesDatabase(path: path, readOnly: false)
        _ = try writer.add(faultMovie(1))
        let reader = try FavoritesDatabase(path: path, readOnly: readOnly)
        _ = try writer.add(faultMovie(2))
        let armed = FaultInjection.arm(.init(operation, pathContaining: path, errno: EIO))
        let during = reader.refreshIfChanged()
        let injected = FaultInjection.failures(of: armed)
        FaultInjection.disarm(armed)
        if injected > 0 { #expect(during == nil, "a refresh whose \(operation) failed publishes nothing") }
        let after = during ?? reader.refreshIfChanged()
        #expect(after?.movies == [faultMovie(2), faultMovie(1)], "the change is seen once the fault is gone (\(injected) failed)")
        reader.close()
        writer.close()
    }

    // MARK: Offline cache

    @Test("cache: a failed open, read, write or fsync while opening at an explicit path throws; afterwards it opens and works",
          arguments: [FaultInjection.Operation.open, .read, .write, .fsync], errnos)
    func cacheOpenFault(operation: FaultInjection.Operation, code: Int32) async throws {
        let existing = operation == .open || operation == .read
        let path = existing ? try cacheWithAnswers(3) : try faultPath("cache.sqlite")
        let injected = try await withFault(operation, path: path, errno: code) { () async throws in
            #expect(throws: MovieError.self) { try OfflineCache.open(path: path).close() }
        }
        #expect(injected > 0, "the fault was met")
        let cache = try OfflineCache.open(path: path)
        #expect(cache.status == .working)
        cache.store("movie:new", body: "new", now: 2)
        #expect(await cache.lookup("movie:new", now: 3)?.body == "new")
        if existing { #expect(await cache.usage().count == 4, "nothing stored before was lost") }
        cache.close()
        #expect(try header(path).applicationID == OfflineCacheDatabase.applicationID)
    }

    @Test("cache: a failed write makes that store a miss, reported in status; the cache keeps working",
          arguments: errnos)
    func cacheStoreFault(code: Int32) async throws {
        let path = try cacheWithAnswers(3)
        let cache = try OfflineCache.open(path: path)
        let injected = try await withFault(.write, path: path, errno: code) { () async throws in
            cache.store("movie:lost", body: "lost", now: 2)
            #expect(await cache.lookup("movie:lost", now: 3) == nil)
        }
        #expect(injected > 0, "the fault was met")
        let status = cache.status
        #expect(status.isUsable)
        #expect(status.failures >= 1)
        #expect(status.lastError != nil)
        cache.store("movie:kept", body: "kept", now: 4)
        #expect(await cache.lookup("movie:kept", now: 5)?.body == "kept")
        #expect(await cache.lookup("movie:0", now: 5) != nil, "what was stored before is still there")
        cache.close()
        #expect(try await answerCount(path) == 4)
        #expect(try header(path).applicationID == OfflineCacheDatabase.applicationID)
    }

    @Test("cache: a failed fsync makes that store a miss, reported; an answer that was served is never lost",
          arguments: errnos)
    func cacheFsyncFault(code: Int32) async throws {
        let path = try cacheWithAnswers(3)
        let cache = try OfflineCache.open(path: path)
        let served = try await whileFailing(.fsync, path: path, errno: code) { () async throws -> Bool in
            cache.store("movie:3", body: "three", now: 2)
            return await cache.lookup("movie:3", now: 3)?.body == "three"
        }
        #expect(served || cache.status.lastError != nil, "a store that did not happen is reported")
        cache.store("movie:4", body: "four", now: 4)
        #expect(await cache.lookup("movie:4", now: 5)?.body == "four", "the cache works after the fault")
        cache.close()
        #expect(try await answerCount(path) == (served ? 5 : 4))
        #expect(try header(path).applicationID == OfflineCacheDatabase.applicationID)
    }

    @Test("cache: a failed read during a lookup is a miss, reported; the next lookup finds the answer")
    func cacheReadFault() async throws {
        let path = try cacheWithAnswers(300, bodyBytes: 10_000)   // ~3 MB: more than SQLite's page cache
        let cache = try OfflineCache.open(path: path)
        let injected = try await withFault(.read, path: path, errno: EIO) { () async throws in
            #expect(await cache.lookup("movie:0", now: 2) == nil)
        }
        #expect(injected > 0, "the lookup read the disk")
        #expect(cache.status.lastError != nil, "a failed lookup is reported")
        #expect(await cache.lookup("movie:0", now: 2) != nil)
        #expect(cache.status.isUsable)
        cache.close()
        #expect(try await answerCount(path) == 300)
    }

    // MARK: Helpers

    /// Runs `body` with `operation` on files under `path` failing with `errno` (`times`
    /// times), then disarms; returns how many calls failed.
    private func withFault(_ operation: FaultInjection.Operation, path: String, errno: Int32, times: Int = .max,
                           _ body: () async throws -> Void) async throws -> Int {
        let armed = FaultInjection.arm(.init(operation, pathContaining: path, errno: errno, times: times))
        defer { FaultInjection.disarm(armed) }
        try await body()
        return FaultInjection.failures(of: armed)
    }

    /// Runs `body` with `operation` on files under `path` failing with `errno`, then
    /// disarms; returns what `body` returned.
    private func whileFailing<T>(_ operation: FaultInjection.Operation, path: String, errno: Int32,
                              _ body: () async throws -> T) async throws -> T {
        let armed = FaultInjection.arm(.init(operation, pathContaining: path, errno: errno))
        defer { FaultInjection.disarm(armed) }
        return try await body()
    }

    /// The favorites at `path` after closing and reopening, and the file is ours.
    private func expectFavorites(_ path: String, _ movies: [Movie], sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let favorites = try SQLiteFavorites.open(path: path)
        #expect(try await favorites.list() == movies, sourceLocation: sourceLocation)
        favorites.close()
        #expect(try FavoritesFile.inspect(path) == .ours(isWAL: true), sourceLocation: sourceLocation)
    }
}

/// A fresh path named `name` in a new temporary directory.
private func faultPath(_ name: String) throws -> String {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fault-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory.appendingPathComponent(name).path
}

private func faultMovie(_ id: Int) -> Movie {
    Movie(id: id, title: "Movie \(id)", year: 2000 + id, runtime: 90, rating: 7.5, votes: 100, genres: ["Drama"], mpaa: nil)
}
