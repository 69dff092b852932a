import CinematicDomain
import CinematicFeatures
import MVIKit
import Testing
import CinematicTestSupport

/// The named actions every UI sends (the keymap's), the bounds and the view, asserted on
/// whole states and on the words a person reads.
@Suite("App actions and view")
struct AppActionsTests {
    let reducer = AppReducer(catalog: ScriptedCatalog(), favorites: InMemoryFavorites(), clock: ManualClock(),
                             limits: AppLimits(rowsPerList: 40, details: 2, undo: 1))

    func reduce(_ state: AppState, _ intents: [AppIntent.Host]) -> AppState {
        intents.reduce(state) { state, intent in
            var state = state
            _ = reducer.reduce(&state, .host(intent))
            return state
        }
    }

    /// Search showing `count` results for "movie" (more to load unless `exhausted`).
    func searched(_ count: Int, exhausted: Bool = false) -> AppState {
        var state = AppState()
        state.search = SearchState(query: "movie", results: .loaded((1...count).map(DiscoverFixtures.movie)), resultsQuery: "movie",
                                   pagesLoaded: (count + 19) / 20, isExhausted: exhausted)
        return state
    }

    @Test("Down, Down, Enter opens the third row; the rows shown follow the selection")
    func downDownEnter() {
        let state = reduce(searched(20), [.resized(5), .moveBy(1), .moveBy(1), .activate])
        #expect(state.details.map(\.detail.movieID) == [3])
        let scrolled = reduce(searched(20), [.resized(5), .moveBy(7)])
        #expect(scrolled.position(in: .search) == ListPosition(selection: 7, firstVisible: 3))
        #expect(scrolled.view().list?.rows.map(\.id) == [4, 5, 6, 7, 8])
        #expect(scrolled.view().list?.rows.filter(\.selected).map(\.id) == [8])
        #expect(reduce(scrolled, [.pageBy(-1)]).position(in: .search) == ListPosition(selection: 2, firstVisible: 0))
        #expect(reduce(searched(20), [.resized(5), .pageBy(1)]).position(in: .search) == ListPosition(selection: 5, firstVisible: 5),
                "PageDown from the top shows the next page")
        #expect(reduce(scrolled, [.moveToStart]).position(in: .search) == ListPosition(selection: 0, firstVisible: 0))
    }

    @Test("a resize while a restored list reloads keeps the rows shown that were saved")
    func resizeWhileRestoring() {
        var restored = searched(60)
        restored.positions[.search] = ListPosition(selection: 37, firstVisible: 23)
        restored.visibleRows = 18
        let saved = restored.search.results
        restored.search.results = .loading
        restored.search.restoringPages = 3   // as `restored` leaves it: three pages to load again
        let resized = reduce(restored, [.resized(18)])
        #expect(resized.position(in: .search) == ListPosition(selection: 37, firstVisible: 23))
        var twoPages = resized   // two of the three pages back: the selected row is, the last page not yet
        twoPages.search.results = .loaded(Array(saved.value!.prefix(40)))
        #expect(reduce(twoPages, [.resized(18)]).position(in: .search) == ListPosition(selection: 37, firstVisible: 23))
        var reloaded = resized
        reloaded.search.results = saved
        reloaded.search.restoringPages = 0
        #expect(reduce(reloaded, [.resized(18)]).position(in: .search) == ListPosition(selection: 37, firstVisible: 23))
        #expect(reduce(reloaded, [.resized(10)]).position(in: .search) == ListPosition(selection: 37, firstVisible: 28))
    }

    @Test("after time travel no search is said to run: the one on its way is cancelled, and Enter searches")
    func timeTravelCancelsTheSearch() {
        var loading = AppState()
        loading.search = SearchState(query: "dune", results: .loading, resultsQuery: "dune")
        #expect(loading.view().list?.message?.heading == "Searching for \u{201C}dune\u{201D}\u{2026}")
        let effect = reducer.reverted(&loading)
        #expect(loading.search.results == .idle && !effect.isNone)   // the search effect is cancelled
        #expect(loading.view().list?.message?.heading == "\u{201C}dune\u{201D} is not searched yet")
        #expect(loading.view().list?.message?.body == "Enter searches the catalog for it.")
        #expect(loading.view().actions.activate && reduce(loading, [.activate]).search.results == .loading)
        var typed = reduce(searched(20), [.queryChanged("movies")])
        _ = reducer.reverted(&typed)
        #expect(typed.view().list?.status
                == "20 shown, more match; results for \u{201C}movie\u{201D}, \u{201C}movies\u{201D} not searched yet (Enter: search)")
        #expect(reduce(typed, [.activate]).search.resultsQuery == "movies")
    }

    @Test("Enter on results that do not answer the typed query searches it now; a short query does nothing")
    func activateSearchesNow() {
        var typed = searched(20)
        typed.search.query = "movies"
        #expect(reduce(typed, [.activate]).search.results == .loading)
        typed.search.query = "m"
        #expect(reduce(typed, [.activate]) == typed)
    }

    @Test("End then Down loads the next page; at rowsPerList no page loads and the status says so")
    func endPastTheLastRow() {
        let state = reduce(searched(20), [.moveToEnd, .moveBy(1)])
        #expect(state.search.isLoadingMore && state.position(in: .search).selection == 20)
        let full = reduce(searched(40), [.moveToEnd, .moveBy(1), .loadMore, .search(.loadMore)])
        #expect(!full.search.isLoadingMore && full.position(in: .search).selection == 39)
        let view = full.view(limits: AppLimits(rowsPerList: 40))
        #expect(view.list?.status == "40 shown, the most a list keeps" && view.actions.loadMore == false)
        var nested = searched(40)
        _ = reducer.reduce(&nested, .search(.host(.loadMore)))
        #expect(!nested.search.isLoadingMore, "every path meets the bound")
    }

    @Test("sorting orders the rows shown; Enter opens the row shown; the list goes back to its top")
    func sorting() {
        let state = reduce(searched(20), [.moveBy(3), .sortChanged(.rating)])
        #expect(state.sort == .rating && state.position(in: .search).selection == 0)
        let shown = state.view().list?.rows.map(\.id) ?? []
        #expect(shown == AppSort.rating.apply(state.movies(of: .search)).prefix(10).map(\.id))
        #expect(reduce(state, [.activate]).details.map(\.detail.movieID) == [shown[0]])
        #expect(reduce(state, [.sortNext, .sortNext]).sort == .title)
    }

    @Test("removeSelected removes the selected favorite at once, with undo offered; the undo stack keeps its bound")
    func removeSelected() {
        var state = AppState(tab: .favorites)
        state.favorites.favorites = .loaded((1...3).map(DiscoverFixtures.movie))
        let removed = reduce(state, [.moveBy(1), .removeSelected, .moveBy(1), .removeSelected])
        #expect(removed.removed.map(\.id) == [3], "one undo kept")
        #expect(removed.notice?.offersUndo == true)
    }

    @Test("the view words each moment: nothing typed, loading, nothing found, a count")
    func words() {
        #expect(AppState().view().list?.message?.body.hasPrefix("Type at least 2 characters") == true)
        var loading = AppState()
        loading.search = SearchState(query: "dune", results: .loading, resultsQuery: "dune")
        #expect(loading.view().list?.message?.heading == "Searching for \u{201C}dune\u{201D}\u{2026}")
        var empty = AppState()
        empty.search = SearchState(query: "zzzz", results: .loaded([]), resultsQuery: "zzzz", pagesLoaded: 1, isExhausted: true)
        #expect(empty.view().list?.message?.kind == .empty)
        #expect(searched(20).view().list?.status == "20 shown, more match")
        #expect(searched(3, exhausted: true).view().list?.status == "3 movies")
        var typed = searched(20)
        typed = reduce(searched(20), [.queryChanged("movies")])   // typed on: its search is on its way
        #expect(typed.view().list?.status == "20 shown, more match; results for \u{201C}movie\u{201D}, searching \u{201C}movies\u{201D} (Enter: now)")
        #expect(AppState().view().actions.dismissNotice == false)
        #expect(AppWording.grouped(1_234_567) == "1,234,567" && AppWording.oneDecimal(8.25) == "8.3")
        #expect(AppWording.oneDecimal(1e308) == "unknown" && AppWording.oneDecimal(-.infinity) == "unknown")   // hostile rows
        #expect(AppWording.grouped(Int.min).hasPrefix("-9,223"))
    }
}
