import CinematicDomain
import CinematicFeatures
import MVIKit
import Testing
import CinematicTestSupport

/// Pure transitions of the Favorites reducer, asserted on whole states.
@Suite("Favorites reducer")
struct FavoritesReducerTests {
    let reducer = FavoritesReducer(favorites: InMemoryFavorites())

    func reduce(_ state: FavoritesState, _ intent: FavoritesIntent) -> (FavoritesState, Effect<FavoritesIntent>) {
        var state = state
        let effect = reducer.reduce(&state, intent)
        return (state, effect)
    }

    @Test("task starts observing once: idle becomes loading, any later task is a no-op")
    func taskStartsObservingOnce() {
        let (loading, effect) = reduce(FavoritesState(), .task)
        #expect(loading == FavoritesState(favorites: .loading))
        #expect(!effect.isNone)
        for started in [loading, FavoritesState(favorites: .loaded([DiscoverFixtures.movie(1)]))] {
            let (state, again) = reduce(started, .task)
            #expect(state == started)
            #expect(again.isNone)
        }
    }

    @Test("a changed list replaces the shown one")
    func favoritesChangedLoads() {
        let list = [DiscoverFixtures.movie(2), DiscoverFixtures.movie(1)]
        #expect(reduce(FavoritesState(favorites: .loading), .favoritesChanged(FavoritesSnapshot(version: 1, movies: list))).0
                == FavoritesState(favorites: .loaded(list)))
        #expect(reduce(FavoritesState(favorites: .loaded(list)), .favoritesChanged(FavoritesSnapshot(version: 2, movies: []))).0
                == FavoritesState(favorites: .loaded([])))
    }

    @Test("removed starts the write and clears an old error; a failure is recorded, the list untouched")
    func removalAndFailure() {
        let list = [DiscoverFixtures.movie(1)]
        let (removing, effect) = reduce(FavoritesState(favorites: .loaded(list), removalError: .storage("old")), .removed(movieID: 1))
        #expect(removing == FavoritesState(favorites: .loaded(list)))
        #expect(!effect.isNone)
        let (failed, _) = reduce(removing, .removalFailed(.storage("disk full")))
        #expect(failed == FavoritesState(favorites: .loaded(list), removalError: .storage("disk full")))
    }
}

/// The Favorites loop: a stream-fed store that never settles, so the tests poll with a
/// bounded `waitUntil`.
@Suite("Favorites store")
struct FavoritesStoreTests {
    @Test("task shows the stored favorites, then follows changes made elsewhere")
    func followsTheRepository() async {
        let favorites = InMemoryFavorites([DiscoverFixtures.movie(1)])
        let store = Store(initialState: FavoritesState(), reducer: FavoritesReducer(favorites: favorites))
        defer { store.close() }
        store.send(.task)
        await waitUntil { store.state == FavoritesState(favorites: .loaded([DiscoverFixtures.movie(1)])) }
        favorites.replace(with: [DiscoverFixtures.movie(2), DiscoverFixtures.movie(1)])
        await waitUntil { store.state.favorites == .loaded([DiscoverFixtures.movie(2), DiscoverFixtures.movie(1)]) }
        favorites.replace(with: [])
        await waitUntil { store.state.favorites == .loaded([]) }
    }

    @Test("the store never settles while observing, and a repeated task opens no second observation")
    func repeatedTaskObservesOnce() async {
        let favorites = InMemoryFavorites()
        let store = Store(initialState: FavoritesState(), reducer: FavoritesReducer(favorites: favorites))
        defer { store.close() }
        store.send(.task)
        await waitUntil { store.state.favorites == .loaded([]) }
        #expect(store.hasPendingEffects)
        store.send(.task)
        store.send(.task)
        // Give a wrongly started observation time to register before counting.
        try? await Task.sleep(for: .milliseconds(20))
        #expect(favorites.observeCalls == 1)
        #expect(favorites.observerCount == 1)
    }

    @Test("removed deletes from the repository and the list follows")
    func removedDeletes() async {
        let favorites = InMemoryFavorites([DiscoverFixtures.movie(2), DiscoverFixtures.movie(1)])
        let store = Store(initialState: FavoritesState(), reducer: FavoritesReducer(favorites: favorites))
        defer { store.close() }
        store.send(.task)
        await waitUntil { store.state.favorites.value?.count == 2 }
        store.send(.removed(movieID: 2))
        await waitUntil { store.state == FavoritesState(favorites: .loaded([DiscoverFixtures.movie(1)])) }
        #expect(favorites.stored == [DiscoverFixtures.movie(1)])
    }

    @Test("a failed removal keeps the movie and shows a storage error")
    func failedRemoval() async {
        let favorites = InMemoryFavorites([DiscoverFixtures.movie(1)], failure: .storage("attempt to write a readonly database"))
        let store = Store(initialState: FavoritesState(), reducer: FavoritesReducer(favorites: favorites))
        defer { store.close() }
        store.send(.task)
        await waitUntil { store.state.favorites.value != nil }
        store.send(.removed(movieID: 1))
        await waitUntil { store.state.removalError != nil }
        #expect(store.state == FavoritesState(favorites: .loaded([DiscoverFixtures.movie(1)]),
                                              removalError: .storage("attempt to write a readonly database")))
    }

    @Test("closing the store stops the observation")
    func closeStopsObserving() async {
        let favorites = InMemoryFavorites()
        let store = Store(initialState: FavoritesState(), reducer: FavoritesReducer(favorites: favorites))
        store.send(.task)
        await waitUntil { favorites.observerCount == 1 }
        store.close()
        #expect(!store.hasPendingEffects)
        await waitUntil("the repository's stream ended") { favorites.observerCount == 0 }
        favorites.replace(with: [DiscoverFixtures.movie(9)])
        try? await Task.sleep(for: .milliseconds(10))
        #expect(store.state.favorites == .loaded([]))
    }
}
