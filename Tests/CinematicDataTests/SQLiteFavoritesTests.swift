import CinematicData
import CinematicDomain
import Foundation
import Synchronization
import Testing

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

    // MARK: Persistence and WAL

    @Test("favorites persist across reopening the file, in order")
    func persistAcrossReopen() async throws {
        let path = try temporaryFavoritesPath()
        do {
            let favorites = try SQLiteFavorites.open(path: path)
            try await favorites.add(favoriteMovie(1))
            try await favorites.add(favoriteMovie(2))
            try await favorites.add(favoriteMovie(3))
            try await favorites.remove(id: 2)
        }
        let reopened = try SQLiteFavorites.open(path: path)
        #expect(try await reopened.list() == [favoriteMovie(3), favoriteMovie(1)])
        var lists = reopened.observe().makeAsyncIterator()
        #expect(await lists.next()?.movies == [favoriteMovie(3), favoriteMovie(1)])
    }

    @Test("read-only opening lists what is stored, refuses every write and never writes the file")
    func readOnlyOpening() async throws {
        let path = try temporaryFavoritesPath()
        do {
            let favorites = try SQLiteFavorites.open(path: path)
            try await favorites.add(favoriteMovie(1))
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let readOnly = try SQLiteFavorites.openReadOnly(path: path)
        #expect(try await readOnly.list() == [favoriteMovie(1)])
        await #expect(throws: MovieError.self) { try await readOnly.add(favoriteMovie(2)) }
        await #expect(throws: MovieError.self) { try await readOnly.remove(id: 1) }
        #expect(try await readOnly.list() == [favoriteMovie(1)])
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)

        let missing = FileSystemPath.directory(of: path) + "/missing.sqlite"
        #expect(throws: MovieError.self) { try SQLiteFavorites.openReadOnly(path: missing) }
        #expect(!FileManager.default.fileExists(atPath: missing))
    }

    @Test("a file database is in WAL mode: SQLite says so, the header says so, the -wal file exists")
    func walModeIsOn() async throws {
        let path = try temporaryFavoritesPath()
        let favorites = try SQLiteFavorites.open(path: path)
        try await favorites.add(favoriteMovie(1))
        #expect(try await favorites.journalMode() == "wal")
        // Bytes 18 and 19 of the database header (file format write/read versions) are 2 in WAL mode.
        let header = try #require(FileManager.default.contents(atPath: path))
        #expect(header.count >= 100)
        #expect(header[18] == 2 && header[19] == 2)
        #expect(FileManager.default.fileExists(atPath: path + "-wal"))
    }

    @Test(":memory: works, with SQLite's memory journal")
    func memoryDatabase() async throws {
        let favorites = try SQLiteFavorites.open(path: ":memory:")
        #expect(try await favorites.journalMode() == "memory")
        #expect(try await favorites.list() == [])
    }

    // MARK: Failures

    @Test("a failed write throws .storage with SQLite's message, changes nothing and notifies no one")
    func failedWriteThrowsStorage() async throws {
        let favorites = try SQLiteFavorites.open(path: ":memory:")
        try await favorites.add(favoriteMovie(1))
        let recorder = ListRecorder(favorites.observe())
        defer { recorder.stop() }
        try await pollUntil { recorder.lists.count == 1 }
        try await favorites.setReadOnly(true)
        await #expect(throws: MovieError.storage("attempt to write a readonly database")) {
            try await favorites.add(favoriteMovie(2))
        }
        await #expect(throws: MovieError.storage("attempt to write a readonly database")) {
            try await favorites.remove(id: 1)
        }
        #expect(try await favorites.list() == [favoriteMovie(1)])
        try await Task.sleep(for: .milliseconds(50))   // a wrong notification would arrive by now
        #expect(recorder.lists == [[favoriteMovie(1)]])
        try await favorites.setReadOnly(false)
        try await favorites.add(favoriteMovie(3))
        try await pollUntil { recorder.lists.count == 2 }
        #expect(recorder.lists == [[favoriteMovie(1)], [favoriteMovie(3), favoriteMovie(1)]])
    }

    @Test("a path that cannot be opened throws .storage")
    func unopenablePathThrows() {
        let error = #expect(throws: MovieError.self) {
            _ = try SQLiteFavorites.open(path: "/nonexistent-\(UUID().uuidString)/favorites.sqlite")
        }
        #expect(isStorage(error))
        #expect(error?.message.contains("cannot open") == true)
    }

    @Test("a favorites file from a newer schema is refused, not misread")
    func newerSchemaRefused() async throws {
        let path = try temporaryFavoritesPath()
        _ = try SQLiteFavorites.open(path: path)   // closed at once: the WAL is checkpointed away
        // `user_version` is the big-endian integer at offset 60 of the database header.
        let file = try #require(FileHandle(forUpdatingAtPath: path))
        try file.seek(toOffset: 60)
        try file.write(contentsOf: Data([0, 0, 0, 99]))
        try file.close()
        let error = #expect(throws: MovieError.self) { _ = try SQLiteFavorites.open(path: path) }
        #expect(isStorage(error))
        #expect(error?.message.contains("version 99") == true)
    }

    @Test("a write-protected file opens read-only: listing works, writes throw .storage",
          .enabled(if: getuid() != 0, "root ignores file permissions"))
    func writeProtectedFile() async throws {
        let path = try temporaryFavoritesPath()
        do {
            let favorites = try SQLiteFavorites.open(path: path)
            try await favorites.add(favoriteMovie(1))
        }
        chmod(path, 0o444)
        let favorites = try SQLiteFavorites.open(path: path)
        #expect(try await favorites.list() == [favoriteMovie(1)])
        let error = await #expect(throws: MovieError.self) { try await favorites.add(favoriteMovie(2)) }
        #expect(isStorage(error))
    }

    // MARK: Other connections, other programs' files

    @Test("two instances on one file: each hears of the other's changes, with a new version")
    func otherConnectionsChangesAreObserved() async throws {
        let path = try temporaryFavoritesPath()
        let a = try SQLiteFavorites.open(path: path)
        let b = try SQLiteFavorites.open(path: path)
        let recorder = ListRecorder(a.observe())
        defer { recorder.stop() }
        try await pollUntil { recorder.snapshots.count == 1 }
        try await b.add(favoriteMovie(1))
        try await pollUntil { recorder.lists.last == [favoriteMovie(1)] }
        try await b.remove(id: 1)
        try await pollUntil { recorder.lists.last == [] }
        #expect(recorder.versions == [1, 2, 3])
    }

    @Test("toggle flips what is stored, even when this instance has not seen the other's change yet")
    func toggleFlipsStorage() async throws {
        let path = try temporaryFavoritesPath()
        let a = try SQLiteFavorites.open(path: path)
        let b = try SQLiteFavorites.open(path: path)
        try await b.add(favoriteMovie(1))
        let removed = try await a.toggle(favoriteMovie(1))   // A may still believe it is absent
        #expect(removed.isFavorite == false)
        #expect(try await b.list() == [])
        let added = try await a.toggle(favoriteMovie(1))
        #expect(added.isFavorite == true && added.version > removed.version)
        #expect(try await b.list() == [favoriteMovie(1)])
    }

    @Test("a file that is not ours is refused and left byte for byte as it was", arguments: [
        Data("a shopping list\n".utf8),
        Data("SQLite format 3\0".utf8) + Data(repeating: 0, count: 84),   // another program's header (application_id 0, user_version 0)
    ])
    func foreignFilesAreUntouched(content: Data) async throws {
        let path = try temporaryFavoritesPath()
        try content.write(to: URL(fileURLWithPath: path))
        for readOnly in [false, true] {
            let error = #expect(throws: MovieError.self) {
                _ = readOnly ? try SQLiteFavorites.openReadOnly(path: path) : try SQLiteFavorites.open(path: path)
            }
            #expect(error?.message.contains("left unchanged") == true)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == content)
        let siblings = try FileManager.default.contentsOfDirectory(atPath: FileSystemPath.directory(of: path))
        #expect(siblings == ["favorites.sqlite"])
    }

    @Test("read-only favorites create no file and follow a writer's changes")
    func readOnlyCreatesNothing() async throws {
        let path = try temporaryFavoritesPath()
        do { try await SQLiteFavorites.open(path: path).add(favoriteMovie(1)) }
        let reader = try SQLiteFavorites.openReadOnly(path: path)
        let recorder = ListRecorder(reader.observe())
        defer { recorder.stop() }
        try await pollUntil { recorder.lists == [[favoriteMovie(1)]] }
        #expect(try FileManager.default.contentsOfDirectory(atPath: FileSystemPath.directory(of: path)) == ["favorites.sqlite"])
        let writer = try SQLiteFavorites.open(path: path)
        try await writer.add(favoriteMovie(2))
        try await pollUntil { recorder.lists.last == [favoriteMovie(2), favoriteMovie(1)] }
        reader.close()
        writer.close()
        #expect(try FileManager.default.contentsOfDirectory(atPath: FileSystemPath.directory(of: path)) == ["favorites.sqlite"])
    }

    @Test("after close, calls throw .storage and observers end")
    func closeEndsEverything() async throws {
        let favorites = try SQLiteFavorites.open(path: ":memory:")
        let recorder = ListRecorder(favorites.observe())
        try await pollUntil { recorder.snapshots.count == 1 }
        favorites.close()
        try await pollUntil { favorites.observerCount == 0 }
        let error = await #expect(throws: MovieError.self) { try await favorites.add(favoriteMovie(1)) }
        #expect(error?.message.contains("closed") == true)
        favorites.close()   // idempotent
    }
}

