import CinematicFeatures
import CinematicDomain
import MVIKit
import Testing
import CinematicTestSupport

/// Pure transitions of the Discover reducer, asserted on whole states.
@Suite("Discover reducer")
struct DiscoverReducerTests {
    let reducer = DiscoverReducer(catalog: ScriptedCatalog())

    /// Runs one intent on `state`; returns the new state and the effect.
    func reduce(_ state: DiscoverState, _ intent: DiscoverIntent) -> (DiscoverState, Effect<DiscoverIntent>) {
        var state = state
        let effect = reducer.reduce(&state, intent)
        return (state, effect)
    }

    @Test("task puts every section in loading and starts work")
    func taskLoadsEverySection() {
        let (state, effect) = reduce(DiscoverState(), .task)
        var expected = DiscoverState()
        for index in expected.sections.indices { expected.sections[index].movies = .loading }
        #expect(state == expected)
        #expect(!effect.isNone)
    }

    @Test("task leaves loading and loaded sections alone, and retries failed ones")
    func taskOnlyLoadsIdleOrFailed() {
        var start = DiscoverState(sections: [.popular, .topRated, .genre("Drama"), .genre("Short")])
        start[.popular] = loadedSection(.popular, pages: 2)
        start[.topRated]?.movies = .loading
        start[.genre("Drama")]?.movies = .failed(.network("offline"))
        let (state, effect) = reduce(start, .task)
        var expected = start
        expected[.genre("Drama")]?.movies = .loading
        expected[.genre("Short")]?.movies = .loading
        #expect(state == expected)
        #expect(!effect.isNone)
    }

    @Test("task with every section loading or loaded does nothing")
    func repeatedTaskIsANoOp() {
        var start = DiscoverState(sections: [.popular, .topRated])
        start[.popular] = loadedSection(.popular, pages: 1)
        start[.topRated]?.movies = .loading
        let (state, effect) = reduce(start, .task)
        #expect(state == start)
        #expect(effect.isNone)
    }

    @Test("a full first page loads the section, not exhausted")
    func firstPageLoads() {
        let start = loadingState(.popular)
        let page = DiscoverFixtures.page(.popular, 1)
        let (state, effect) = reduce(start, .sectionLoaded(.popular, page: 1, movies: page))
        var expected = start
        expected[.popular] = DiscoverSectionState(section: .popular, movies: .loaded(page), pagesLoaded: 1)
        #expect(state == expected)
        #expect(effect.isNone)
    }

    @Test("a page shorter than the page size marks the section exhausted")
    func shortPageExhausts() {
        let page = DiscoverFixtures.page(.topRated, 1, count: 3)
        let (state, _) = reduce(loadingState(.topRated), .sectionLoaded(.topRated, page: 1, movies: page))
        #expect(state[.topRated] == DiscoverSectionState(section: .topRated, movies: .loaded(page), pagesLoaded: 1, isExhausted: true))
    }

    @Test("loadMore keeps the loaded movies and raises the loading-more flag")
    func loadMoreKeepsMovies() {
        var start = DiscoverState(sections: [.popular])
        start[.popular] = loadedSection(.popular, pages: 1)
        let (state, effect) = reduce(start, .loadMore(.popular))
        var expected = start
        expected[.popular]?.isLoadingMore = true
        #expect(state == expected)
        #expect(!effect.isNone)
    }

    @Test("loadMore is ignored while loading, while loading more, once exhausted, and for an unknown section",
          arguments: [
              DiscoverSectionState(section: .popular, movies: .loading),
              DiscoverSectionState(section: .popular, movies: .loaded(DiscoverFixtures.page(.popular, 1)), pagesLoaded: 1,
                                   isLoadingMore: true),
              DiscoverSectionState(section: .popular, movies: .loaded(DiscoverFixtures.page(.popular, 1, count: 5)),
                                   pagesLoaded: 1, isExhausted: true),
          ])
    func loadMoreIgnored(section: DiscoverSectionState) {
        var start = DiscoverState(sections: [.popular])
        start[.popular] = section
        let (state, effect) = reduce(start, .loadMore(.popular))
        #expect(state == start)
        #expect(effect.isNone)
        let (other, otherEffect) = reduce(start, .loadMore(.genre("Animation")))
        #expect(other == start)
        #expect(otherEffect.isNone)
    }

    @Test("loadMore on a section whose first page failed retries page 1")
    func loadMoreRetriesFailedFirstPage() {
        var start = DiscoverState(sections: [.popular])
        start[.popular]?.movies = .failed(.network("offline"))
        let (state, effect) = reduce(start, .loadMore(.popular))
        #expect(state == loadingState(.popular))
        #expect(!effect.isNone)
    }

