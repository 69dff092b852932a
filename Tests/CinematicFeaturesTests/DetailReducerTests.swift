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