// MARK: Helpers

private func favoriteMovie(_ id: Int) -> Movie {
    Movie(id: id, title: "Favorite \(id)", year: 1_990 + id % 30, runtime: 90 + id, rating: Double(id % 10) + 0.5,
          votes: id * 100, genres: id.isMultiple(of: 2) ? ["Drama"] : ["Comedy", "Romance"], mpaa: id.isMultiple(of: 3) ? nil : "PG")
}

/// A fresh path in a new temporary directory.
/// Path helpers for the tests.
private enum FileSystemPath {
    static func directory(of path: String) -> String { (path as NSString).deletingLastPathComponent }
}

private func temporaryFavoritesPath() throws -> String {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("favorites-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory.appendingPathComponent("favorites.sqlite").path
}

/// Polls `condition` every few milliseconds; fails the test if it is not true within `timeout`.
private func pollUntil(timeout: Duration = .seconds(5), _ condition: () -> Bool,
                       sourceLocation: SourceLocation = #_sourceLocation) async throws {
    let deadline = ContinuousClock.now + timeout
    while !condition() {
        guard ContinuousClock.now < deadline else {
            Issue.record("condition still false after \(timeout)", sourceLocation: sourceLocation)
            return
        }
        try await Task.sleep(for: .milliseconds(2))
    }
}

/// Records every snapshot a stream delivers, from a task that is always waiting for the next
/// one (so no delivery is coalesced away).
private final class ListRecorder: Sendable {
    private let recorded = Mutex<[FavoritesSnapshot]>([])
    private let task = Mutex<Task<Void, Never>?>(nil)

    init(_ stream: AsyncStream<FavoritesSnapshot>) {
        let consumer = Task { for await snapshot in stream { self.record(snapshot) } }
        task.withLock { $0 = consumer }
    }

    var snapshots: [FavoritesSnapshot] { recorded.withLock { $0 } }
    var lists: [[Movie]] { snapshots.map(\.movies) }
    var versions: [UInt64] { snapshots.map(\.version) }

    private func record(_ snapshot: FavoritesSnapshot) { recorded.withLock { $0.append(snapshot) } }

    func stop() { task.withLock { $0?.cancel() } }
}

/// The last list an observer saw.
private final class LastList: Sendable {
    private let value = Mutex<[Movie]?>(nil)
    func set(_ list: [Movie]) { value.withLock { $0 = list } }
    func get() -> [Movie]? { value.withLock { $0 } }
}

/// True for a `.storage` error.
private func isStorage(_ error: MovieError?) -> Bool {
    if case .storage = error { return true }
    return false
}
