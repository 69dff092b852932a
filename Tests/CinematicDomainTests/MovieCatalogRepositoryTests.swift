import CinematicDomain
import Testing
import CinematicTestSupport

/// One requirement per request: a catalog implements `search`, `discover` and `detail` (each
/// saying where its answer came from) and gets the plain accessors from them. No requirement
/// has a default, so a conformer that forgets one does not compile (it used to compile and
/// recurse forever between a plain and a "sourced" default).
@Suite("MovieCatalogRepository: plain accessors derive from the requirements")
struct MovieCatalogRepositoryTests {
    /// The three requirements, nothing else.
    struct ThreeRequests: MovieCatalogRepository {
        func search(matching query: String, page: Int) async throws(MovieError) -> Sourced<[Movie]> {
            Sourced([MovieFixtures.movie(page, query)], source: .live)
        }
        func discover(section: DiscoverSection, page: Int) async throws(MovieError) -> Sourced<[Movie]> {
            Sourced([MovieFixtures.movie(page, "\(section)")], source: .cache(cachedAt: 7))
        }
        func detail(id: Int) async throws(MovieError) -> Sourced<MovieDetail> {
            guard id == 1 else { throw .notFound }
            return Sourced(MovieDetail(movie: MovieFixtures.movie(1, "one"), budget: nil, ratingDistribution: []), source: .local)
        }
    }

    @Test func plainAccessorsAreTheRequirementsValues() async throws {
        let catalog = ThreeRequests()
        #expect(try await catalog.searchMovies(matching: "dune", page: 2) == [MovieFixtures.movie(2, "dune")])
        #expect(try await catalog.searchMovies(matching: "dune") == [MovieFixtures.movie(1, "dune")])
        #expect(try await catalog.movies(in: .popular, page: 3) == [MovieFixtures.movie(3, "popular")])
        #expect(try await catalog.movieDetail(id: 1).movie.title == "one")
        await #expect(throws: MovieError.notFound) { try await catalog.movieDetail(id: 2) }
    }

    @Test func theRequirementsSayWhereTheAnswerCameFrom() async throws {
        let catalog: any MovieCatalogRepository = ThreeRequests()
        #expect(try await catalog.search(matching: "dune", page: 1).source == .live)
        #expect(try await catalog.discover(section: .topRated, page: 1).source == .cache(cachedAt: 7))
        #expect(try await catalog.detail(id: 1).source == .local)
    }
}
