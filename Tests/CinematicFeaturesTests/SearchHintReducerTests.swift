import CinematicDomain
import CinematicFeatures
import CinematicTestSupport
import MVIKit
import Testing

/// The Search state says what the catalog cannot answer when the first page arrives (issue 33).
@Suite("SearchReducer: hints")
struct SearchHintReducerTests {
    let reducer = SearchReducer(searchMovies: SearchMoviesUseCase(repository: RecordingCatalogRepository()),
                                clock: ManualClock())

    func reduce(_ state: SearchState, _ intent: SearchIntent) -> SearchState {
        var state = state
        _ = reducer.reduce(&state, intent)
        return state
    }

    @Test func aPersonsNameGetsAHintWithItsTitles() {
        let titles = [SearchFixtures.movie(7, "Tom Jones", year: 1963)]
        let state = reduce(SearchFixtures.loading("tom hanks"), .resultsLoaded(query: "tom hanks", page: 1, movies: titles))
        var expected = SearchFixtures.loaded("tom hanks", titles)
        expected.hint = SearchHint.of(query: "tom hanks", results: titles)
        #expect(state == expected)
        #expect(state.hint?.kind == .person)
    }

    @Test func aTitleGetsNone() {
        let state = reduce(SearchFixtures.loading("dune"), .resultsLoaded(query: "dune", page: 1, movies: SearchFixtures.dune))
        #expect(state == SearchFixtures.loaded("dune", SearchFixtures.dune))
        #expect(state.hint == nil)
    }

    /// The hint belongs to the results it came with: a new search starts without it, and a
    /// later page keeps it.
    @Test func theHintGoesWithItsResults() {
        let page = (0..<MovieCatalog.pageSize).map { SearchFixtures.movie($0, "Horror \($0)") }
        var state = reduce(SearchFixtures.loading("horror"), .resultsLoaded(query: "horror", page: 1, movies: page))
        #expect(state.hint?.kind == .genre)
        state = reduce(state, .loadMore)
        state = reduce(state, .resultsLoaded(query: "horror", page: 2, movies: [SearchFixtures.movie(99, "Horror Express")]))
        #expect(state.hint?.kind == .genre)
        state.query = "dune"
        state = reduce(state, .submitted)
        #expect(state == SearchFixtures.loading("dune"))
    }
}
