import CinematicData
import CinematicDomain
import Foundation
import Testing

/// SQLite favorites: failed writes, unopenable paths, newer schemas and write-protected files.
extension SQLiteFavoritesTests {
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
}
