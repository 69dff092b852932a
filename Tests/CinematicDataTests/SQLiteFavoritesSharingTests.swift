import CinematicData
import CinematicDomain
import Foundation
import Testing

/// SQLite favorites: other connections on the same file, other programs' files, and close.
extension SQLiteFavoritesTests {
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
