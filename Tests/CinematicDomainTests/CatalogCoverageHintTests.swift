import CinematicDomain
import Testing

/// Issue "Search that knows a film by every name", part 4: a query with a year outside the
/// catalog's, or that matches nothing, gets a hint saying what the catalog holds, from the
/// coverage the catalog that answered gave.
@Suite("SearchHint: the catalog's limits")
struct CatalogCoverageHintTests {
    static let embedded = CatalogCoverage(films: 58_788, firstYear: 1893, lastYear: 2005, provenance: "IMDb as of 2005")
    static let casinoRoyale = Movie(id: 1, title: "Casino Royale", year: 1967, runtime: 131, rating: 5.2, votes: 7000, genres: ["Comedy"], mpaa: nil)

    @Test func aYearAfterTheLast() {
        #expect(SearchHint.of(query: "casino royale 2006", results: [Self.casinoRoyale], coverage: Self.embedded)
            == SearchHint(kind: .years, text: "No film from 2006 is in the catalog: it holds 58,788 films from 1893 to 2005 (IMDb as of 2005). These titles hold your other words."))
        #expect(SearchHint.of(query: "2010", results: [], coverage: Self.embedded)
            == SearchHint(kind: .years, text: "No film from 2010 is in the catalog: it holds 58,788 films from 1893 to 2005 (IMDb as of 2005)."))
    }

    @Test("a decade or a year outside, before the first too", arguments: [("2010s comedy", 2010), ("films of 1850", 1850), ("1880s", 1880)])
    func outside(query: String, year: Int) {
        #expect(SearchHint.of(query: query, results: [], coverage: Self.embedded)?.text.hasPrefix("No film from \(year) is in the catalog") == true)
    }

    @Test("a year or decade the catalog spans says nothing", arguments: ["casino royale 1967", "2000s", "1890s", "2005", "1893"])
    func inside(query: String) {
        #expect(SearchHint.of(query: query, results: [Self.casinoRoyale], coverage: Self.embedded) == nil)
    }

    /// A number that is a film's title is no year the catalog lacks.
    @Test func aTitleThatIsAYear() {
        let films = [Movie(id: 3, title: "2010", year: 1984, runtime: 116, rating: 6.5, votes: 7300, genres: [], mpaa: nil),
                     Movie(id: 4, title: "2046", year: 2004, runtime: 129, rating: 7.6, votes: 2663, genres: ["Drama"], mpaa: nil)]
        #expect(SearchHint.of(query: "2010", results: films, coverage: Self.embedded) == nil)
        #expect(SearchHint.of(query: "2046", results: Array(films.suffix(1)), coverage: Self.embedded) == nil)
        #expect(SearchHint.of(query: "casino royale 2006", results: films, coverage: Self.embedded)?.kind == .years)
    }

    @Test func nothingMatched() {
        #expect(SearchHint.of(query: "zzqx wvvy", results: [], coverage: Self.embedded)
            == SearchHint(kind: .nothing, text: "No film in the catalog matches “zzqx wvvy”: it holds 58,788 films from 1893 to 2005 (IMDb as of 2005)."))
    }

    /// A catalog that does not say (a host's) gets neither hint; a person or genre hint wins.
    @Test func withoutCoverageOrBeforeIt() {
        #expect(SearchHint.of(query: "casino royale 2006", results: [Self.casinoRoyale]) == nil)
        #expect(SearchHint.of(query: "zzqx", results: []) == nil)
        #expect(SearchHint.of(query: "2010s horror", results: [], coverage: Self.embedded)?.kind == .genre)
    }

    @Test func theRangeInWords() {
        #expect(CatalogCoverage(films: 1, years: [0, 1999], provenance: "mine").range == "1 film from 1999 (mine)")
        #expect(CatalogCoverage(films: 2, years: [0, 0], provenance: "mine").range == "2 films (mine)")
        #expect(CatalogCoverage(films: 1_000_000, years: [2003, 1950, 0], provenance: "x") == CatalogCoverage(films: 1_000_000, firstYear: 1950, lastYear: 2003, provenance: "x"))
        #expect(NumberText.grouped(1_000_000) == "1,000,000")
    }

    /// No title holds every word: the words the first film leaves out are named, with what the
    /// catalog holds when it says (the film may be past its years: "the dark knight").
    @Test func wordsLeftOut() {
        let knight = Movie(id: 2, title: "First Knight", year: 1995, runtime: 134, rating: 5.6, votes: 9000, genres: ["Action"], mpaa: nil)
        #expect(SearchHint.of(query: "the dark knight", results: [knight], unmatched: ["dark"])
            == SearchHint(kind: .partial, text: "No title holds every word: these leave out “dark”."))
        #expect(SearchHint.of(query: "the dark knight rises", results: [knight], coverage: Self.embedded, unmatched: ["dark", "rises"])
            == SearchHint(kind: .partial, text: "No title holds every word: these leave out “dark” and “rises”. The catalog holds 58,788 films from 1893 to 2005 (IMDb as of 2005)."))
        #expect(SearchHint.of(query: "a b c d", results: [knight], unmatched: ["a", "b", "c", "d"])?.text == "No title holds every word: these leave out “a”, “b” and “c”.")
        // A year past the catalog's says more than the word it leaves out; no result, no partial hint.
        #expect(SearchHint.of(query: "dark knight 2008", results: [knight], coverage: Self.embedded, unmatched: ["dark"])?.kind == .years)
        #expect(SearchHint.of(query: "the dark knight", results: [], unmatched: ["dark"]) == nil)
    }
}
