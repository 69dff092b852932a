import CinematicData
import CinematicDomain
import CinematicFeatures
import MVIKit
import Testing
import CinematicTestSupport

/// Pure transitions of the Detail reducer, asserted on whole states.
@Suite("Detail reducer")
struct DetailReducerTests {
    let reducer = DetailReducer(catalog: ScriptedCatalog(), favorites: InMemoryFavorites())
    let detail = DiscoverFixtures.detail(7)

    func reduce(_ state: DetailState, _ intent: DetailIntent) -> (DetailState, Effect<DetailIntent>) {
        var state = state
        let effect = reducer.reduce(&state, intent)
        return (state, effect)
    }

    /// The detail of movie 7, loaded, with the given favorite fields.
    func loaded(isFavorite: Bool = false, error: MovieError? = nil, saving: Bool? = nil, stored: Bool = false,
                version: UInt64 = 0) -> DetailState {
        DetailState(movieID: 7, detail: .loaded(detail), isFavorite: isFavorite, favoriteError: error,
                    savingFavorite: saving, storedFavorite: stored, storedVersion: version)
    }

    /// The favorites at `version`: movie 7 among them when `withSeven`.
    func snapshot(_ version: UInt64, withSeven: Bool) -> FavoritesSnapshot {
        FavoritesSnapshot(version: version, movies: withSeven ? [DiscoverFixtures.movie(3), DiscoverFixtures.movie(7)]
                                                              : [DiscoverFixtures.movie(3)])
    }

    @Test("task loads; a repeated task while loading or loaded does nothing; after a failure it retries")
    func taskLoadsOnce() {
        let (loading, effect) = reduce(DetailState(movieID: 7), .task)
        #expect(loading == DetailState(movieID: 7, detail: .loading))
        #expect(!effect.isNone)
        for started in [loading, loaded()] {
            let (state, again) = reduce(started, .task)
            #expect(state == started)
            #expect(again.isNone)
        }
        let (retrying, retry) = reduce(DetailState(movieID: 7, detail: .failed(.network("offline"))), .task)
        #expect(retrying == DetailState(movieID: 7, detail: .loading))
        #expect(!retry.isNone)
    }

    @Test("detail results: loaded, or failed with the typed error")
    func detailResults() {
        let loading = DetailState(movieID: 7, detail: .loading)
        #expect(reduce(loading, .detailLoaded(detail)).0 == loaded())
        #expect(reduce(loading, .detailFailed(.notFound)).0 == DetailState(movieID: 7, detail: .failed(.notFound)))
    }

    @Test("the heart ignores taps until the detail has loaded")
    func toggleNeedsTheDetail() {
        for start in [DetailState(movieID: 7), DetailState(movieID: 7, detail: .loading),
                      DetailState(movieID: 7, detail: .failed(.notFound))] {
            let (state, effect) = reduce(start, .favoriteToggled)
            #expect(state == start)
            #expect(effect.isNone)
        }
    }

    @Test("a tap flips the heart at once and starts the write; it clears an old error")
    func toggleIsOptimistic() {
        let (state, effect) = reduce(loaded(error: .storage("old")), .favoriteToggled)
        #expect(state == loaded(isFavorite: true, saving: true))
        #expect(!effect.isNone)
    }

    @Test("a tap while a write is in flight only records the wish")
    func toggleDuringWriteWaits() {
        let (state, effect) = reduce(loaded(isFavorite: true, saving: true), .favoriteToggled)
        #expect(state == loaded(isFavorite: false, saving: true))
        #expect(effect.isNone)
    }

    @Test("a completed write that matches the wish ends saving")
    func savedMatchingWish() {
        let (state, effect) = reduce(loaded(isFavorite: true, saving: true, version: 1), .favoriteSaved(version: 2, isFavorite: true))
        #expect(state == loaded(isFavorite: true, stored: true, version: 2))
        #expect(effect.isNone)
    }

    @Test("a completed write that no longer matches the wish writes the wish next")
    func savedStaleWishWritesAgain() {
        let (state, effect) = reduce(loaded(isFavorite: false, saving: true, version: 1), .favoriteSaved(version: 2, isFavorite: true))
        #expect(state == loaded(isFavorite: false, saving: false, stored: true, version: 2))
        #expect(!effect.isNone)
    }

    @Test("a failed write rolls the heart back to the stored value and shows the error")
    func failedWriteRollsBack() {
        let (added, _) = reduce(loaded(isFavorite: true, saving: true), .favoriteSaveFailed(.storage("disk full")))
        #expect(added == loaded(isFavorite: false, error: .storage("disk full")))
        let (removed, _) = reduce(loaded(isFavorite: false, saving: false, stored: true), .favoriteSaveFailed(.storage("disk full")))
        #expect(removed == loaded(isFavorite: true, error: .storage("disk full"), stored: true))
    }

