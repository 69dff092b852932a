import CinematicDomain
import CinematicFeatures
import CinematicTestSupport

/// Small, recognisable result lists for the search tests.
enum SearchFixtures {
    static func movie(_ id: Int, _ title: String, year: Int = 2000) -> Movie { MovieFixtures.movie(id, title, year: year) }

    static let dune = MovieFixtures.dune
    static let du = MovieFixtures.du
    static let voyage = MovieFixtures.voyage

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
