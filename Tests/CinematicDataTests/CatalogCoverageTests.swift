import CinematicData
import CinematicDomain
import CinematicTestSupport
import Foundation
import Testing

/// What a catalog index says it holds with each search's answer (issue "Search that knows a
/// film by every name", part 4): the embedded catalog its 58,788 films of 1893-2005 and their
/// provenance, a user's index its own films, years and file.
@Suite("Catalog coverage", .offThePool)
struct CatalogCoverageTests {
    @Test func theEmbeddedCatalogSaysItsFilmsYearsAndProvenance() async throws {
        let answer = try await TestCatalog.shared.search(matching: "casino royale 2006", page: 1)
        #expect(answer.coverage == CatalogCoverage(films: 58_788, firstYear: 1893, lastYear: 2005, provenance: CatalogCoverage.embeddedProvenance))
        #expect(answer.value.first?.title == "Casino Royale")
    }

    @Test func aUsersIndexSaysItsOwn() async throws {
        let directory = TestCatalog.directory("coverage")
        let source = directory.appendingPathComponent("mine.tsv").path, index = directory.appendingPathComponent("mine.idx").path
        let films = CatalogIndexTests.header + CatalogIndexTests.film(1, "Zardoz", votes: 50)
            + CatalogIndexTests.film(2, "Brazil", votes: 90).replacingOccurrences(of: "\t1999\t", with: "\t1985\t")
        try films.write(toFile: source, atomically: true, encoding: .utf8)
        try MovieFile.buildIndex(from: source, to: index, libraryVersion: "9.9.9")
        let catalog = try SQLiteMovieCatalog.open(.index(path: index))
        defer { catalog.close() }
        let answer = try await catalog.search(matching: "nothing like it", page: 1)
        #expect(answer.value.isEmpty)
        #expect(answer.coverage == CatalogCoverage(films: 2, firstYear: 1985, lastYear: 1999, provenance: "the catalog file \u{201C}mine.idx\u{201D}"))
        #expect(SearchHint.of(query: "nothing like it", results: answer.value, coverage: answer.coverage)?.text
            == "No film in the catalog matches \u{201C}nothing like it\u{201D}: it holds 2 films from 1985 to 1999 (the catalog file \u{201C}mine.idx\u{201D}).")
    }
}

/// When no title holds every word, the films listed match the others, and the answer names
/// what the first leaves out (issue "Search that knows a film by every name", part 2).
@Suite("Partial matches name the word left out", .offThePool)
struct PartialMatchTests {
    @Test("the words the first film leaves out", arguments: [
        ("the dark knight", "First Knight", ["dark"]),
        ("shawshank redemption prison", "The Shawshank Redemption", ["prison"]),
        ("forest gump", "Forrest Gump", []),   // a typo of the title, forgiven: nothing left out
        ("casino royale", "Casino Royale", []),   // a whole match leaves out nothing
    ])
    func wordsLeftOut(query: String, first: String, unmatched: [String]) async throws {
        let answer = try await TestCatalog.shared.search(matching: query, page: 1)
        #expect(answer.value.first?.title == first)
        #expect(answer.unmatched == unmatched)
        if !unmatched.isEmpty {
            #expect(SearchHint.of(query: query, results: answer.value, unmatched: answer.unmatched)
                == SearchHint(kind: .partial, text: "No title holds every word: these leave out \u{201C}\(unmatched[0])\u{201D}."))
        }
    }
}
