import CinematicData
import CinematicDomain
import Testing

/// SQLite favorites: versions count committed changes, per instance, and only ever increase.
extension SQLiteFavoritesTests {
    // MARK: Versions

    @Test("versions start at 1 and add 1 per committed change; add and remove return the new version")
    func versionsCountChanges() async throws {
        let favorites = try SQLiteFavorites.open(path: ":memory:")
        var snapshots = favorites.observe().makeAsyncIterator()
        #expect(await snapshots.next() == FavoritesSnapshot(version: 1, movies: []))
        #expect(try await favorites.add(favoriteMovie(1)) == 2)
        #expect(await snapshots.next() == FavoritesSnapshot(version: 2, movies: [favoriteMovie(1)]))
        #expect(try await favorites.add(favoriteMovie(2)) == 3)
        #expect(await snapshots.next() == FavoritesSnapshot(version: 3, movies: [favoriteMovie(2), favoriteMovie(1)]))
        #expect(try await favorites.remove(id: 1) == 4)
        #expect(await snapshots.next() == FavoritesSnapshot(version: 4, movies: [favoriteMovie(2)]))
    }

    @Test("a no-op add or remove returns the unchanged version and notifies no one")
    func noOpKeepsTheVersion() async throws {
        let favorites = try SQLiteFavorites.open(path: ":memory:")
        #expect(try await favorites.add(favoriteMovie(1)) == 2)
        let recorder = ListRecorder(favorites.observe())
        defer { recorder.stop() }
        try await pollUntil { recorder.snapshots.count == 1 }
        #expect(try await favorites.add(favoriteMovie(1)) == 2)     // already there
        #expect(try await favorites.remove(id: 42) == 2)            // absent
        #expect(try await favorites.remove(id: 1) == 3)
        #expect(try await favorites.remove(id: 1) == 3)             // gone already
        try await pollUntil { recorder.snapshots.count == 2 }
        try await Task.sleep(for: .milliseconds(50))   // a wrong notification would arrive by now
        #expect(recorder.snapshots == [FavoritesSnapshot(version: 2, movies: [favoriteMovie(1)]),
                                       FavoritesSnapshot(version: 3, movies: [])])
    }

    @Test("a failed write keeps the version; the next committed change takes the next one")
    func failedWriteKeepsTheVersion() async throws {
        let favorites = try SQLiteFavorites.open(path: ":memory:")
        try await favorites.add(favoriteMovie(1))
        try await favorites.setReadOnly(true)
        await #expect(throws: MovieError.self) { try await favorites.add(favoriteMovie(2)) }
        await #expect(throws: MovieError.self) { try await favorites.remove(id: 1) }
        try await favorites.setReadOnly(false)
        var snapshots = favorites.observe().makeAsyncIterator()
        #expect(await snapshots.next() == FavoritesSnapshot(version: 2, movies: [favoriteMovie(1)]))
        #expect(try await favorites.add(favoriteMovie(2)) == 3)
        #expect(await snapshots.next()?.version == 3)
    }

    @Test("versions are per instance: a reopened file starts again at 1 with what it holds")
    func versionsRestartPerInstance() async throws {
        let path = try temporaryFavoritesPath()
        do {
            let favorites = try SQLiteFavorites.open(path: path)
            #expect(try await favorites.add(favoriteMovie(1)) == 2)
            #expect(try await favorites.add(favoriteMovie(2)) == 3)
        }
        let reopened = try SQLiteFavorites.open(path: path)
        var snapshots = reopened.observe().makeAsyncIterator()
        #expect(await snapshots.next() == FavoritesSnapshot(version: 1, movies: [favoriteMovie(2), favoriteMovie(1)]))
        #expect(try await reopened.remove(id: 2) == 2)
    }

    @Test("concurrent writers: every observer sees strictly increasing versions, ending on the last write's")
    func concurrentVersionsIncrease() async throws {
        let favorites = try SQLiteFavorites.open(path: ":memory:")
        let recorder = ListRecorder(favorites.observe())
        defer { recorder.stop() }
        try await pollUntil { recorder.snapshots.count == 1 }
        let returned = try await withThrowingTaskGroup(of: [UInt64].self) { group in
            for worker in 0..<8 {
                group.addTask {
                    var versions: [UInt64] = []
                    for step in 0..<25 {
                        let id = (worker * 7 + step) % 10
                        versions.append(step % 3 == 2 ? try await favorites.remove(id: id) : try await favorites.add(favoriteMovie(id)))
                    }
                    return versions
                }
            }
            return try await group.reduce(into: [UInt64]()) { $0 += $1 }
        }
        let last = try #require(returned.max())
        try await pollUntil { recorder.versions.last == last }
        let versions = recorder.versions
        #expect(zip(versions, versions.dropFirst()).allSatisfy { $0 < $1 })
        #expect(recorder.lists.last == (try await favorites.list()))
    }
}
