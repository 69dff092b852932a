@testable import CinematicData
import CinematicDomain
import CinematicTestSupport
import Foundation
import Testing

/// A film known by every name people use (issue "Search that knows a film by every name"):
/// the alternate titles of data/alternate-titles.tsv are searched as forms of the film's
/// title, and the English name is shown beside the stored one.
@Suite("Search by alternate titles", .offThePool)
struct AlternateTitlesTests {
    let catalog = TestCatalog.shared

    private func first(_ query: String) throws -> String? { try TestCatalog.first(query) }

    @Test("the English name of a foreign-language film finds it first, shown beside its stored title", arguments: [
        ("seven samurai", "Shichinin no samurai (Seven Samurai) (1954)"),
        ("spirited away", "Sen to Chihiro no kamikakushi (Spirited Away) (2001)"),
        ("my neighbor totoro", "Tonari no Totoro (My Neighbor Totoro) (1988)"),
        ("shichinin no samurai", "Shichinin no samurai (Seven Samurai) (1954)"),
        ("city of god", "Cidade de Deus (City of God) (2002)"),
        ("run lola run", "Lola rennt (Run Lola Run) (1998)"),
        ("bicycle thieves", "Ladri di biciclette (Bicycle Thieves) (1948)"),
        ("crouching tiger hidden dragon", "Wo hu cang long (Crouching Tiger, Hidden Dragon) (2000)"),
        ("the 400 blows", "Les Quatre cents coups (The 400 Blows) (1959)"),
        ("the good the bad and the ugly", "Il Buono, il brutto, il cattivo (The Good, the Bad and the Ugly) (1966)"),
        ("x men 2", "X2 (2003)"),
        // Common short names (aliases: found, not shown).
        ("lotr fellowship", "The Lord of the Rings: The Fellowship of the Ring (2001)"),
        ("lotr two towers", "The Lord of the Rings: The Two Towers (2002)"),
        ("t2", "Terminator 2: Judgment Day (1991)"),
    ])
    func theEnglishNameFindsTheFilm(query: String, expected: String) throws {
        #expect(try first(query) == expected)
    }

    /// The English name is a part of the title: typed whole, it covers the title as an exact
    /// title would, so the famous film beats an obscure one of that very title.
    @Test("a whole English name covers its title")
    func aWholeNameCoversTheTitle() throws {
        #expect(try catalog.search("fallen angels").prefix(2).map { "\($0.title) (\($0.year))" }
                == ["Duo luo tian shi (Fallen Angels) (1995)", "Fallen Angels (2002)"])
    }

    @Test("a short name finds its film, which shows its own title only")
    func aShortNameAddsNothingToShow() throws {
        #expect(try first("dr strangelove") == "Dr. Strangelove or: How I Learned to Stop Worrying and Love the Bomb (1964)")
    }

    /// The file is hostile input: a line that names another row, an unknown id or a bad header
    /// is `.storage` naming the line.
    @Test("a line that does not name its row exactly is refused, naming the line", arguments: [
        ("id\tcatalog_title\tyear\tlength\talternate\n46408\tShichinin no samurai\t1955\t206\tSeven Samurai\n", "line 2: film 46408 is"),
        ("id\tcatalog_title\tyear\tlength\talternate\n46408\tShichinin no samuraj\t1954\t206\tSeven Samurai\n", "line 2: film 46408 is"),
        ("id\talternate\n999999999\tNowhere\n", "line 2: id 999999999 is no film"),
        ("id\tname\n46408\tSeven Samurai\n", "line 1: the header must name the columns id and alternate"),
        ("id\talternate\n46408\t\n", "line 2: the alternate title must be 1 to 200"),
    ])
    func aWrongLineIsRefused(tsv: String, message: String) throws {
        let rows = try Self.samurai()
        var bytes = Array(tsv.utf8)
        let error = #expect(throws: MovieError.self) {
            _ = try bytes.withUnsafeMutableBytes { try AlternateTitles.attach(UnsafeRawBufferPointer($0), to: rows) }
        }
        #expect(error?.message.contains(message) == true, "\(error?.message ?? "")")
    }

    /// Shichinin no samurai's row, read once.
    private static func samurai() throws -> [CatalogRow] { try samuraiRow.get() }
    private static let samuraiRow = Result { try EmbeddedCatalog.rows().filter { $0.id == 46408 } }

    @Test("every line of the shipped file lands on the film it names")
    func theShippedFileIsWhole() throws {
        let rows = try EmbeddedCatalog.rows()
        let named = rows.filter { !$0.alternateTitles.isEmpty }
        #expect(named.count >= 3)
        #expect(named.contains { $0.id == 46408 && $0.alternateTitles.first == "Seven Samurai" })
    }
}

/// A user's movie file may carry alternate titles in an optional last column.
@Suite("Alternate titles in a movie file", .offThePool)
struct MovieFileAlternateTitlesTests {
    static let header = CatalogIndexTests.header.replacingOccurrences(of: "\n", with: "\t\(AlternateTitles.column)\n")

    /// A film line of `CatalogIndexTests` with `names` as its last column.
    static func film(_ id: Int, _ title: String, votes: Int, _ names: String) -> String {
        CatalogIndexTests.film(id, title, votes: votes).replacingOccurrences(of: "\n", with: "\t\(names)\n")
    }

    @Test("the names are searched, the first shown, a field starting with | only found")
    func theNamesOfAMovieFile() async throws {
        let directory = TestCatalog.directory("alternates")
        let source = directory.appendingPathComponent("movies.tsv").path, index = directory.appendingPathComponent("movies.idx").path
        try (Self.header + Self.film(1, "Shichinin no samurai", votes: 900, "Seven Samurai | The Seven Samurai")
             + Self.film(2, "Dr. Strangelove or: How I Learned to Stop Worrying and Love the Bomb", votes: 800, "|Dr. Strangelove")
             + Self.film(3, "Zardoz", votes: 50, "")).write(toFile: source, atomically: true, encoding: .utf8)
        try MovieFile.buildIndex(from: source, to: index, libraryVersion: "9.9.9")
        let catalog = try SQLiteMovieCatalog.open(.index(path: index))
        defer { catalog.close() }
        #expect(try await catalog.searchMovies(matching: "seven samurai", page: 1).map(\.title) == ["Shichinin no samurai (Seven Samurai)"])
        #expect(try await catalog.searchMovies(matching: "strangelove", page: 1).map(\.title)
                == ["Dr. Strangelove or: How I Learned to Stop Worrying and Love the Bomb"])
        #expect(try await catalog.movieDetail(id: 3).movie.title == "Zardoz")
    }

    @Test("a name past the bounds is refused, naming the line", arguments: [
        (String(repeating: "Name|", count: 9), "line 2: alternate_titles holds more than 8 names"),
        (String(repeating: "x", count: 201), "line 2: alternate_titles: each name must be 1 to 200"),
    ])
    func aBadFieldIsRefused(names: String, message: String) throws {
        let directory = TestCatalog.directory("bad-alternates")
        let source = directory.appendingPathComponent("movies.tsv").path, index = directory.appendingPathComponent("movies.idx").path
        try (Self.header + Self.film(1, "Zardoz", votes: 50, names)).write(toFile: source, atomically: true, encoding: .utf8)
        let error = #expect(throws: MovieError.self) { try MovieFile.buildIndex(from: source, to: index, libraryVersion: "9.9.9") }
        #expect(error?.message.contains(message) == true, "\(error?.message ?? "")")
    }
}
