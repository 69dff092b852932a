import CinematicDomain
import CinematicFeatures
import MVIKit
import Testing
import CinematicTestSupport

/// The Discover loop end to end over a scripted catalog: request-shaped work, so `settle()`
/// (bounded by `settleWithin`, so a broken guard fails instead of hanging).
@Suite("Discover store")
struct DiscoverStoreTests {
    typealias Request = ScriptedCatalog.Request

    @Test("task loads every section's first page, concurrently")
    func taskLoadsEverySectionConcurrently() async {
        let catalog = ScriptedCatalog(holding: true)
        let store = Store(initialState: DiscoverState(), reducer: DiscoverReducer(catalog: catalog))
        store.send(.task)
        #expect(store.state.sections.allSatisfy { $0.movies == .loading })
        // All requests are waiting at once: none needed another's answer to start.
        await waitUntil("every section requested while none answered") { catalog.heldRequests.count == DiscoverSection.all.count }
        #expect(Set(catalog.requests.map(\.section)) == Set(DiscoverSection.all))
        #expect(catalog.requests.allSatisfy { $0.page == 1 })
        catalog.releaseAll()
        await settleWithin(store)
        #expect(store.state == expectedFirstPages())
    }

    @Test("a repeated task starts no duplicate work, while loading or once loaded")
    func repeatedTaskStartsNothing() async {
        let catalog = ScriptedCatalog(holding: true)
        let store = Store(initialState: DiscoverState(), reducer: DiscoverReducer(catalog: catalog))
        store.send(.task)
        await waitUntil { catalog.heldRequests.count == DiscoverSection.all.count }
        store.send(.task)                      // while loading
        catalog.releaseAll()
        await settleWithin(store)
        #expect(catalog.requests.count == DiscoverSection.all.count)
        store.send(.task)                      // once loaded
        #expect(!store.hasPendingEffects)
        await settleWithin(store)
        #expect(catalog.requests.count == DiscoverSection.all.count)
        #expect(store.state == expectedFirstPages())
    }

    @Test("a failing section shows its failure; every other section loads")
    func failureStaysInItsSection() async {
        let catalog = ScriptedCatalog { request, _ in
            request.section == .genre("Drama") ? .failure(.network("drama is down")) : .success(DiscoverFixtures.page(request.section, 1))
        }
        let store = Store(initialState: DiscoverState(), reducer: DiscoverReducer(catalog: catalog))
        store.send(.task)
        await settleWithin(store)
        var expected = expectedFirstPages()
        expected[.genre("Drama")] = DiscoverSectionState(section: .genre("Drama"), movies: .failed(.network("drama is down")))
        #expect(store.state == expected)
    }

