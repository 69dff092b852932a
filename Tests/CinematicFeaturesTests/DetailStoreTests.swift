import CinematicData
import CinematicDomain
import CinematicFeatures
import MVIKit
import Testing
import CinematicTestSupport

/// The Detail loop: it observes the favorites for as long as it lives, so it never settles and
/// the tests poll with a bounded `waitUntil`.
@Suite("Detail store")
struct DetailStoreTests {
    let detail = DiscoverFixtures.detail(7)

    func makeStore(_ favorites: any FavoritesRepository, catalog: ScriptedCatalog? = nil) -> Store<DetailReducer> {
        Store(initialState: DetailState(movieID: 7),
              reducer: DetailReducer(catalog: catalog ?? ScriptedCatalog(details: [detail]), favorites: favorites))
    }

    /// Sends task and waits for the detail and the first favorites report.
    func start(_ store: Store<DetailReducer>, observers: @escaping () -> Int) async {
        store.send(.task)
        await waitUntil { store.state.detail.value != nil && observers() == 1 && store.state.storedVersion > 0 }
    }

    @Test("an unknown id fails with notFound")
    func unknownIDNotFound() async {
        let store = Store(initialState: DetailState(movieID: 404),
                          reducer: DetailReducer(catalog: ScriptedCatalog(details: [detail]), favorites: InMemoryFavorites()))
        defer { store.close() }
        store.send(.task)
        await waitUntil { !store.state.detail.isLoading && store.state.storedVersion == 1 }
        #expect(store.state == DetailState(movieID: 404, detail: .failed(.notFound), storedVersion: 1))
    }

    @Test("task loads the detail and the heart shows what is stored; a repeated task asks nothing twice")
    func taskLoadsDetailAndFavorite() async {
        let catalog = ScriptedCatalog(details: [detail])
        let favorites = InMemoryFavorites([DiscoverFixtures.movie(7)])
        let store = makeStore(favorites, catalog: catalog)
        defer { store.close() }
        store.send(.task)
        await waitUntil { store.state == DetailState(movieID: 7, detail: .loaded(detail), isFavorite: true, storedFavorite: true, storedVersion: 1) }
        store.send(.task)
        try? await Task.sleep(for: .milliseconds(20))
        #expect(catalog.detailRequests == [7])
        #expect(favorites.observeCalls == 1)
        #expect(favorites.observerCount == 1)
    }

    @Test("a tap on a stale heart flips what is stored, and the heart settles on it")
    func tapOnAStaleHeartFlipsStorage() async {
        let favorites = InMemoryFavorites()
        let store = makeStore(favorites)
        defer { store.close() }
        await start(store, observers: { favorites.observerCount })
        favorites.isHoldingNotifications = true
        favorites.replace(with: [detail.movie])         // another runtime adds it; not heard yet
        store.send(.favoriteToggled)                    // the user saw an empty heart
        await waitUntil { store.state.savingFavorite == nil }
        #expect(favorites.writes == [.remove(7)])        // the tap flipped what was stored
        #expect(favorites.stored.isEmpty)
        #expect(store.state == DetailState(movieID: 7, detail: .loaded(detail), storedVersion: 3))
        favorites.deliverNotifications()
    }

    @Test("the heart follows changes made elsewhere")
    func heartFollowsStorage() async {
        let favorites = InMemoryFavorites()
        let store = makeStore(favorites)
        defer { store.close() }
        await start(store) { favorites.observerCount }
        favorites.replace(with: [DiscoverFixtures.movie(7)])
        await waitUntil { store.state.isFavorite }
        favorites.replace(with: [DiscoverFixtures.movie(8)])
        await waitUntil { !store.state.isFavorite }
    }

    @Test("optimistic toggle: the heart fills at once; a failed write rolls it back with a storage error")
    func failedWriteRollsBack() async {
        let favorites = InMemoryFavorites(failure: .storage("disk I/O error"), holdingWrites: true)
        let store = makeStore(favorites)
        defer { store.close() }
        await start(store) { favorites.observerCount }
        store.send(.favoriteToggled)
        #expect(store.state == DetailState(movieID: 7, detail: .loaded(detail), isFavorite: true, savingFavorite: true, storedVersion: 1))
        await waitUntil { favorites.heldWriteCount == 1 }
        favorites.releaseNewestWrite()
        await waitUntil { store.state.favoriteError != nil }
        #expect(store.state == DetailState(movieID: 7, detail: .loaded(detail), favoriteError: .storage("disk I/O error"), storedVersion: 1))
        #expect(favorites.stored.isEmpty)
    }

