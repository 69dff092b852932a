import CinematicData
import CinematicDomain
import Foundation
import Testing

/// SQLite favorites: what persists across a reopen, read-only opening, WAL and :memory:.
extension SQLiteFavoritesTests {
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
}
