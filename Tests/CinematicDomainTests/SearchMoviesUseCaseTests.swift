import CinematicDomain
import Testing
import CinematicTestSupport

@Suite("SearchMoviesUseCase")
struct SearchMoviesUseCaseTests {
    static let dune = Movie(id: 1, title: "Dune", year: 1984, runtime: 137, rating: 6.5, votes: 30_000,
                            genres: ["Action", "Drama"], mpaa: "PG-13")

    @Test func theMinimumQueryLengthIsTwo() {
        #expect(SearchMoviesUseCase.minimumQueryLength == 2)
    }

    @Test(arguments: [
        ("dune", "dune"),
        ("  dune  ", "dune"),
        ("\tdune\n", "dune"),
        (" the  godfather ", "the  godfather"),
        ("", ""),
        ("   ", ""),
        (" d ", "d"),
        ("\u{00A0}amélie\u{2003}", "amélie"),
    ])
    func trimmedRemovesOnlyLeadingAndTrailingWhitespace(query: String, expected: String) {
        #expect(SearchMoviesUseCase.trimmed(query) == expected)
    }

    @Test(arguments: [
        ("du", true), (" du ", true), ("dune", true), ("é!", true),
        ("", false), ("d", false), (" d ", false), ("   ", false), ("\n\t", false),
    ])
    func isSearchableCountsTrimmedCharacters(query: String, searchable: Bool) {
        #expect(SearchMoviesUseCase.isSearchable(query) == searchable)
    }

    @Test func aSearchableQueryReachesTheRepositoryTrimmed() async throws {
        let repository = RecordingCatalogRepository(results: [Self.dune])
        let useCase = SearchMoviesUseCase(repository: repository)
        let answer = try await useCase.execute(query: "  dune \n")
        #expect(answer == Sourced([Self.dune], source: .local))
        #expect(repository.searchQueries == ["dune"])
    }

    @Test(arguments: ["", "d", " d ", "    ", "\n"])
    func aShortQueryReturnsNoMoviesAndTouchesNoRepository(query: String) async throws {
        let repository = RecordingCatalogRepository(results: [Self.dune])
        let useCase = SearchMoviesUseCase(repository: repository)
        let movies = try await useCase.movies(matching: query)
        #expect(movies == [])
        #expect(repository.searchQueries == [])
    }

    @Test func repositoryFailuresPassThroughTyped() async {
        let useCase = SearchMoviesUseCase(repository: FailingCatalogRepository(error: .network("offline")))
        await #expect(throws: MovieError.network("offline")) {
            try await useCase.execute(query: "dune")
        }
    }
}