    @Test("a failed removal rolls the heart back to filled")
    func failedRemovalRollsBack() async {
        let favorites = InMemoryFavorites([DiscoverFixtures.movie(7)])
        let store = makeStore(favorites)
        defer { store.close() }
        await start(store) { favorites.observerCount }
        await waitUntil { store.state.isFavorite }
        favorites.failure = .storage("disk I/O error")
        favorites.isHoldingWrites = true
        store.send(.favoriteToggled)
        #expect(!store.state.isFavorite)
        await waitUntil { favorites.heldWriteCount == 1 }
        favorites.releaseNewestWrite()
        await waitUntil { store.state.favoriteError != nil }
        #expect(store.state == DetailState(movieID: 7, detail: .loaded(detail), isFavorite: true,
                                           favoriteError: .storage("disk I/O error"), storedFavorite: true, storedVersion: 1))
    }

    @Test("a write-protected SQLite favorites database rolls back with SQLite's message")
    func readOnlySQLiteRollsBack() async throws {
        let favorites = try SQLiteFavorites.open(path: ":memory:")
        try await favorites.setReadOnly(true)
        let store = makeStore(favorites)
        defer { store.close() }
        await start(store) { favorites.observerCount }
        store.send(.favoriteToggled)
        await waitUntil { store.state.favoriteError != nil }
        #expect(store.state == DetailState(movieID: 7, detail: .loaded(detail),
                                           favoriteError: .storage("attempt to write a readonly database"), storedVersion: 1))
        #expect(try await favorites.list().isEmpty)
    }

    @Test("10 rapid toggles end consistent, one write at a time, even when writes finish newest first")
    func rapidTogglesEndConsistent() async {
        let favorites = InMemoryFavorites(holdingWrites: true)
        let store = makeStore(favorites)
        defer { store.close() }
        await start(store) { favorites.observerCount }
        for _ in 0..<10 { store.send(.favoriteToggled) }
        #expect(!store.state.isFavorite)
        // Let writes land newest first: the order that breaks unserialized writers.
        for _ in 0..<40 {
            await waitUntil { favorites.heldWriteCount > 0 || store.state.savingFavorite == nil }
            try? await Task.sleep(for: .milliseconds(5))    // let any concurrent write park too
            if !favorites.releaseNewestWrite() { break }
        }
        await waitUntil { store.state.savingFavorite == nil && favorites.heldWriteCount == 0 }
        #expect(favorites.maxWritesInFlight == 1)
        #expect(favorites.stored.isEmpty)
        #expect(store.state == DetailState(movieID: 7, detail: .loaded(detail), storedVersion: 3))
        #expect(favorites.writes == [.add(7), .remove(7)])     // coalesced: two writes for ten taps
    }

    @Test("rapid toggles on SQLite end with the stored favorite matching the heart, never duplicated",
          arguments: [10, 11])
    func rapidTogglesOnSQLite(toggles: Int) async throws {
        let favorites = try SQLiteFavorites.open(path: ":memory:")
        let store = makeStore(favorites)
        defer { store.close() }
        await start(store) { favorites.observerCount }
        for _ in 0..<toggles { store.send(.favoriteToggled) }
        let wish = toggles % 2 == 1
        #expect(store.state.isFavorite == wish)
        await waitUntil { store.state.savingFavorite == nil && store.state.storedFavorite == wish }
        let stored = try await favorites.list()
        #expect(stored == (wish ? [detail.movie] : []))
        // The store ends on the latest version, whichever of its reports came last.
        let version = await currentVersion(favorites)
        #expect(version >= 2)
        await waitUntil { store.state.storedVersion == version }
        #expect(store.state == DetailState(movieID: 7, detail: .loaded(detail), isFavorite: wish, storedFavorite: wish,
                                           storedVersion: version))
    }

    @Test("stores sharing one SQLite favorites see each other's changes: the heart adds, the list removes")
    func storesShareFavorites() async throws {
        let favorites = try SQLiteFavorites.open(path: ":memory:")
        let detailStore = makeStore(favorites)
        let listStore = Store(initialState: FavoritesState(), reducer: FavoritesReducer(favorites: favorites))
        defer { detailStore.close(); listStore.close() }
        await start(detailStore) { favorites.observerCount }
        listStore.send(.task)
        await waitUntil { listStore.state.favorites == .loaded([]) }
        detailStore.send(.favoriteToggled)
        await waitUntil { listStore.state.favorites == .loaded([detail.movie]) }
        listStore.send(.removed(movieID: 7))
        await waitUntil { !detailStore.state.isFavorite && detailStore.state.savingFavorite == nil }
        #expect(detailStore.state == DetailState(movieID: 7, detail: .loaded(detail), storedVersion: 3))
        await waitUntil { listStore.state.favorites == .loaded([]) }
    }

    @Test("closing the store stops observing the favorites")
    func closeStopsObserving() async {
        let favorites = InMemoryFavorites()
        let store = makeStore(favorites)
        await start(store) { favorites.observerCount }
        #expect(store.hasPendingEffects)
        store.close()
        #expect(!store.hasPendingEffects)
        await waitUntil { favorites.observerCount == 0 }
    }
}

/// The version of `favorites` now: the first snapshot an observation yields.
func currentVersion(_ favorites: some FavoritesRepository) async -> UInt64 {
    for await snapshot in favorites.observe() { return snapshot.version }
    return 0
}
