import CinematicDomain
import CinematicFeatures
import MVIKit
import Testing
import CinematicTestSupport

/// Pure transitions of the app's reducer, asserted on whole states: what lies between the
/// four features (tabs, the Detail stack, positions, undo, fitted queries, notices).
@Suite("App reducer")
struct AppReducerTests {
    let reducer = AppReducer(catalog: ScriptedCatalog(), favorites: InMemoryFavorites(), clock: ManualClock())

    func reduce(_ state: AppState, _ intent: AppIntent) -> (AppState, Effect<AppIntent>) {
        var state = state
        let effect = reducer.reduce(&state, intent)
        return (state, effect)
    }

    func reduce(_ state: AppState, _ intents: [AppIntent.Host]) -> AppState {
        intents.reduce(state) { reduce($0, .host($1)).0 }
    }

    /// Search showing `count` results of one page (exhausted when fewer than a page).
    func searched(_ count: Int, exhausted: Bool = false) -> AppState {
        var state = AppState()
        state.search = SearchState(query: "movie", results: .loaded((1...max(1, count)).prefix(count).map(DiscoverFixtures.movie)),
                                   resultsQuery: "movie", pagesLoaded: 1, isExhausted: exhausted)
        return state
    }

    @Test("choosing Discover loads it once and closes the open Details")
    func tabSelection() {
        var start = searched(3)
        start.details = [OpenDetail(key: 1, detail: DetailState(movieID: 2, detail: .loading))]
        let (state, effect) = reduce(start, .host(.tabSelected(.discover)))
        var expected = start
        expected.tab = .discover
        expected.details = []
        expected.discover.sections = expected.discover.sections.map { var section = $0; section.movies = .loading; return section }
        #expect(state == expected)
        #expect(!effect.isNone)
        #expect(reduce(state, .host(.tabSelected(.discover))).0 == state, "a second time starts nothing new")
    }

    @Test("a query beyond a search's bounds is cut at a character boundary and says so; the search position resets")
    func queryFitting() {
        var start = AppState()
        start.positions[.search] = ListPosition(selection: 5, firstVisible: 2)
        let typed = String(repeating: "é", count: 300)
        let (state, _) = reduce(start, .host(.queryChanged(typed)))
        #expect(state.search.query == String(repeating: "é", count: 256))
        #expect(state.notice == AppNotice(id: 1, kind: .queryShortened, text: "Your search was shortened to 256 characters"))
        #expect(state.positions[.search] == nil)
        let bytes = String(repeating: "😀", count: 300)   // 4 bytes each: 1024 bytes is 256 of them
        #expect(reduce(start, .host(.search(.queryChanged(bytes)))).0.search.query == String(repeating: "😀", count: 256))
        let (short, _) = reduce(start, .host(.queryChanged("dune")))
        #expect(short.search.query == "dune" && short.notice == nil)
    }

    @Test("moving past the last row loads the next page and waits on the first new row; at the end it stops")
    func movingPastTheEnd() {
        let (loading, effect) = reduce(searched(20), .host(.moved(.search, 20, 15)))
        #expect(loading.position(in: .search) == ListPosition(selection: 20, firstVisible: 15))
        #expect(loading.search.isLoadingMore && !effect.isNone)
        let page2 = (21...40).map(DiscoverFixtures.movie)
        let (arrived, _) = reduce(loading, .search(.resultsLoaded(query: "movie", page: 2, movies: page2)))
        #expect(arrived.position(in: .search) == ListPosition(selection: 20, firstVisible: 15), "on the first new row")
        let (end, none) = reduce(searched(7, exhausted: true), .host(.moved(.search, 9, 9)))
        #expect(end.position(in: .search) == ListPosition(selection: 6, firstVisible: 6))
        #expect(none.isNone)
        let (failed, _) = reduce(loading, .search(.searchFailed(query: "movie", page: 2, error: .network("offline"))))
        #expect(failed.position(in: .search) == ListPosition(selection: 19, firstVisible: 15), "back on the last row")
    }