    @Test("the next page appends, skipping movies already shown, and clears the flag")
    func nextPageAppends() {
        var start = DiscoverState(sections: [.popular])
        start[.popular] = loadedSection(.popular, pages: 1)
        start[.popular]?.isLoadingMore = true
        let first = DiscoverFixtures.page(.popular, 1)
        let second = [first[0]] + DiscoverFixtures.page(.popular, 2).dropFirst()
        let (state, _) = reduce(start, .sectionLoaded(.popular, page: 2, movies: second))
        #expect(state[.popular] == DiscoverSectionState(
            section: .popular, movies: .loaded(first + second.dropFirst()), pagesLoaded: 2))
    }

    @Test("a failed first page fails that section only")
    func firstPageFailureStaysInItsSection() {
        var start = DiscoverState(sections: [.popular, .topRated])
        start[.popular]?.movies = .loading
        start[.topRated]?.movies = .loading
        let (state, _) = reduce(start, .sectionFailed(.topRated, page: 1, error: .network("timeout")))
        var expected = start
        expected[.topRated]?.movies = .failed(.network("timeout"))
        #expect(state == expected)
    }

    @Test("a failed next page keeps the movies and records the error")
    func nextPageFailureKeepsMovies() {
        var start = DiscoverState(sections: [.popular])
        start[.popular] = loadedSection(.popular, pages: 1)
        start[.popular]?.isLoadingMore = true
        let (state, _) = reduce(start, .sectionFailed(.popular, page: 2, error: .network("timeout")))
        var expected = start
        expected[.popular]?.isLoadingMore = false
        expected[.popular]?.loadMoreError = .network("timeout")
        #expect(state == expected)
        // Trying again clears the error.
        let (retried, _) = reduce(state, .loadMore(.popular))
        #expect(retried[.popular]?.loadMoreError == nil)
        #expect(retried[.popular]?.isLoadingMore == true)
    }

    @Test("a result for a page the section is not waiting for is ignored")
    func unexpectedPageIgnored() {
        var start = DiscoverState(sections: [.popular, .topRated])
        start[.popular] = loadedSection(.popular, pages: 1)
        start[.topRated]?.movies = .loading
        for intent: DiscoverIntent in [
            .sectionLoaded(.popular, page: 2, movies: DiscoverFixtures.page(.popular, 2)),   // not loading more
            .sectionLoaded(.topRated, page: 3, movies: []),                                   // wrong page
            .sectionFailed(.popular, page: 1, error: .notFound),
        ] {
            #expect(reduce(start, intent).0 == start)
        }
    }

    @Test("refresh reloads every section from page 1, dropping pages and flags")
    func refreshResetsEverything() {
        var start = DiscoverState(sections: [.popular, .topRated])
        start[.popular] = loadedSection(.popular, pages: 3)
        start[.popular]?.isLoadingMore = true
        start[.topRated] = DiscoverSectionState(section: .topRated, movies: .loaded([]), pagesLoaded: 1, isExhausted: true,
                                                loadMoreError: .notFound)
        let (state, effect) = reduce(start, .refresh)
        #expect(state == DiscoverState(sections: [.popular, .topRated]).with { $0.sections = $0.sections.map {
            DiscoverSectionState(section: $0.section, movies: .loading)
        } })
        #expect(!effect.isNone)
    }

    @Test("each section has its own effect id")
    func effectIDsPerSection() {
        let ids = Set(DiscoverSection.all.map(DiscoverReducer.effectID(for:)))
        #expect(ids.count == DiscoverSection.all.count)
        #expect(DiscoverReducer.effectID(for: .popular) == "discover.popular")
    }

    // MARK: Helpers

    /// A state whose only section, `section`, is loading its first page.
    func loadingState(_ section: DiscoverSection) -> DiscoverState {
        var state = DiscoverState(sections: [section])
        state[section]?.movies = .loading
        return state
    }

    /// `section` with `pages` full fixture pages loaded.
    func loadedSection(_ section: DiscoverSection, pages: Int) -> DiscoverSectionState {
        DiscoverSectionState(section: section, movies: .loaded((1...pages).flatMap { DiscoverFixtures.page(section, $0) }),
                             pagesLoaded: pages)
    }
}

extension DiscoverState {
    /// A copy changed by `change`.
    func with(_ change: (inout DiscoverState) -> Void) -> DiscoverState {
        var copy = self
        change(&copy)
        return copy
    }
}
