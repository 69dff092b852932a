import CinematicDomain
import CinematicFeatures
import MVIKit
import Testing
import CinematicTestSupport

/// The reducer alone: pure transitions, compared as whole states.
@Suite("SearchReducer: transitions")
struct SearchReducerTests {
    let reducer = SearchReducer(searchMovies: SearchMoviesUseCase(repository: RecordingCatalogRepository()),
                                clock: ManualClock())

    /// Reduces `intent` on a copy of `state`; returns the new state and whether work followed.
    func reduce(_ state: SearchState, _ intent: SearchIntent) -> (SearchState, hasEffect: Bool) {
        var state = state
        let effect = reducer.reduce(&state, intent)
        return (state, !effect.isNone)
    }

    @Test func theInitialStateIsAnEmptyIdleSearch() {
        #expect(SearchState() == SearchState(query: "", results: .idle))
    }

    @Test func aSearchableQueryIsStoredAndDebouncedWithoutLoadingYet() {
        let (state, hasEffect) = reduce(SearchState(), .queryChanged("dune"))
        #expect(state == SearchState(query: "dune", results: .idle))
        #expect(hasEffect)
    }

    @Test func typingKeepsTheLastResultsUntilTheNextSearchRuns() {
        let (state, hasEffect) = reduce(SearchState(query: "dun", results: .loaded(SearchFixtures.dune)), .queryChanged("dune"))
        #expect(state == SearchState(query: "dune", results: .loaded(SearchFixtures.dune)))
        #expect(hasEffect)
    }

    @Test(arguments: ["", "d", "  d  ", "   ", "\n"])
    func aShortQueryResetsToIdleAndCancels(query: String) {
        for before in [SearchState(query: "dune", results: .loaded(SearchFixtures.dune)),
                       SearchState(query: "dune", results: .loading),
                       SearchState(query: "dune", results: .failed(.network("offline")))] {
            let (state, hasEffect) = reduce(before, .queryChanged(query))
            #expect(state == SearchState(query: query, results: .idle))
            #expect(hasEffect, "a short query cancels pending work")
        }
    }

    @Test func searchNowStartsLoadingTheCurrentQuery() {
        let (state, hasEffect) = reduce(SearchState(query: "dune"), .searchNow)
        #expect(state == SearchState(query: "dune", results: .loading))
        #expect(hasEffect)
    }

    @Test func submittedStartsLoadingAtOnce() {
        let (state, hasEffect) = reduce(SearchState(query: "dune", results: .loaded(SearchFixtures.du)), .submitted)
        #expect(state == SearchState(query: "dune", results: .loading))
        #expect(hasEffect)
    }

    @Test(arguments: [SearchIntent.submitted, .searchNow])
    func submittingOrSearchingAShortQueryResetsToIdle(intent: SearchIntent) {
        let (state, _) = reduce(SearchState(query: " d ", results: .loading), intent)
        #expect(state == SearchState(query: " d ", results: .idle))
    }

    @Test func resultsLoadedShowsTheMovies() {
        let (state, hasEffect) = reduce(SearchState(query: "dune", results: .loading), .resultsLoaded(SearchFixtures.dune))
        #expect(state == SearchState(query: "dune", results: .loaded(SearchFixtures.dune)))
        #expect(!hasEffect)
    }

    @Test func noMatchesIsLoadedEmptyNotIdle() {
        let (state, _) = reduce(SearchState(query: "zzz", results: .loading), .resultsLoaded([]))
        #expect(state == SearchState(query: "zzz", results: .loaded([])))
        #expect(state != SearchState(query: "zzz", results: .idle))
    }

    @Test func searchFailedShowsTheTypedError() {
        let (state, hasEffect) = reduce(SearchState(query: "dune", results: .loading), .searchFailed(.storage("locked")))
        #expect(state == SearchState(query: "dune", results: .failed(.storage("locked"))))
        #expect(!hasEffect)
    }

    @Test func theDefaultDebounceIs250Milliseconds() {
        #expect(SearchReducer.defaultDebounce == .milliseconds(250))
        #expect(SearchReducer.searchEffect == "search")
    }
}