    @Test("opening pushes a Detail with the film's row; back pops it; the stack is bounded")
    func detailStack() {
        let (opened, effect) = reduce(searched(3), .host(.opened(2)))
        #expect(opened.details == [OpenDetail(key: 1, detail: DetailState(movieID: 2, detail: .loading, listing: DiscoverFixtures.movie(2)))])
        #expect(!effect.isNone)
        #expect(reduce(opened, .host(.back)).0.details == [])
        let unknown = reduce(searched(3), .host(.opened(999))).0
        #expect(unknown.details.last?.detail.listing == nil)
        let many = reduce(searched(3), Array(repeating: AppIntent.Host.opened(1), count: AppReducer.maximumDetails + 3))
        #expect(many.details.count == AppReducer.maximumDetails)
        #expect(many.details.first?.key == 4, "the oldest closed")
        #expect(reduce(AppState(), .host(.back)).0 == AppState())
    }

    @Test("a Detail's results reach it by key, and are dropped once it closed")
    func detailResultsByKey() {
        let opened = reduce(searched(3), [.opened(1), .opened(2)])
        let detail = DiscoverFixtures.detail(1)
        let (loaded, _) = reduce(opened, .detail(key: 1, .detailLoaded(detail)))
        #expect(loaded.details[0].detail.detail == .loaded(detail))
        #expect(loaded.details[1].detail.detail == .loading)
        let closed = reduce(opened, [.back, .back])
        #expect(reduce(closed, .detail(key: 1, .detailLoaded(detail))).0 == closed)
    }

    @Test("the heart of a Detail that could not load works from its row")
    func offlineHeart() {
        var state = reduce(searched(3), .host(.opened(2))).0
        state = reduce(state, .detail(key: 1, .detailFailed(.network("offline")))).0
        let (hearted, effect) = reduce(state, .host(.detail(.favoriteToggled)))
        #expect(hearted.details[0].detail.isFavorite && hearted.details[0].detail.savingFavorite == true)
        #expect(!effect.isNone)
    }

    /// The Favorites tab showing `ids`.
    func favorites(_ ids: [Int]) -> AppState {
        var state = AppState(tab: .favorites)
        state.favorites.favorites = .loaded(ids.map(DiscoverFixtures.movie))
        return state
    }

    @Test("removing pushes on the undo stack with a notice; undo puts it back at once; success says restored")
    func removeAndUndo() {
        let (removed, _) = reduce(favorites([1, 2]), .host(.removed(2)))
        #expect(removed.removed == [DiscoverFixtures.movie(2)])
        #expect(removed.notice == AppNotice(id: 1, kind: .removed, text: "Removed Movie 2", offersUndo: true))
        // The observation delivers the list without it.
        let (gone, _) = reduce(removed, .favorites(.favoritesChanged(FavoritesSnapshot(version: 2, movies: [DiscoverFixtures.movie(1)]))))
        let (undone, effect) = reduce(gone, .host(.undo))
        #expect(undone.removed == [] && undone.restoring == [DiscoverFixtures.movie(2)])
        #expect(undone.favorites.favorites == .loaded([DiscoverFixtures.movie(2), DiscoverFixtures.movie(1)]), "shown at once")
        #expect(undone.notice == nil && !effect.isNone)
        // A snapshot from before the write does not hide it.
        let stale = reduce(undone, .favorites(.favoritesChanged(FavoritesSnapshot(version: 2, movies: [DiscoverFixtures.movie(1)])))).0
        #expect(stale.favorites.favorites == .loaded([DiscoverFixtures.movie(2), DiscoverFixtures.movie(1)]))
        let saved = reduce(stale, .undoSaved(DiscoverFixtures.movie(2))).0
        #expect(saved.restoring == [])
        #expect(saved.notice == AppNotice(id: 2, kind: .restored, text: "Restored Movie 2"))
    }

