import CinematicDomain
import CinematicFeatures
import CinematicTestSupport

/// Small, recognisable result lists for the search tests.
enum SearchFixtures {
    static func movie(_ id: Int, _ title: String, year: Int = 2000) -> Movie {
        Movie(id: id, title: title, year: year, runtime: 120, rating: 7.0, votes: 1_000, genres: ["Drama"], mpaa: nil)
    }

    static let dune = [movie(1, "Dune", year: 1984), movie(2, "Dune Warriors", year: 1991)]
    static let du = [movie(3, "Du Barry Was a Lady", year: 1943), movie(4, "Duck Soup", year: 1933)]
    static let voyage = [movie(5, "Voyage to the Bottom of the Sea", year: 1961)]

    /// The state after the first page of results for `query` (typed as it is) arrived.
    static func loaded(_ query: String, _ movies: [Movie]) -> SearchState {
        SearchState(query: query, results: .loaded(movies), resultsQuery: SearchMoviesUseCase.trimmed(query),
                    pagesLoaded: 1, isExhausted: movies.count < MovieCatalog.pageSize)
    }

    /// The state while the search for `query` runs.
    static func loading(_ query: String) -> SearchState {
        SearchState(query: query, results: .loading, resultsQuery: SearchMoviesUseCase.trimmed(query))
    }

    /// The state after the search for `query` failed.
    static func failed(_ query: String, _ error: MovieError) -> SearchState {
        SearchState(query: query, results: .failed(error), resultsQuery: SearchMoviesUseCase.trimmed(query))
    }
}
