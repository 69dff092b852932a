import CinematicDomain
import CinematicFeatures
import MVIKit
import Testing
import CinematicTestSupport

/// The app reducer in a store: its children's effects run side by side (each Detail under
/// its own key), and one revert brings back every part at once.
@Suite("App store")
struct AppStoreTests {
    @Test("two open Details load side by side: one's load never cancels the other's")
    func detailsLoadSideBySide() async {
        let catalog = ScriptedCatalog(holding: true, details: [DiscoverFixtures.detail(1), DiscoverFixtures.detail(2)])
        let store = Store(initialState: AppState(), reducer: AppReducer(catalog: catalog, favorites: InMemoryFavorites(), clock: ManualClock()))
        defer { store.close() }
        store.send(.host(.opened(1)))
        store.send(.host(.opened(2)))
        await waitUntil("both loads are asked") { catalog.heldDetailCount == 2 }
        catalog.releaseAllDetails()
        await waitUntil("both Details loaded") {
            store.state.details.map(\.detail.detail) == [.loaded(DiscoverFixtures.detail(1)), .loaded(DiscoverFixtures.detail(2))]
        }
    }

    @Test("reverting the app restores tab, query, lists, Detail stack and notice in one step; favorites are read again")
    func revertRestoresEveryPart() async {
        let favorites = InMemoryFavorites([DiscoverFixtures.movie(1), DiscoverFixtures.movie(2)])
        let store = Store(initialState: AppState(), reducer: AppReducer(catalog: ScriptedCatalog(details: [DiscoverFixtures.detail(1)]),
                                                                        favorites: favorites, clock: ManualClock()),
                          historyCapacity: 100)
        defer { store.close() }
        store.send(.host(.task))
        await waitUntil("the favorites are shown") { store.state.favorites.favorites.value?.count == 2 }
        store.send(.host(.queryChanged("dune")))
        store.send(.host(.tabSelected(.favorites)))
        store.send(.host(.removed(2)))
        store.send(.host(.opened(1)))
        await waitUntil("the Detail loaded") { store.state.details.first?.detail.detail.value != nil }
        let before = store.state
        guard let mark = store.history.last?.sequence else { return #expect(Bool(false), "history is kept") }
        store.send(.host(.back))
        store.send(.host(.tabSelected(.search)))
        store.send(.host(.queryChanged("alien")))
        store.send(.host(.noticeDismissed(before.notice?.id ?? 0)))
        #expect(store.state != before)
        #expect(store.revert(toSequence: mark))
        let after = store.state
        #expect(after.tab == .favorites && after.search.query == "dune" && after.details == before.details)
        #expect(after.notice == before.notice && after.removed == before.removed)
        // Favorites are storage, not state: read again, the list is what is stored now.
        await waitUntil("the favorites are what is stored") { store.state.favorites.favorites.value?.map(\.id) == [1] }
        #expect(store.state.tab == .favorites && store.state.details == before.details)
    }
}
