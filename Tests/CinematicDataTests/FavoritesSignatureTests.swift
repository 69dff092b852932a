@testable import CinematicData
import Foundation
import Testing

/// The fingerprint read-only favorites poll (``FavoritesFile/signature(_:)``) moves when a
/// writer publishes a commit in the WAL index alone: SQLite appends a commit's frames to the
/// WAL first and publishes them in `-shm` (through a shared mapping: no size or time of any
/// file moves) after, so a reader that looked in between must look again.
@Suite("Favorites file signature")
struct FavoritesSignatureTests {
    @Test func aCommitPublishedOnlyInTheWALIndexChangesTheSignature() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("signature-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("favorites.sqlite").path
        for (suffix, size) in [("", 4096), ("-wal", 8192), ("-shm", 32768)] {
            #expect(FileManager.default.createFile(atPath: path + suffix, contents: Data(repeating: 7, count: size)))
        }
        let before = FavoritesFile.signature(path)
        // The writer's publish: the header's change counter and last frame move, in place.
        let shm = FileHandle(forUpdatingAtPath: path + "-shm")!
        try shm.seek(toOffset: 8)
        try shm.write(contentsOf: Data([8, 0, 0, 0, 9, 0, 0, 0]))
        try shm.close()
        let after = FavoritesFile.signature(path)
        #expect(before != after, "a commit published in the WAL index alone went unnoticed")
        #expect(Array(before.prefix(8)) == Array(after.prefix(8)), "the database and WAL files did not change")
        // No WAL index (a reader opened after the last writer closed): still a signature.
        try FileManager.default.removeItem(atPath: path + "-shm")
        #expect(FavoritesFile.signature(path).last == -1)
    }
}
