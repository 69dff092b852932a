import CinematicDomain
import CinematicFeatures
import MVIKit
import Testing
import CinematicTestSupport

/// A restored Search or Discover reloads its pages one after another, within its maximum,
/// stopping at the last page that exists; the state says "loading" meanwhile.
@Suite("Restore: Search and Discover reload their pages")
struct RestoreReducerTests {
    let search = SearchReducer(searchMovies: SearchMoviesUseCase(repository: RecordingCatalogRepository()), clock: ManualClock())
    let discover = DiscoverReducer(catalog: RecordingCatalogRepository())

    func page(_ first: Int, count: Int = MovieCatalog.pageSize) -> [Movie] {
        (first..<first + count).map { SearchFixtures.movie($0, "Film \($0)") }
    }

    @Test func aRestoredSearchLoadsAtOnceWithoutDebounce() {
        var state = SearchState()
        let effect = search.reduce(&state, .restored(query: " dune ", pages: 3))
        #expect(!effect.isNone)
        var expected = SearchState(query: " dune ", results: .loading, resultsQuery: "dune")
        expected.restoringPages = 3
        #expect(state == expected)
    }

    @Test func itGoesOnPageAfterPageThenEqualsANormalSearch() {
        var state = SearchState()
        _ = search.reduce(&state, .restored(query: "dune", pages: 3))
        #expect(!search.reduce(&state, .resultsLoaded(query: "dune", page: 1, movies: page(0))).isNone)
        #expect(state.isLoadingMore && state.pagesLoaded == 1)
        #expect(!search.reduce(&state, .resultsLoaded(query: "dune", page: 2, movies: page(20))).isNone)
        #expect(search.reduce(&state, .resultsLoaded(query: "dune", page: 3, movies: page(40))).isNone)
        #expect(state == SearchState(query: "dune", results: .loaded(page(0) + page(20) + page(40)), resultsQuery: "dune", pagesLoaded: 3))
    }

    @Test func itStopsAtTheLastPageThatExists() {
        var state = SearchState()
        _ = search.reduce(&state, .restored(query: "dune", pages: 10_000))
        #expect(state.restoringPages == SearchReducer.maxRestoredPages)
        _ = search.reduce(&state, .resultsLoaded(query: "dune", page: 1, movies: page(0)))
        #expect(search.reduce(&state, .resultsLoaded(query: "dune", page: 2, movies: page(20, count: 3))).isNone)
        #expect(state.isExhausted && !state.isLoadingMore && state.restoringPages == 0)
    }

    @Test(arguments: [Int.min, -1, 0, 1])
    func fewOrNegativePagesLoadOne(pages: Int) {
        var state = SearchState()
        _ = search.reduce(&state, .restored(query: "dune", pages: pages))
        #expect(state.restoringPages == 1)
        #expect(search.reduce(&state, .resultsLoaded(query: "dune", page: 1, movies: page(0))).isNone)
    }

    @Test func aShortQueryRestoresIdle() {
        var state = SearchState()
        _ = search.reduce(&state, .restored(query: "d", pages: 4))
        #expect(state == SearchState(query: "d"))
    }

    @Test func aFailedPageEndsTheRestore() {
        var state = SearchState()
        _ = search.reduce(&state, .restored(query: "dune", pages: 3))
        _ = search.reduce(&state, .resultsLoaded(query: "dune", page: 1, movies: page(0)))
        _ = search.reduce(&state, .searchFailed(query: "dune", page: 2, error: .network("offline")))
        #expect(state.restoringPages == 0 && !state.isLoadingMore && state.loadMoreError == .network("offline"))
    }

    @Test func typingDuringARestoreReplacesIt() {
        var state = SearchState()
        _ = search.reduce(&state, .restored(query: "dune", pages: 3))
        _ = search.reduce(&state, .host(.submitted))
        #expect(state.restoringPages == 0)
    }

    @Test func discoverReloadsListedSectionsOnlyWithinTheirMaximum() {
        var state = DiscoverState()
        let effect = discover.reduce(&state, .restored([DiscoverRestoredSection(section: .popular, pages: 2),
                                                        DiscoverRestoredSection(section: .genre("Comedy"), pages: 1_000_000)]))
        #expect(!effect.isNone)
        #expect(state[.popular]?.movies == .loading && state[.popular]?.restoringPages == 2)
        #expect(state[.genre("Comedy")]?.restoringPages == DiscoverReducer.maxRestoredPages)
        #expect(state[.topRated]?.movies == .idle)
        #expect(!discover.reduce(&state, .sectionLoaded(.popular, page: 1, movies: page(0))).isNone)
        #expect(discover.reduce(&state, .sectionLoaded(.popular, page: 2, movies: page(20))).isNone)
        #expect(state[.popular] == DiscoverSectionState(section: .popular, movies: .loaded(page(0) + page(20)), pagesLoaded: 2))
    }
}
