@testable import CinematicData
import CinematicDomain
import CinematicTestSupport
import Testing

/// Queries people type that are not titles (issue 25): a year, a decade with a genre, a title
/// with a sequel number, words of which only a common one matches, letters that fold to
/// little. Over the real catalog; each expectation is by title and year.
@Suite("Queries people type", .offThePool)
struct QueriesPeopleTypeTests {
    let catalog = TestCatalog.shared

    private func top(_ query: String, _ count: Int = 3, page: Int = 1) throws -> [String] {
        try catalog.search(query, page: page).prefix(count).map { "\($0.title) (\($0.year))" }
    }

    /// "1994" answered "No movies match" although 1,199 films are from 1994.
    @Test("a year lists that year's films, most popular first", arguments: ["1994", "1994 ", " 1994", "1994 movies", "films from 1994"])
    func aYearListsItsFilms(query: String) throws {
        #expect(try top(query) == ["The Shawshank Redemption (1994)", "Pulp Fiction (1994)", "Forrest Gump (1994)"])
        let page = try catalog.search(query)
        #expect(page.count == MovieCatalog.pageSize && page.allSatisfy { $0.year == 1994 })
        let second = try catalog.search(query, page: 2)
        #expect(second.count == MovieCatalog.pageSize && second.allSatisfy { $0.year == 1994 })
        #expect(Set(page.map(\.id)).isDisjoint(with: second.map(\.id)))
        #expect(zip(page, page.dropFirst()).allSatisfy { $0.votes >= $1.votes }, "most popular first")
    }

    /// A title that is the number still comes first; a title starting with it ranks by its
    /// score among the year's films.
    @Test("a title that is a number comes first", arguments: [
        ("1941", ["1941 (1979)", "Citizen Kane (1941)"]),
        ("1984", ["1984 (1956)", "The Terminator (1984)"]),
        ("2001", ["2001: A Space Odyssey (1968)", "The Lord of the Rings: The Fellowship of the Ring (2001)"]),
        ("2010", ["2010 (1984)"]),
    ])
    func aNumberTitleComesFirst(query: String, expected: [String]) throws {
        #expect(try top(query, expected.count) == expected)
    }

    /// "90s comedy"-style queries: decade (90s, 1990s, nineties) or year, and genre, in any
    /// order, with fillers ("the", "from", "movies").
    @Test("a decade or year with a genre lists those films", arguments: [
        ("90s comedy", 1990...1999, "Comedy", ["Forrest Gump (1994)", "The Truman Show (1998)", "Being John Malkovich (1999)"]),
        ("comedies from the 90s", 1990...1999, "Comedy", ["Forrest Gump (1994)", "The Truman Show (1998)", "Being John Malkovich (1999)"]),
        ("1990s drama", 1990...1999, "Drama", ["The Shawshank Redemption (1994)", "Pulp Fiction (1994)", "Fight Club (1999)"]),
        ("comedy 1994", 1994...1994, "Comedy", ["Forrest Gump (1994)", "Clerks. (1994)", "The Lion King (1994)"]),
        ("80s action", 1980...1989, "Action", ["Star Wars: Episode V - The Empire Strikes Back (1980)", "Raiders of the Lost Ark (1981)", "Star Wars: Episode VI - Return of the Jedi (1983)"]),
        ("the 90s", 1990...1999, nil, ["The Shawshank Redemption (1994)", "The Matrix (1999)", "Pulp Fiction (1994)"]),
        ("nineties", 1990...1999, nil, ["The Shawshank Redemption (1994)", "The Matrix (1999)", "Pulp Fiction (1994)"]),
    ] as [(String, ClosedRange<Int>, String?, [String])])
    func aPeriodAndGenre(query: String, years: ClosedRange<Int>, genre: String?, expected: [String]) throws {
        #expect(try top(query) == expected)
        for page in 1...2 {
            let movies = try catalog.search(query, page: page)
            #expect(movies.count == MovieCatalog.pageSize)
            #expect(movies.allSatisfy { years.contains($0.year) && (genre.map($0.genres.contains) ?? true) }, "\(movies.map(\.title))")
        }
    }

    /// A genre word with a word that is no genre stays a title search limited to the decade
    /// (the shipped catalog has no Horror genre: "horror" is a title word).
    @Test func aDecadeWithATitleWord() throws {
        let movies = try catalog.search("80s horror")
        #expect(movies.prefix(2).map { "\($0.title) (\($0.year))" } == ["Little Shop of Horrors (1986)", "The Horror Show (1989)"])
        #expect(movies.prefix(5).allSatisfy { (1980...1989).contains($0.year) })
    }

