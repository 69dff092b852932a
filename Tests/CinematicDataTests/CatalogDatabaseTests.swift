@testable import CinematicData
import CinematicDomain
import Foundation
import Testing

@Suite("Catalog database build")
struct CatalogDatabaseTests {
    @Test func holdsEveryFilm() throws {
        _ = TestCatalog.shared
        let connection = try SQLiteConnection(path: TestCatalog.path, readOnly: true)
        let count = try connection.prepare("SELECT count(*) FROM movies")
        #expect(try count.bind([]).step())
        #expect(count.int(0) == 58_788)
    }

    @Test func staleDatabaseIsRebuilt() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cinematic-stale-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("nested/catalog.sqlite").path
        try CatalogDatabase.prepare(at: path)
        #expect(CatalogDatabase.isCurrent(at: path))
        let connection = try SQLiteConnection(path: path)
        try connection.execute("UPDATE meta SET value = 'old' WHERE key = 'fingerprint'")
        #expect(!CatalogDatabase.isCurrent(at: path))
        try CatalogDatabase.prepare(at: path)
        #expect(CatalogDatabase.isCurrent(at: path))
    }

    @Test func unwritableLocationIsAStorageError() {
        #expect {
            try CatalogDatabase.prepare(at: "/proc/cinematic/catalog.sqlite")
        } throws: { error in
            guard case .storage = error as? MovieError else { return false }
            return true
        }
    }

    @Test("articles move to the front", arguments: [
        ("Godfather, The", "The Godfather"), ("Avventura, L'", "L'Avventura"), ("Dune", "Dune"),
        ("Godfather: Part II, The", "The Godfather: Part II"), ("$40,000", "$40,000"),
        ("Smith, Jr.", "Smith, Jr."), ("Kala, Ha-", "Ha-Kala"),
    ])
    func displayTitles(catalogTitle: String, display: String) {
        #expect(TitleText.parts(ofCatalogTitle: catalogTitle).display == display)
    }

    @Test func wordsDropEverythingButLettersAndDigits() {
        #expect(SearchText.words("NEAR(\"Star\" -Wars*)") == ["near", "star", "wars"])
    }
}