    @Test("stored changes move the heart when no write is in flight, and only the stored value during one")
    func favoritesChanged() {
        #expect(reduce(loaded(), .favoritesChanged(snapshot(1, withSeven: true))).0 == loaded(isFavorite: true, stored: true, version: 1))
        #expect(reduce(loaded(isFavorite: true, stored: true, version: 1), .favoritesChanged(snapshot(2, withSeven: false))).0
                == loaded(version: 2))
        #expect(reduce(loaded(isFavorite: false, saving: false, stored: false, version: 1), .favoritesChanged(snapshot(2, withSeven: true))).0
                == loaded(isFavorite: false, saving: false, stored: true, version: 2))
        // Before the detail loads, the heart already follows storage.
        #expect(reduce(DetailState(movieID: 7, detail: .loading), .favoritesChanged(snapshot(1, withSeven: true))).0
                == DetailState(movieID: 7, detail: .loading, isFavorite: true, storedFavorite: true, storedVersion: 1))
    }

    // MARK: Versions: reports about storage arrive in no fixed order

    @Test("a change seen while saving updates the stored value, not the heart")
    func changeWhileSavingKeepsTheHeart() {
        let (added, none) = reduce(loaded(isFavorite: true, saving: true, version: 1), .favoritesChanged(snapshot(2, withSeven: true)))
        #expect(added == loaded(isFavorite: true, saving: true, stored: true, version: 2))
        #expect(none.isNone)
        let (removed, _) = reduce(added, .favoritesChanged(snapshot(3, withSeven: false)))
        #expect(removed == loaded(isFavorite: true, saving: true, stored: false, version: 3))
    }

    @Test("a write result older than a snapshot already seen keeps the newer stored value, and the heart shows it")
    func olderSaveResultLoses() {
        // This store's add committed as version 2; another store removed the movie (version 3),
        // whose snapshot arrived first.
        let (state, effect) = reduce(loaded(isFavorite: true, saving: true, stored: false, version: 3),
                                     .favoriteSaved(version: 2, isFavorite: true))
        #expect(state == loaded(isFavorite: false, stored: false, version: 3))
        #expect(effect.isNone)
        // The same version as the snapshot's: nothing newer to learn, the heart settles on it.
        let (same, _) = reduce(loaded(isFavorite: true, saving: true, stored: true, version: 2),
                               .favoriteSaved(version: 2, isFavorite: true))
        #expect(same == loaded(isFavorite: true, stored: true, version: 2))
    }

    @Test("a write result newer than every snapshot seen sets the stored value; a later, older snapshot is ignored")
    func olderSnapshotLoses() {
        let (saved, _) = reduce(loaded(isFavorite: false, saving: false, stored: true, version: 2),
                                .favoriteSaved(version: 3, isFavorite: false))
        #expect(saved == loaded(isFavorite: false, stored: false, version: 3))
        // The observation had already taken version 2 off its stream before the result arrived.
        let (stale, effect) = reduce(saved, .favoritesChanged(snapshot(2, withSeven: true)))
        #expect(stale == saved)
        #expect(effect.isNone)
    }

    @Test("a tap during a write: the second write happens only when the wish differs from what is stored")
    func toggleDuringWriteWritesOnlyWhenNeeded() {
        // The wish (false) differs from what the write stored (true): write it.
        let (needed, write) = reduce(loaded(isFavorite: false, saving: true, version: 1), .favoriteSaved(version: 2, isFavorite: true))
        #expect(needed == loaded(isFavorite: false, saving: false, stored: true, version: 2))
        #expect(!write.isNone)
        // Another store already removed the movie (version 3): the wish is stored, nothing to write.
        let (done, none) = reduce(loaded(isFavorite: false, saving: true, stored: false, version: 3),
                                  .favoriteSaved(version: 2, isFavorite: true))
        #expect(done == loaded(isFavorite: false, stored: false, version: 3))
        #expect(none.isNone)
        // Tap, tap, tap during the write: the last wish is what was written; nothing more to do.
        var state = loaded(isFavorite: true, saving: true, version: 1)
        for _ in 0..<2 { _ = reducer.reduce(&state, .favoriteToggled) }
        let (settled, nothing) = reduce(state, .favoriteSaved(version: 2, isFavorite: true))
        #expect(settled == loaded(isFavorite: true, stored: true, version: 2))
        #expect(nothing.isNone)
    }
}

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