    /// "alien 3" ranked Terminator 3, Scream 3 and The Godfather: Part III above the Alien films.
    @Test func aSequelNumberBindsToTheTitleWords() throws {
        #expect(try top("alien 3") == ["Alien (1979)", "Aliens (1986)", "Alien: Resurrection (1997)"])
        let titles = try catalog.search("alien 3").map(\.title) + catalog.search("alien 3", page: 2).map(\.title)
        #expect(titles.allSatisfy { $0.lowercased().contains("alien") }, "\(titles)")
        // The titles holding the number come first, then the series.
        #expect(try top("rocky 3", 2) == ["Rocky III (1982)", "Rocky (1976)"])
        #expect(try top("godfather 4") == ["The Godfather (1972)", "The Godfather: Part II (1974)", "The Godfather: Part III (1990)"])
        // A year that names no film of the series still lists it.
        #expect(try top("matrix 1999", 1) == ["The Matrix (1999)"])
        #expect(try catalog.search("matrix 1999").map(\.title).contains("The Matrix Reloaded"))
    }

    /// "spirited away" listed 20 films holding only "away" (before the catalog knew Spirited
    /// Away by its English name): a title sharing a single word with the query is no match.
    @Test func oneCommonWordIsNoMatch() throws {
        #expect(try top("spirited away", 2) == ["Sen to Chihiro no kamikakushi (Spirited Away) (2001)"])
        #expect(try catalog.search("glorpish away").isEmpty)
        #expect(try catalog.search("xyzzy away").isEmpty)
        // A title matching every word but one still comes when it matches two of them.
        #expect(try top("shawshank redemption prison", 1) == ["The Shawshank Redemption (1994)"])
        // While a word is typed, titles matching every other word exactly stay listed.
        #expect(try top("the shawshank redep", 1) == ["The Shawshank Redemption (1994)"])
        #expect(try top("dune messiah", 1) == ["Dune (1984)"])
        // Known words that are typos of the title's ("forest" for "forrest").
        #expect(try top("forest gump", 1) == ["Forrest Gump (1994)"])
        #expect(try top("citizen cane", 1) == ["Citizen Kane (1941)"])
    }

    /// "psyco" listed only Psycosissimo (7 votes): a word being typed that begins only a few
    /// catalog words is read as a possible typo too, and the one score ranks both readings.
    @Test func aRarePrefixIsAlsoATypo() throws {
        #expect(try top("psyco", 2) == ["Psycho (1960)", "Psycho (1998)"])
        #expect(try top("psycosis", 1) == ["Psycosissimo (1961)"])
    }

    /// "üñí" returned Universal Soldier: a word that lost most of its letters to folding is
    /// matched only whole, never as a prefix or a typo; a word with an accent or two still
    /// finds its title.
    @Test func lettersThatFoldToLittleMatchNothing() throws {
        for query in ["üñí", "üñí ", "ÜÑÍ", "u\u{0308}n\u{0303}i\u{0301}", "éèê", "ÿäöü"] {
            #expect(try catalog.search(query).isEmpty, "\(query)")
        }
        #expect(try top("uni", 1) == ["Universal Soldier (1992)"])
        // Such a word still matches a title word it is whole ("Garasu no nou").
        #expect(try top("ñöü", 1) == ["Garasu no nou (2000)"])
        #expect(try top("términator", 1) == ["The Terminator (1984)"])
        #expect(try top("Çitizen Kâne", 1) == ["Citizen Kane (1941)"])
    }

    @Test func periodsAndNumerals() {
        #expect(SearchFilters.period(of: "1994") == 1994...1994)
        #expect(SearchFilters.period(of: "1990s") == 1990...1999)
        #expect(SearchFilters.period(of: "90s") == 1990...1999)
        #expect(SearchFilters.period(of: "00s") == 2000...2009)
        #expect(SearchFilters.period(of: "nineties") == 1990...1999)
        for word in ["1995s", "12345", "1889", "2031", "9s", "900s", "s", "", "comedy", "1a"] {
            #expect(SearchFilters.period(of: word) == nil, "\(word)")
        }
        #expect(SearchFilters.isNumeral("3", after: "alien", isLast: true))
        #expect(SearchFilters.isNumeral("iii", after: "rocky", isLast: true))
        #expect(SearchFilters.isNumeral("1999", after: "matrix", isLast: true))
        #expect(!SearchFilters.isNumeral("i", after: "alien", isLast: true))
        #expect(!SearchFilters.isNumeral("alien", after: nil, isLast: false))
        // The shipped catalog's genres (the genre words are read from the catalog's lists).
        let genreLists = ["Comedy,Drama", "Action", "Short", "Animation,Romance", "Documentary", ""]
        let filters = SearchFilters(genreLists: genreLists)
        #expect(filters.filter(of: ["animated", "romantic", "dramas", "documentaries", "shorts"])?.genres.nonzeroBitCount == 5)
        #expect(filters.filter(of: ["90s", "comedy"]) != nil)
        #expect(filters.filter(of: ["comedies", "from", "the", "90s"]) != nil)
        #expect(filters.filter(of: ["90s", "horror"]) == nil, "horror is no genre of the shipped catalog")
        #expect(filters.filter(of: ["movies"]) == nil)
    }

    @Test func wordsRememberWhatFoldingTookAway() {
        #expect(SearchText.queryWords("üñí Amélie u\u{0308}n\u{0303}i\u{0301} Æon").map(\.isMostlyFolded) == [true, false, true, false])
        #expect(SearchText.words("üñí") == ["uni"])
    }
}
