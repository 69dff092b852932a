import CinematicData
import CinematicDomain
import Testing

@Suite("Catalog search over the real data")
struct CatalogSearchTests {
    let catalog = TestCatalog.shared

    @Test("famous titles rank first", arguments: [
        ("dune", "Dune", 1984),
        ("godfather", "The Godfather", 1972),
        ("the godfather", "The Godfather", 1972),
        ("godfather the", "The Godfather", 1972),
        ("GODFATHER", "The Godfather", 1972),
        ("star wars", "Star Wars", 1977),
        ("  star   wars  ", "Star Wars", 1977),
    ])
    func rankingUsersExpect(query: String, title: String, year: Int) throws {
        let first = try #require(try catalog.search(query).first)
        #expect(first.title == title)
        #expect(first.year == year)
    }

    @Test func prefixesFindTitlesWhileTyping() throws {
        #expect(try catalog.search("godf").first?.title == "The Godfather")
        #expect(try catalog.search("star wa").first?.title == "Star Wars")
    }

    /// 0 = the whole title is the query, 1 = the title starts with it, 2 = contains its words.
    private func matchClass(_ title: String, _ query: String) -> Int {
        let words = title.lowercased().split { !$0.isLetter && !$0.isNumber }.joined(separator: " ")
        let core = words.hasPrefix("the ") ? String(words.dropFirst(4)) : words
        if words == query || core == query { return 0 }
        return words.hasPrefix(query) || core.hasPrefix(query) ? 1 : 2
    }

    @Test("exact, then prefix, then other matches; popular first within each", arguments: ["dune", "godfather", "love"])
    func rankingClasses(query: String) throws {
        let movies = try catalog.search(query)
        let classes = movies.map { matchClass($0.title, query) }
        #expect(Set(classes).count >= 2)
        #expect(classes == classes.sorted())
        for group in Set(classes) {
            let votes = zip(movies, classes).filter { $0.1 == group }.map(\.0.votes)
            #expect(votes == votes.sorted(by: >))
        }
    }

    @Test func pagesHoldTwentyAndDoNotOverlap() throws {
        let first = try catalog.search("love")
        let second = try catalog.search("love", page: 2)
        #expect(first.count == MovieCatalog.pageSize)
        #expect(second.count == MovieCatalog.pageSize)
        #expect(Set(first.map(\.id)).isDisjoint(with: second.map(\.id)))
    }

    @Test("query syntax in user text never errors", arguments: [
        "\"", "\"dune", "dune\"", "*", "dune*", "-dune", "dune -messiah", "AND", "dune AND", "OR dune",
        "NOT", "NEAR(dune", "NEAR(a b, 2)", "title:dune", "^dune", "(dune)", ")(", "schindler's list",
        "'", "🎬", "dune 🎬", "東京物語", "Крылья", "\u{0}", "a\u{0}b", "%", "_", "\\", "{}", "[]",
    ])
    func userTextNeverReachesQuerySyntax(query: String) {
        #expect(throws: Never.self) { _ = try catalog.search(query) }
    }

    @Test func hugeQueriesAreHandled() throws {
        #expect(try catalog.search(String(repeating: "x", count: 10_000)).isEmpty)
        #expect(throws: Never.self) { _ = try catalog.search(String(repeating: "a ", count: 500)) }
    }

    @Test func operatorsAreTreatedAsWords() throws {
        #expect(try catalog.search("\"dune\"").first?.title == "Dune")
        #expect(try catalog.search("(dune)").first?.title == "Dune")
        #expect(try catalog.search("dune*").first?.title == "Dune")
        #expect(try catalog.search("schindler's list").first?.title == "Schindler's List")
        #expect(try catalog.search("🎬").isEmpty)
        #expect(try catalog.search("東京物語").isEmpty)
    }

    @Test func noMatchIsAnEmptyList() throws {
        #expect(try catalog.search("qqqzzzxxx").isEmpty)
    }
}

@Suite("Catalog lists and detail")
struct CatalogListTests {
    let catalog = TestCatalog.shared

    @Test func popularIsByVotes() async throws {
        let movies = try await catalog.movies(in: .popular, page: 1)
        #expect(movies.count == 20)
        #expect(movies.map(\.votes) == movies.map(\.votes).sorted(by: >))
    }

    @Test func topRatedHasAVoteFloor() async throws {
        let movies = try await catalog.movies(in: .topRated, page: 1)
        #expect(movies.count == 20)
        #expect(movies.allSatisfy { $0.votes >= DiscoverSection.topRatedMinimumVotes })
        #expect(movies.map(\.rating) == movies.map(\.rating).sorted(by: >))
    }

    @Test func genreListsHoldOnlyThatGenre() async throws {
        let first = try await catalog.movies(in: .genre("Animation"), page: 1)
        let second = try await catalog.movies(in: .genre("Animation"), page: 2)
        #expect((first + second).allSatisfy { $0.genres.contains("Animation") })
        #expect(Set(first.map(\.id)).isDisjoint(with: second.map(\.id)))
    }

    @Test func detailCarriesEverything() async throws {
        let detail = try await catalog.movieDetail(id: 20545)
        #expect(detail.movie.title == "The Godfather")
        #expect(detail.movie.year == 1972)
        #expect(detail.movie.runtime == 175)
        #expect(detail.budget == 6_000_000)
        #expect(detail.movie.genres == ["Drama"])
        #expect(detail.movie.mpaa == nil)
        #expect(detail.ratingDistribution == [4.5, 4.5, 4.5, 4.5, 4.5, 4.5, 4.5, 14.5, 14.5, 45.5])
    }

    @Test func unknownIDIsNotFound() async {
        await #expect(throws: MovieError.notFound) { try await catalog.movieDetail(id: 999_999) }
    }
}
