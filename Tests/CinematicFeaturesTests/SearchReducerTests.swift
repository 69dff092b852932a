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
        #expect(state == SearchState(query: "dune", results: .idle).pending)
        #expect(hasEffect)
    }

    @Test func typingKeepsTheLastResultsWithTheQueryTheyAnswer() {
        let before = SearchState(query: "dun", results: .loaded(SearchFixtures.dune), resultsQuery: "dun", pagesLoaded: 1)
        let (state, hasEffect) = reduce(before, .queryChanged("dune"))
        #expect(state == SearchState(query: "dune", results: .loaded(SearchFixtures.dune), resultsQuery: "dun", pagesLoaded: 1).pending)
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
        let (state, hasEffect) = reduce(SearchState(query: " dune "), .searchNow)
        #expect(state == SearchState(query: " dune ", results: .loading, resultsQuery: "dune"))
        #expect(hasEffect)
    }

    @Test func submittedStartsLoadingAtOnce() {
        let before = SearchState(query: "dune", results: .loaded(SearchFixtures.du), resultsQuery: "du", pagesLoaded: 2, isExhausted: true)
        let (state, hasEffect) = reduce(before, .submitted)
        #expect(state == SearchState(query: "dune", results: .loading, resultsQuery: "dune"))
        #expect(hasEffect)
    }

    @Test(arguments: [SearchIntent.submitted, .searchNow])
    func submittingOrSearchingAShortQueryResetsToIdle(intent: SearchIntent) {
        let (state, _) = reduce(SearchState(query: " d ", results: .loading), intent)
        #expect(state == SearchState(query: " d ", results: .idle))
    }

    let loading = SearchState(query: "dune", results: .loading, resultsQuery: "dune")

    @Test func resultsLoadedShowsTheMovies() {
        let (state, hasEffect) = reduce(loading, .resultsLoaded(query: "dune", page: 1, movies: SearchFixtures.dune))
        #expect(state == SearchState(query: "dune", results: .loaded(SearchFixtures.dune), resultsQuery: "dune",
                                     pagesLoaded: 1, isExhausted: true))
        #expect(!hasEffect)
    }

    @Test func resultsForAnotherQueryOrPageAreDropped() {
        #expect(reduce(loading, .resultsLoaded(query: "du", page: 1, movies: SearchFixtures.du)).0 == loading)
        #expect(reduce(loading, .resultsLoaded(query: "dune", page: 2, movies: SearchFixtures.dune)).0 == loading)
        #expect(reduce(loading, .searchFailed(query: "du", page: 1, error: .network("x"))).0 == loading)
    }

    @Test func noMatchesIsLoadedEmptyNotIdle() {
        let (state, _) = reduce(loading, .resultsLoaded(query: "dune", page: 1, movies: []))
        #expect(state.results == .loaded([]))
        #expect(state.isExhausted)
    }

    @Test func searchFailedShowsTheTypedError() {
        let (state, hasEffect) = reduce(loading, .searchFailed(query: "dune", page: 1, error: .storage("locked")))
        #expect(state == SearchState(query: "dune", results: .failed(.storage("locked")), resultsQuery: "dune"))
        #expect(!hasEffect)
    }

    @Test func loadMoreAppendsTheNextPageAndStopsWhenExhausted() {
        let page1 = (1...20).map { SearchFixtures.movie($0, "Movie \($0)") }
        let page2 = (21...25).map { SearchFixtures.movie($0, "Movie \($0)") }
        let loaded = SearchState(query: "m", results: .loaded(page1), resultsQuery: "mo", pagesLoaded: 1)
        let (asking, hasEffect) = reduce(loaded, .loadMore)
        #expect(hasEffect)
        #expect(asking == SearchState(query: "m", results: .loaded(page1), resultsQuery: "mo", pagesLoaded: 1, isLoadingMore: true))
        #expect(reduce(asking, .loadMore).hasEffect == false, "one page at a time")
        let (more, _) = reduce(asking, .resultsLoaded(query: "mo", page: 2, movies: page2))
        #expect(more == SearchState(query: "m", results: .loaded(page1 + page2), resultsQuery: "mo", pagesLoaded: 2, isExhausted: true))
        #expect(reduce(more, .loadMore).hasEffect == false, "exhausted")
        let (failed, _) = reduce(asking, .searchFailed(query: "mo", page: 2, error: .network("offline")))
        #expect(failed == SearchState(query: "m", results: .loaded(page1), resultsQuery: "mo", pagesLoaded: 1,
                                      loadMoreError: .network("offline")))
        #expect(reduce(SearchState(), .loadMore).hasEffect == false, "nothing loaded yet")
    }

    @Test func theDefaultDebounceIs250Milliseconds() {
        #expect(SearchReducer.defaultDebounce == .milliseconds(250))
        #expect(SearchReducer.searchEffect == "search")
    }
}

extension SearchState {
    /// This state with its search on its way (``SearchState/searchPending``): what typing
    /// leaves while the debounce runs.
    var pending: SearchState {
        var state = self
        state.searchPending = true
        return state
    }
}
