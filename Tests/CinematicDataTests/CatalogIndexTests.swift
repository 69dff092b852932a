@testable import CinematicData
import CinematicDomain
import Foundation
import CinematicTestSupport
import Testing

@Suite("Catalog index", .offThePool)
struct CatalogIndexTests {
    /// A movie file of three films in the documented columns.
    static let header = "id\ttitle\tyear\tlength\tbudget\trating\tvotes\tr1\tr2\tr3\tr4\tr5\tr6\tr7\tr8\tr9\tr10\tmpaa\tgenres\n"
    static func film(_ id: Int, _ title: String, votes: Int) -> String {
        "\(id)\t\(title)\t1999\t100\t\t7.5\t\(votes)\t4.5\t4.5\t4.5\t4.5\t14.5\t14.5\t14.5\t14.5\t14.5\t14.5\tPG\tDrama\n"
    }
    static let movies = header + film(1, "Matrix, The", votes: 1000) + film(2, "Zardoz", votes: 50) + film(3, "Amélie", votes: 500)

    @Test func anIndexBuiltFromAMovieFileIsSearchedAndRanked() async throws {
        let directory = TestCatalog.directory("build")
        let source = directory.appendingPathComponent("movies.tsv").path, index = directory.appendingPathComponent("movies.idx").path
        try Self.movies.write(toFile: source, atomically: true, encoding: .utf8)
        try MovieFile.buildIndex(from: source, to: index, libraryVersion: "9.9.9")
        let catalog = try SQLiteMovieCatalog.open(.index(path: index))
        defer { catalog.close() }
        #expect(try await catalog.searchMovies(matching: "matrix", page: 1).map(\.title) == ["The Matrix"])
        #expect(try await catalog.searchMovies(matching: "amelie", page: 1).first?.title == "Amélie")
        #expect(try await catalog.searchMovies(matching: "zardos", page: 1).first?.title == "Zardoz")  // a typo
        #expect(try await catalog.movies(in: .popular, page: 1).map(\.title) == ["The Matrix", "Amélie", "Zardoz"])
        #expect(try await catalog.movieDetail(id: 2).movie.title == "Zardoz")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["movies.idx", "movies.tsv"])
    }

    /// Titles without a single word and films without genres or ratings still make an index
    /// that opens (empty vocabulary, one empty genre list).
    @Test func aCatalogWithoutWordsStillOpens() async throws {
        let directory = TestCatalog.directory("wordless")
        let source = directory.appendingPathComponent("movies.tsv").path, index = directory.appendingPathComponent("movies.idx").path
        let film = Self.film(1, "!!!", votes: 5).replacingOccurrences(of: "\tPG\tDrama", with: "\t\t")
        try (Self.header + film).write(toFile: source, atomically: true, encoding: .utf8)
        try MovieFile.buildIndex(from: source, to: index, libraryVersion: "9.9.9")
        let catalog = try SQLiteMovieCatalog.open(.index(path: index))
        defer { catalog.close() }
        #expect(try await catalog.searchMovies(matching: "anything", page: 1).isEmpty)
        #expect(try await catalog.movies(in: .popular, page: 1).map(\.title) == ["!!!"])
        #expect(try await catalog.movieDetail(id: 1).movie.genres == [])
    }

    @Test func aMalformedLineIsNamedAndNothingIsWrittenAtTheIndexPath() throws {
        let directory = TestCatalog.directory("bad")
        let source = directory.appendingPathComponent("movies.tsv").path, index = directory.appendingPathComponent("movies.idx").path
        try Self.movies.write(toFile: source, atomically: true, encoding: .utf8)
        try MovieFile.buildIndex(from: source, to: index, libraryVersion: "9.9.9")
        let previous = try Data(contentsOf: URL(fileURLWithPath: index))
        try (Self.header + Self.film(1, "Fine", votes: 3) + "2\tBroken\tnineteen\n").write(toFile: source, atomically: true, encoding: .utf8)
        #expect {
            try MovieFile.buildIndex(from: source, to: index, libraryVersion: "9.9.9")
        } throws: { error in
            (error as? MovieError)?.message.contains("line 3") == true
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: index)) == previous)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["movies.idx", "movies.tsv"])
        try Self.header.replacingOccurrences(of: "votes", with: "vote").write(toFile: source, atomically: true, encoding: .utf8)
        #expect(throws: MovieError.self) { try MovieFile.buildIndex(from: source, to: index, libraryVersion: "9.9.9") }
    }

    @Test("a file that is not an index of this format is refused untouched", arguments: ["text", "sqlite", "format"])
    func foreignFilesAreRefusedUntouched(kind: String) throws {
        let directory = TestCatalog.directory("foreign")
        let path = directory.appendingPathComponent("x.idx").path
        switch kind {
        case "text": try "not an index".write(toFile: path, atomically: true, encoding: .utf8)
        case "sqlite":
            let connection = try SQLiteConnection(path: path)
            try connection.execute("CREATE TABLE t (x)")
            connection.close()
        default:
            let source = directory.appendingPathComponent("movies.tsv").path
            try Self.movies.write(toFile: source, atomically: true, encoding: .utf8)
            try MovieFile.buildIndex(from: source, to: path, libraryVersion: "9.9.9")
            let connection = try SQLiteConnection(path: path)
            try connection.execute("PRAGMA user_version = \(CatalogIndex.formatVersion + 1)")
            connection.close()
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let modified = try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date
        #expect(throws: MovieError.self) { try SQLiteMovieCatalog.open(.index(path: path)) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date == modified)
        #expect(throws: MovieError.self) { try SQLiteMovieCatalog.open(.index(path: directory.appendingPathComponent("missing.idx").path)) }
    }

    @Test func theEmbeddedCatalogHoldsEveryFilmAndOpeningItWritesNothing() async throws {
        #expect(try await TestCatalog.shared.movies(in: .popular, page: 1).count == MovieCatalog.pageSize)
        #expect(TestCatalog.shared.loadProgress == nil)
        let stamp = CatalogIndex.expectedEmbeddedStamp(libraryVersion: "1.2.3")
        #expect(stamp.library == "1.2.3" && stamp.data.hasPrefix("crc32-") && stamp.format == CatalogIndex.formatVersion)
    }

    /// A library without a compiled-in index builds the catalog on the catalog's thread:
    /// opening returns while it is still loading, and the progress moves until it is ready.
    /// (Polled synchronously on the heavy tests' thread, `.offThePool`: an `await` could leave
    /// it unscheduled for the whole build while other tests keep the cooperative pool busy.)
    @Test func buildingInMemoryDoesNotBlockTheOpenAndReportsProgress() throws {
        let catalog = try SQLiteMovieCatalog.open(.embedded(libraryVersion: "progress-\(UUID())"))
        defer { catalog.close() }
        guard case .loading = catalog.loadState else {
            Issue.record("the catalog was built before open returned: \(catalog.loadState)")
            return
        }
        var seen: Set<Int> = []
        while case let .loading(progress) = catalog.loadState {
            #expect((0...1).contains(progress))
            seen.insert(Int(progress * 10))
            usleep(2_000)
        }
        #expect(catalog.loadState == .ready)
        #expect(seen.count >= 2, "progress seen: \(seen.sorted())")
        #expect(try catalog.search("dune").first?.title == "Dune")
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
