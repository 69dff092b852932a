import CinematicData
import CinematicDomain
import Testing

/// SQLiteFavorites, the favorites file: one suite over several files by concept. Here the
/// basics and observation; versions (SQLiteFavoritesVersionTests.swift), persistence and WAL
/// (SQLiteFavoritesPersistenceTests.swift), failures (SQLiteFavoritesFailureTests.swift), other
/// connections and other programs' files (SQLiteFavoritesSharingTests.swift); the helpers in
/// SQLiteFavoritesSupport.swift.
@Suite("SQLite favorites")
struct SQLiteFavoritesTests {
    // MARK: Basics

    @Test("add lists the most recently added first; a repeated add neither duplicates nor moves")
    func addOrdersByRecency() async throws {
        let favorites = try SQLiteFavorites.open(path: ":memory:")
        let (a, b, c) = (favoriteMovie(1), favoriteMovie(2), favoriteMovie(3))
        try await favorites.add(a)
        try await favorites.add(b)
        try await favorites.add(c)
        try await favorites.add(a)
        #expect(try await favorites.list() == [c, b, a])
    }

    @Test("remove deletes one favorite; removing an absent id is a no-op")
    func removeDeletes() async throws {
        let favorites = try SQLiteFavorites.open(path: ":memory:")
        try await favorites.add(favoriteMovie(1))
        try await favorites.add(favoriteMovie(2))
        try await favorites.remove(id: 1)
        try await favorites.remove(id: 99)
        #expect(try await favorites.list() == [favoriteMovie(2)])
    }

    @Test("a re-added movie goes back to the front")
    func readdGoesToFront() async throws {
        let favorites = try SQLiteFavorites.open(path: ":memory:")
        try await favorites.add(favoriteMovie(1))
        try await favorites.add(favoriteMovie(2))
        try await favorites.remove(id: 1)
        try await favorites.add(favoriteMovie(1))
        #expect(try await favorites.list().map(\.id) == [1, 2])
    }

    @Test("every list field survives the round trip, with no catalog")
    func fieldsRoundTrip() async throws {
        let favorites = try SQLiteFavorites.open(path: ":memory:")
        let odd = [
            Movie(id: 7, title: "Amélie ✨ \"quoted\", with commas", year: 2001, runtime: 122, rating: 8.25, votes: 12_345,
                  genres: ["Comedy", "Romance"], mpaa: "R"),
            Movie(id: 8, title: "", year: 0, runtime: 0, rating: 0, votes: 0, genres: [], mpaa: nil),
            Movie(id: 9, title: "One genre", year: 1999, runtime: 5, rating: 1, votes: 1, genres: ["Short"], mpaa: nil),
        ]
        for movie in odd { try await favorites.add(movie) }
        #expect(try await favorites.list() == odd.reversed())
    }

    // MARK: Observation

    @Test("observe yields the current list at once, then the list after every change")
    func observeFollowsChanges() async throws {
        let favorites = try SQLiteFavorites.open(path: ":memory:")
        try await favorites.add(favoriteMovie(1))
        var lists = favorites.observe().makeAsyncIterator()
        #expect(await lists.next()?.movies == [favoriteMovie(1)])
        try await favorites.add(favoriteMovie(2))
        #expect(await lists.next()?.movies == [favoriteMovie(2), favoriteMovie(1)])
        try await favorites.remove(id: 1)
        #expect(await lists.next()?.movies == [favoriteMovie(2)])
    }

    @Test("a write that changes nothing notifies no one")
    func noOpWritesAreSilent() async throws {
        let favorites = try SQLiteFavorites.open(path: ":memory:")
        try await favorites.add(favoriteMovie(1))
        let recorder = ListRecorder(favorites.observe())
        defer { recorder.stop() }
        try await pollUntil { recorder.lists.count == 1 }
        try await favorites.add(favoriteMovie(1))      // already there
        try await favorites.remove(id: 42)             // absent
        try await Task.sleep(for: .milliseconds(50))   // a wrong notification would arrive by now
        #expect(recorder.lists == [[favoriteMovie(1)]])
        try await favorites.remove(id: 1)
        try await pollUntil { recorder.lists.count == 2 }
        #expect(recorder.lists == [[favoriteMovie(1)], []])
    }

    @Test("every observer of one instance hears of a change")
    func everyObserverHears() async throws {
        let favorites = try SQLiteFavorites.open(path: ":memory:")
        var first = favorites.observe().makeAsyncIterator()
        var second = favorites.observe().makeAsyncIterator()
        #expect(await first.next()?.movies == [])
        #expect(await second.next()?.movies == [])
        try await favorites.add(favoriteMovie(5))
        #expect(await first.next()?.movies == [favoriteMovie(5)])
        #expect(await second.next()?.movies == [favoriteMovie(5)])
    }

    @Test("a change is committed before observers hear of it")
    func committedBeforeNotified() async throws {
        let path = try temporaryFavoritesPath()
        let favorites = try SQLiteFavorites.open(path: path)
        var lists = favorites.observe().makeAsyncIterator()
        _ = await lists.next()
        try await favorites.add(favoriteMovie(1))
        #expect(await lists.next()?.movies == [favoriteMovie(1)])
        // A second connection sees the row: it is in the database, not only in memory.
        let other = try SQLiteFavorites.open(path: path)
        #expect(try await other.list() == [favoriteMovie(1)])
    }

    @Test("cancelling the consuming task ends the observation")
    func cancellingEndsObservation() async throws {
        let favorites = try SQLiteFavorites.open(path: ":memory:")
        let consumer = Task {
            var count = 0
            for await _ in favorites.observe() { count += 1 }
            return count
        }
        try await pollUntil { favorites.observerCount == 1 }
        consumer.cancel()
        _ = await consumer.value
        try await pollUntil { favorites.observerCount == 0 }
    }

    @Test("concurrent writers end consistent: no duplicates, and the last list observed is the stored one")
    func concurrentWritersEndConsistent() async throws {
        let favorites = try SQLiteFavorites.open(path: ":memory:")
        let observed = LastList()
        let consumer = Task { for await snapshot in favorites.observe() { observed.set(snapshot.movies) } }
        defer { consumer.cancel() }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    for step in 0..<25 {
                        let id = (worker * 7 + step) % 10
                        if step % 3 == 2 { try await favorites.remove(id: id) } else { try await favorites.add(favoriteMovie(id)) }
                    }
                }
            }
            try await group.waitForAll()
        }
        let stored = try await favorites.list()
        #expect(Set(stored.map(\.id)).count == stored.count)
        try await pollUntil { observed.get() == stored }
    }
}