    @Test("a failed undo takes the film out again, keeps it undoable and says so; nothing to undo says so")
    func failedUndo() {
        let undone = reduce(favorites([1, 2]), [.removed(2), .undo])
        let (failed, _) = reduce(undone, .undoFailed(DiscoverFixtures.movie(2), .storage("disk full")))
        #expect(failed.removed == [DiscoverFixtures.movie(2)] && failed.restoring == [])
        #expect(failed.favorites.favorites == .loaded([DiscoverFixtures.movie(1)]))
        #expect(failed.notice == AppNotice(id: 2, kind: .undoFailed, text: "Could not restore Movie 2: disk full", offersUndo: true,
                                           expires: false))
        let (nothing, _) = reduce(favorites([1]), .host(.undo))
        #expect(nothing.notice == AppNotice(id: 1, kind: .nothingToUndo, text: "Nothing to undo"))
        let many = reduce(favorites(Array(1...30)), (1...30).map { AppIntent.Host.removed($0) })
        #expect(many.removed.map(\.id) == Array((11...30).reversed()), "newest first, bounded")
    }

    @Test("a notice goes when it expires or is dismissed, never for an older id")
    func notices() {
        let shown = reduce(favorites([1, 2]), [.removed(1), .removed(2)])
        #expect(shown.notice?.id == 2 && shown.notice?.text == "Removed Movie 2 (2 to undo)")
        #expect(reduce(shown, .noticeExpired(id: 1)).0 == shown)
        #expect(reduce(shown, .noticeExpired(id: 2)).0.notice == nil)
        #expect(reduce(shown, .host(.noticeDismissed(1))).0 == shown)
        #expect(reduce(shown, .host(.noticeDismissed(2))).0.notice == nil)
    }

    @Test("a restore brings back the tab, section, positions, undo stack and Details at once, and reloads the lists")
    func restore() {
        let row = DiscoverFixtures.movie(5)
        let restore = AppRestore(tab: .discover, section: .genre("Comedy"), query: "alien", searchPages: 2,
                                 sections: [DiscoverRestoredSection(section: .genre("Comedy"), pages: 3)],
                                 details: [(5, row)], positions: [.discover(.genre("Comedy")): ListPosition(selection: 45, firstVisible: 30)],
                                 removed: [row])
        let (state, effect) = reduce(AppState(), .restored(restore))
        #expect(state.tab == .discover && state.section == .genre("Comedy"))
        #expect(state.position(in: .discover(.genre("Comedy"))) == ListPosition(selection: 45, firstVisible: 30), "kept while loading")
        #expect(state.removed == [row] && state.uncheckedRows == [5], "an undo stores the catalog's row of a restored film")
        var detail = DetailState(movieID: 5, detail: .loading, listing: row)
        detail.listingChecked = false  // the heart waits for the catalog's row
        #expect(state.details.map(\.detail) == [detail])
        #expect(state.search.query == "alien" && state.search.results == .loading)
        #expect(state.discover[.genre("Comedy")]?.movies == .loading)
        #expect(state.favorites.favorites == .loading)
        #expect(!effect.isNone)
    }

    @Test("retrying tries again what failed on the screen shown")
    func retry() {
        var failed = AppState()
        failed.search = SearchState(query: "dune", results: .failed(.network("offline")), resultsQuery: "dune")
        #expect(reduce(failed, .host(.retried)).0.search.results == .loading)
        var detail = reduce(failed, .host(.opened(7))).0
        detail = reduce(detail, .detail(key: 1, .detailFailed(.network("offline")))).0
        let retried = reduce(detail, .host(.retried)).0
        #expect(retried.details[0].detail.detail == .loading)
        #expect(retried.search.results == .failed(.network("offline")), "the Detail is the screen shown")
    }
}
