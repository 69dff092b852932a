import CinematicDomain
import CinematicFeatures
import MVIKit
import Testing
import CinematicTestSupport

/// ``AppViewMemo`` only saves work: the view derived with it, state after state, is the view
/// derived without it.
@Suite("App view memo")
struct AppViewMemoTests {
    let limits = AppLimits(rowsPerList: 60, details: 2, undo: 2)
    var reducer: AppReducer { AppReducer(catalog: ScriptedCatalog(), favorites: InMemoryFavorites(), clock: ManualClock(), limits: limits) }

    /// Search showing 45 results, two Discover sections loaded, three favorites.
    func start() -> AppState {
        var state = AppState()
        state.search = SearchState(query: "movie", results: .loaded((1...45).map(DiscoverFixtures.movie)), resultsQuery: "movie",
                                   pagesLoaded: 3, isExhausted: false)
        for section in [DiscoverSection.popular, .topRated] {
            state.discover[section]?.movies = .loaded(DiscoverFixtures.page(section, 1))
        }
        state.favorites.favorites = .loaded([DiscoverFixtures.movie(7), DiscoverFixtures.movie(3), DiscoverFixtures.movie(11)])
        return state
    }

    /// What a person does, drawn from `seed`: moves, pages, sorts, tabs, sections, typing, resizing.
    static func intents(seed: UInt64, count: Int) -> [AppIntent.Host] {
        var random = SplitMix(seed: seed)
        let words = ["", "m", "mo", "movie", "movie 2", "lovf", "  movie  "]
        return (0..<count).map { _ in
            switch random.next(12) {
            case 0: .moveBy(random.next(7) - 3)
            case 1: .pageBy(random.next(2) == 0 ? 1 : -1)
            case 2: random.next(2) == 0 ? .moveToStart : .moveToEnd
            case 3: .sortChanged(AppSort.allCases[random.next(AppSort.allCases.count)])
            case 4: .tabSelected(AppTab.allCases[random.next(AppTab.allCases.count)])
            case 5: .sectionSelected(random.next(2) == 0 ? .popular : .topRated)
            case 6: .queryChanged(words[random.next(words.count)])
            case 7: .resized(random.next(12) + 1)
            case 8: .sortNext
            case 9: .tabBy(random.next(2) == 0 ? 1 : -1)
            case 10: .activate
            default: .back
            }
        }
    }

    @Test("state after state, the view with a memo is the view without one", arguments: [1, 2, 3, 4, 5] as [UInt64])
    func theMemoChangesNothing(seed: UInt64) {
        let memo = AppViewMemo()
        var state = start()
        #expect(state.view(limits: limits, memo: memo) == state.view(limits: limits))
        for (step, intent) in Self.intents(seed: seed, count: 300).enumerated() {
            _ = reducer.reduce(&state, .host(intent))
            let memoized = state.view(limits: limits, memo: memo)
            #expect(memoized == state.view(limits: limits), "step \(step): \(intent)")
            if memoized != state.view(limits: limits) { return }
        }
    }

    @Test("a keystroke reuses the rows in view and the sections: the very same arrays")
    func aKeystrokeReusesTheRows() {
        let memo = AppViewMemo()
        var state = start()
        let before = state.view(limits: limits, memo: memo)
        _ = reducer.reduce(&state, .host(.queryChanged("movif")))
        let after = state.view(limits: limits, memo: memo)
        #expect(after.list?.status == "45 shown, more match; results for \u{201C}movie\u{201D}, searching \u{201C}movif\u{201D} (Enter: now)")
        let rows = (before.list?.rows ?? [], after.list?.rows ?? [])
        #expect(rows.0.withUnsafeBufferPointer { $0.baseAddress } == rows.1.withUnsafeBufferPointer { $0.baseAddress })
        #expect(before.sections.withUnsafeBufferPointer { $0.baseAddress } == after.sections.withUnsafeBufferPointer { $0.baseAddress })
    }
}
