import CinematicDomain
import CinematicFeatures
import MVIKit
import Testing
import CinematicTestSupport

/// Two stores write the same favorite at once: the Detail heart of movie 7 adds it while the
/// Favorites tab removes it right after the add commits. The Detail store hears of storage
/// twice, from two tasks in no fixed order: the observation's snapshot of the removal and its
/// own write's result. Whichever comes first, the heart must end on what storage holds.
@Suite("Detail cross-store race")
struct DetailRaceTests {
    let detail = DiscoverFixtures.detail(7)

    func makeStores(_ favorites: InMemoryFavorites) -> (Store<DetailReducer>, Store<FavoritesReducer>) {
        (Store(initialState: DetailState(movieID: 7),
               reducer: DetailReducer(catalog: ScriptedCatalog(details: [detail]), favorites: favorites)),
         Store(initialState: FavoritesState(), reducer: FavoritesReducer(favorites: favorites)))
    }

    /// Starts both stores and waits until each has loaded and heard of the favorites (version 1).
    func start(_ detailStore: Store<DetailReducer>, _ listStore: Store<FavoritesReducer>, _ favorites: InMemoryFavorites) async {
        detailStore.send(.task)
        listStore.send(.task)
        await waitUntil {
            detailStore.state == DetailState(movieID: 7, detail: .loaded(detail), storedVersion: 1)
                && listStore.state.favorites == .loaded([]) && favorites.observerCount == 2
        }
    }

    @Test("the removal's snapshot arrives before the add's result: the heart ends false, as stored")
    func removalSnapshotFirst() async {
        let favorites = InMemoryFavorites()
        let (detailStore, listStore) = makeStores(favorites)
        defer { detailStore.close(); listStore.close() }
        await start(detailStore, listStore, favorites)

        favorites.isHoldingResults = true
        detailStore.send(.favoriteToggled)
        await waitUntil { favorites.heldWriteCount == 1 }      // the add committed (version 2); its result is held
        favorites.isHoldingResults = false
        await waitUntil { detailStore.state.storedVersion == 2 && listStore.state.favorites == .loaded([detail.movie]) }

        listStore.send(.removed(movieID: 7))                    // version 3
        await waitUntil { detailStore.state.storedVersion == 3 }
        #expect(detailStore.state == DetailState(movieID: 7, detail: .loaded(detail), isFavorite: true,
                                                 savingFavorite: true, storedFavorite: false, storedVersion: 3))

        favorites.releaseNewestWrite()                          // favoriteSaved(version: 2, isFavorite: true)
        await waitUntil { detailStore.state.savingFavorite == nil }
        #expect(detailStore.state == DetailState(movieID: 7, detail: .loaded(detail), storedVersion: 3))
        #expect(favorites.stored.isEmpty)
        #expect(favorites.writes == [.add(7), .remove(7)])
        await waitUntil { listStore.state.favorites == .loaded([]) }
    }

    @Test("the add's result arrives before the removal's snapshot: the heart ends false, as stored")
    func addResultFirst() async {
        let favorites = InMemoryFavorites()
        let (detailStore, listStore) = makeStores(favorites)
        defer { detailStore.close(); listStore.close() }
        await start(detailStore, listStore, favorites)

        favorites.isHoldingNotifications = true
        favorites.isHoldingResults = true
        detailStore.send(.favoriteToggled)
        await waitUntil { favorites.heldWriteCount == 1 }      // the add committed (version 2), unheard; its result is held
        favorites.isHoldingResults = false

        listStore.send(.removed(movieID: 7))                    // version 3, unheard
        await waitUntil { favorites.version == 3 }
        #expect(favorites.stored.isEmpty)

        favorites.releaseNewestWrite()                          // favoriteSaved(version: 2, isFavorite: true)
        await waitUntil { detailStore.state.savingFavorite == nil }
        // All the store knows yet: version 2 holds the movie.
        #expect(detailStore.state == DetailState(movieID: 7, detail: .loaded(detail), isFavorite: true,
                                                 storedFavorite: true, storedVersion: 2))

        favorites.deliverNotifications()                        // the snapshot of version 3
        await waitUntil { detailStore.state.storedVersion == 3 }
        #expect(detailStore.state == DetailState(movieID: 7, detail: .loaded(detail), storedVersion: 3))
        #expect(favorites.stored.isEmpty)
        #expect(favorites.writes == [.add(7), .remove(7)])
        await waitUntil { listStore.state.favorites == .loaded([]) }
    }

    @Test("a second Detail of the same movie removes it while the first one's add is unreported: both hearts end false")
    func twoDetailsOfOneMovie() async {
        let favorites = InMemoryFavorites()
        let (first, listStore) = makeStores(favorites)
        let second = Store(initialState: DetailState(movieID: 7),
                           reducer: DetailReducer(catalog: ScriptedCatalog(details: [detail]), favorites: favorites))
        defer { first.close(); second.close(); listStore.close() }
        await start(first, listStore, favorites)
        second.send(.task)
        await waitUntil { second.state == DetailState(movieID: 7, detail: .loaded(detail), storedVersion: 1) }

        favorites.isHoldingResults = true
        first.send(.favoriteToggled)
        await waitUntil { favorites.heldWriteCount == 1 }      // version 2: added, result held
        favorites.isHoldingResults = false
        await waitUntil { second.state.isFavorite && second.state.storedVersion == 2 }
        second.send(.favoriteToggled)                           // version 3: removed
        await waitUntil { second.state.savingFavorite == nil && first.state.storedVersion == 3 }

        favorites.releaseNewestWrite()
        await waitUntil { first.state.savingFavorite == nil }
        let settled = DetailState(movieID: 7, detail: .loaded(detail), storedVersion: 3)
        #expect(first.state == settled)
        #expect(second.state == settled)
        #expect(favorites.stored.isEmpty)
        #expect(favorites.writes == [.add(7), .remove(7)])
    }
}