    @Test("loadMore appends pages until a short page exhausts the section; then it is ignored")
    func loadMorePagesUntilExhausted() async {
        let catalog = ScriptedCatalog { request, _ in
            .success(DiscoverFixtures.page(request.section, request.page, count: request.page == 3 ? 7 : MovieCatalog.pageSize))
        }
        let store = Store(initialState: DiscoverState(sections: [.popular]), reducer: DiscoverReducer(catalog: catalog))
        store.send(.task)
        await settleWithin(store)
        store.send(.loadMore(.popular))
        await settleWithin(store)
        store.send(.loadMore(.popular))
        await settleWithin(store)
        let movies = DiscoverFixtures.page(.popular, 1) + DiscoverFixtures.page(.popular, 2) + DiscoverFixtures.page(.popular, 3, count: 7)
        #expect(store.state[.popular] == DiscoverSectionState(section: .popular, movies: .loaded(movies), pagesLoaded: 3, isExhausted: true))
        store.send(.loadMore(.popular))
        #expect(!store.hasPendingEffects)
        #expect(catalog.requests == [Request(section: .popular, page: 1), Request(section: .popular, page: 2),
                                     Request(section: .popular, page: 3)])
    }

    @Test("while a page is loading more, the loaded movies stay and a second loadMore asks nothing")
    func loadMoreWhileLoadingMore() async {
        let catalog = ScriptedCatalog()
        let store = Store(initialState: DiscoverState(sections: [.popular, .topRated]), reducer: DiscoverReducer(catalog: catalog))
        store.send(.task)
        await settleWithin(store)
        catalog.isHolding = true
        store.send(.loadMore(.popular))
        #expect(store.state[.popular] == DiscoverSectionState(
            section: .popular, movies: .loaded(DiscoverFixtures.page(.popular, 1)), pagesLoaded: 1, isLoadingMore: true))
        await waitUntil { catalog.heldRequests == [Request(section: .popular, page: 2)] }
        store.send(.loadMore(.popular))
        store.send(.loadMore(.topRated))     // another section pages independently
        await waitUntil { catalog.heldRequests.count == 2 }
        catalog.releaseAll()
        await settleWithin(store)
        #expect(catalog.requests.filter { $0 == Request(section: .popular, page: 2) }.count == 1)
        #expect(store.state[.popular]?.pagesLoaded == 2)
        #expect(store.state[.topRated]?.pagesLoaded == 2)
    }

    @Test("a failed next page keeps the section's movies")
    func loadMoreFailureKeepsMovies() async {
        let catalog = ScriptedCatalog { request, _ in
            request.page == 1 ? .success(DiscoverFixtures.page(request.section, 1)) : .failure(.network("offline"))
        }
        let store = Store(initialState: DiscoverState(sections: [.popular]), reducer: DiscoverReducer(catalog: catalog))
        store.send(.task)
        await settleWithin(store)
        store.send(.loadMore(.popular))
        await settleWithin(store)
        #expect(store.state[.popular] == DiscoverSectionState(
            section: .popular, movies: .loaded(DiscoverFixtures.page(.popular, 1)), pagesLoaded: 1, loadMoreError: .network("offline")))
    }

    @Test("refresh cancels what is in flight: the answer from before the refresh is dropped, even when it comes first")
    func refreshDropsStaleAnswers() async {
        // The n-th request gets movies marked with n, so the two answers for page 1 differ.
        let catalog = ScriptedCatalog(holding: true) { request, number in
            .success(DiscoverFixtures.page(request.section, request.page, offset: number))
        }
        let tracker = EffectTracker()
        let store = Store(initialState: DiscoverState(sections: [.popular]),
                          reducer: TrackedReducer(base: DiscoverReducer(catalog: catalog), tracker: tracker))
        store.send(.task)
        await waitUntil { catalog.heldRequests.count == 1 }
        store.send(.refresh)
        await waitUntil { catalog.heldRequests.count == 2 }
        // The stale answer first (the catalog ignored the cancellation): the section is
        // loading page 1, so only the effect id can tell this answer is stale.
        catalog.release(Request(section: .popular, page: 1))
        await waitUntil("the stale effect finished offering its answer") { tracker.liveEffects == 1 }
        #expect(store.state[.popular] == DiscoverSectionState(section: .popular, movies: .loading))
        catalog.releaseAll()
        await settleWithin(store)
        #expect(store.state[.popular] == DiscoverSectionState(
            section: .popular, movies: .loaded(DiscoverFixtures.page(.popular, 1, offset: 1)), pagesLoaded: 1))
    }

    @Test("refresh while loading more reloads from page 1 and forgets the old pages")
    func refreshWhileLoadingMore() async {
        let catalog = ScriptedCatalog()
        let tracker = EffectTracker()
        let store = Store(initialState: DiscoverState(sections: [.popular]),
                          reducer: TrackedReducer(base: DiscoverReducer(catalog: catalog), tracker: tracker))
        store.send(.task)
        await settleWithin(store)
        catalog.isHolding = true
        store.send(.loadMore(.popular))
        store.send(.refresh)
        #expect(store.state[.popular] == DiscoverSectionState(section: .popular, movies: .loading))
        await waitUntil { catalog.heldRequests.count == 2 }
        catalog.releaseAll()    // page 2 (stale) then page 1
        await settleWithin(store)
        await waitUntil { tracker.liveEffects == 0 }
        #expect(store.state[.popular] == DiscoverSectionState(
            section: .popular, movies: .loaded(DiscoverFixtures.page(.popular, 1)), pagesLoaded: 1))
    }

    // MARK: Helpers

    /// Every section with its first fixture page.
    func expectedFirstPages() -> DiscoverState {
        var state = DiscoverState()
        state.sections = state.sections.map {
            DiscoverSectionState(section: $0.section, movies: .loaded(DiscoverFixtures.page($0.section, 1)), pagesLoaded: 1)
        }
        return state
    }

}
