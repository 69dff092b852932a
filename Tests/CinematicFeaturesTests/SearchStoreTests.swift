import CinematicDomain
import CinematicFeatures
import MVIKit
import Testing
import CinematicTestSupport

/// The Search store against scripted catalogs, with time on a `ManualClock` (never real sleeps).
/// Seed 004's four promises, plus `submitted` and a configurable debounce.
@Suite("Search store: the four promises")
struct SearchStoreTests {
    static func makeStore(_ repository: any MovieCatalogRepository, clock: ManualClock,
                          debounce: Duration = SearchReducer.defaultDebounce) -> Store<SearchReducer> {
        Store(initialState: SearchState(),
              reducer: SearchReducer(searchMovies: SearchMoviesUseCase(repository: repository), clock: clock,
                                     debounce: debounce))
    }

    /// A store whose effects `tracker` counts, so a test can wait for a cancelled request that
    /// ignores cancellation to finish (settle no longer waits for it).
    static func makeTrackedStore(_ repository: any MovieCatalogRepository, clock: ManualClock,
                                 tracker: EffectTracker) -> Store<TrackedReducer<SearchReducer>> {
        Store(initialState: SearchState(),
              reducer: TrackedReducer(base: SearchReducer(searchMovies: SearchMoviesUseCase(repository: repository), clock: clock),
                                      tracker: tracker))
    }

    /// Types `word` one letter at a time, advancing the clock by `pause` after each letter.
    static func type(_ word: String, into store: Store<SearchReducer>, clock: ManualClock, pause: Duration = .zero) {
        var typed = ""
        for letter in word {
            typed.append(letter)
            store.send(.queryChanged(typed))
            clock.advance(by: pause)
        }
    }

    // MARK: 1. Keystrokes collapse

    @Test func typingLetterByLetterSendsOneRequestForTheWholeWord() async {
        let repository = RecordingCatalogRepository(["voyage": SearchFixtures.voyage])
        let clock = ManualClock()
        let store = Self.makeStore(repository, clock: clock)

        Self.type("voyage", into: store, clock: clock)
        #expect(store.state == SearchState(query: "voyage").pending)
        #expect(clock.sleeperCount == 1, "one debounce pending, earlier ones cancelled")

        clock.advance(by: .milliseconds(250))
        await store.settle(within: .seconds(5))
        #expect(repository.searchQueries == ["voyage"])
        #expect(store.state == SearchFixtures.loaded("voyage", SearchFixtures.voyage))
    }

    @Test func pausesShorterThanTheDebounceStillCollapse() async {
        let repository = RecordingCatalogRepository(["voyage": SearchFixtures.voyage])
        let clock = ManualClock()
        let store = Self.makeStore(repository, clock: clock)

        Self.type("voyage", into: store, clock: clock, pause: .milliseconds(200))
        // 200 ms after the last keystroke: nothing searched yet.
        #expect(clock.sleeperCount == 1)
        #expect(repository.searchQueries == [])
        clock.advance(by: .milliseconds(49))
        #expect(clock.sleeperCount == 1)
        #expect(repository.searchQueries == [])
        #expect(store.state == SearchState(query: "voyage").pending)

        clock.advance(by: .milliseconds(1))
        await store.settle(within: .seconds(5))
        #expect(repository.searchQueries == ["voyage"])
        #expect(store.state == SearchFixtures.loaded("voyage", SearchFixtures.voyage))

        clock.advance(by: .seconds(10))
        await store.settle(within: .seconds(5))
        #expect(repository.searchQueries == ["voyage"])
    }

    // MARK: 2. A short query resets

    @Test func aShortQueryReturnsToIdleAtOnceAndCancelsThePendingSearch() async {
        let repository = RecordingCatalogRepository(["dune": SearchFixtures.dune])
        let clock = ManualClock()
        let store = Self.makeStore(repository, clock: clock)

        store.send(.queryChanged("dune"))
        #expect(store.hasPendingEffects)
        #expect(clock.sleeperCount == 1)

        store.send(.queryChanged("d"))
        #expect(store.state == SearchState(query: "d", results: .idle))
        #expect(!store.hasPendingEffects)
        #expect(clock.sleeperCount == 0)

        clock.advance(by: .seconds(1))
        await store.settle(within: .seconds(5))
        #expect(repository.searchQueries == [])
        #expect(store.state == SearchState(query: "d", results: .idle))
    }

    @Test func aShortQueryClearsLoadedResults() async {
        let repository = RecordingCatalogRepository(["dune": SearchFixtures.dune])
        let clock = ManualClock()
        let store = Self.makeStore(repository, clock: clock)
        store.send(.queryChanged("dune"))
        clock.advance(by: .milliseconds(250))
        await store.settle(within: .seconds(5))
        #expect(store.state == SearchFixtures.loaded("dune", SearchFixtures.dune))

        store.send(.queryChanged(""))
        #expect(store.state == SearchState(query: "", results: .idle))
    }

    @Test func aShortQueryDropsARequestAlreadyInFlight() async {
        let repository = HoldingCatalogRepository()
        let tracker = EffectTracker()
        let clock = ManualClock()
        let store = Self.makeTrackedStore(repository, clock: clock, tracker: tracker)
        store.send(.queryChanged("dune"))
        clock.advance(by: .milliseconds(250))
        await waitUntil("the dune request is in flight") { repository.heldQueries == ["dune"] }
        #expect(store.state == SearchFixtures.loading("dune"))

        store.send(.queryChanged(" d"))
        #expect(store.state == SearchState(query: " d", results: .idle))

        repository.release("dune", with: .success(SearchFixtures.dune))
        await waitUntil("every effect, the cancelled request included, finished") { tracker.liveEffects == 0 }
        #expect(store.state == SearchState(query: " d", results: .idle))
    }

    // MARK: 3. Stale responses are dropped

    /// The repository ignores cancellation and answers "du" after "dune" has been shown.
    @Test func aLateAnswerForAReplacedQueryNeverReachesTheScreen() async {
        let repository = HoldingCatalogRepository()
        let tracker = EffectTracker()
        let clock = ManualClock()
        let store = Self.makeTrackedStore(repository, clock: clock, tracker: tracker)

        store.send(.queryChanged("du"))
        clock.advance(by: .milliseconds(250))
        await waitUntil("the du request is in flight") { repository.heldQueries == ["du"] }
        #expect(store.state == SearchFixtures.loading("du"))

        store.send(.queryChanged("dune"))
        clock.advance(by: .milliseconds(250))
        await waitUntil("the dune request is in flight") { repository.heldQueries == ["du", "dune"] }

        repository.release("dune", with: .success(SearchFixtures.dune))
        await store.settle(within: .seconds(5))
        #expect(store.state == SearchFixtures.loaded("dune", SearchFixtures.dune))

        // The du request was cancelled, ignored it, and now answers.
        repository.release("du", with: .success(SearchFixtures.du))
        await waitUntil("the replaced du request finished") { tracker.liveEffects == 0 }
        #expect(store.state == SearchFixtures.loaded("dune", SearchFixtures.dune))
        #expect(repository.searchQueries == ["du", "dune"])
    }

    @Test func aLateFailureForAReplacedQueryIsDroppedToo() async {
        let repository = HoldingCatalogRepository()
        let tracker = EffectTracker()
        let clock = ManualClock()
        let store = Self.makeTrackedStore(repository, clock: clock, tracker: tracker)
        store.send(.queryChanged("du"))
        store.send(.submitted)
        await waitUntil { repository.heldQueries == ["du"] }
        store.send(.queryChanged("dune"))
        store.send(.submitted)
        await waitUntil { repository.heldQueries == ["du", "dune"] }

        repository.release("dune", with: .success(SearchFixtures.dune))
        await store.settle(within: .seconds(5))
        repository.release("du", with: .failure(.network("timed out")))
        await waitUntil { tracker.liveEffects == 0 }
        #expect(store.state == SearchFixtures.loaded("dune", SearchFixtures.dune))
    }

    // MARK: 4. Failures are typed

    @Test func aFailingRepositoryYieldsTheTypedMovieError() async {
        let repository = FailingCatalogRepository(error: .network("offline"))
        let clock = ManualClock()
        let store = Self.makeStore(repository, clock: clock)

        store.send(.queryChanged("dune"))
        clock.advance(by: .milliseconds(250))
        await store.settle(within: .seconds(5))
        #expect(repository.searchQueries == ["dune"])
        #expect(store.state == SearchFixtures.failed("dune", .network("offline")))
        let failure: MovieError? = store.state.results.failure
        #expect(failure == .network("offline"))
    }

    @Test func aFailureIsReplacedByTheNextSuccessfulSearch() async {
        let repository = HoldingCatalogRepository()
        let clock = ManualClock()
        let store = Self.makeStore(repository, clock: clock)
        store.send(.queryChanged("dune"))
        store.send(.submitted)
        await waitUntil { repository.heldQueries == ["dune"] }
        repository.release("dune", with: .failure(.invalidResponse("garbled")))
        await store.settle(within: .seconds(5))
        #expect(store.state == SearchFixtures.failed("dune", .invalidResponse("garbled")))

        store.send(.submitted)
        #expect(store.state == SearchFixtures.loading("dune"))
        await waitUntil { repository.heldQueries == ["dune"] }
        repository.release("dune", with: .success(SearchFixtures.dune))
        await store.settle(within: .seconds(5))
        #expect(store.state == SearchFixtures.loaded("dune", SearchFixtures.dune))
    }

    // MARK: submitted and the debounce

    @Test func submittedSkipsTheDebounce() async {
        let repository = RecordingCatalogRepository(["dune": SearchFixtures.dune])
        let clock = ManualClock()
        let store = Self.makeStore(repository, clock: clock)

        store.send(.queryChanged("dune"))
        #expect(clock.sleeperCount == 1)
        store.send(.submitted)
        #expect(clock.sleeperCount == 0, "the pending debounce was replaced")
        await store.settle(within: .seconds(5))
        #expect(repository.searchQueries == ["dune"])
        #expect(store.state == SearchFixtures.loaded("dune", SearchFixtures.dune))

        // The replaced debounce never fires a second request.
        clock.advance(by: .seconds(1))
        await store.settle(within: .seconds(5))
        #expect(repository.searchQueries == ["dune"])
    }

    @Test func submittedSearchesTheTrimmedQuery() async {
        let repository = RecordingCatalogRepository(["dune": SearchFixtures.dune])
        let store = Self.makeStore(repository, clock: ManualClock())
        store.send(.queryChanged("  dune "))
        store.send(.submitted)
        await store.settle(within: .seconds(5))
        #expect(repository.searchQueries == ["dune"])
        #expect(store.state == SearchFixtures.loaded("  dune ", SearchFixtures.dune))
    }

    @Test func submittingAShortQuerySearchesNothing() async {
        let repository = RecordingCatalogRepository()
        let clock = ManualClock()
        let store = Self.makeStore(repository, clock: clock)
        store.send(.queryChanged("d"))
        store.send(.submitted)
        #expect(store.state == SearchState(query: "d", results: .idle))
        #expect(!store.hasPendingEffects)
        clock.advance(by: .seconds(1))
        await store.settle(within: .seconds(5))
        #expect(repository.searchQueries == [])
    }

    @Test func theDebounceIsConfigurable() async {
        let repository = RecordingCatalogRepository(["dune": SearchFixtures.dune])
        let clock = ManualClock()
        let store = Self.makeStore(repository, clock: clock, debounce: .seconds(1))

        store.send(.queryChanged("dune"))
        clock.advance(by: .milliseconds(250))
        clock.advance(by: .milliseconds(749))
        #expect(clock.sleeperCount == 1, "still debouncing after 999 ms")
        #expect(repository.searchQueries == [])
        #expect(store.state == SearchState(query: "dune").pending)

        clock.advance(by: .milliseconds(1))
        await store.settle(within: .seconds(5))
        #expect(repository.searchQueries == ["dune"])
        #expect(store.state == SearchFixtures.loaded("dune", SearchFixtures.dune))
    }

    @Test func aZeroDebounceSearchesWithoutAdvancingTheClock() async {
        let repository = RecordingCatalogRepository(["dune": SearchFixtures.dune])
        let store = Self.makeStore(repository, clock: ManualClock(), debounce: .zero)
        store.send(.queryChanged("dune"))
        await store.settle(within: .seconds(5))
        #expect(repository.searchQueries == ["dune"])
        #expect(store.state == SearchFixtures.loaded("dune", SearchFixtures.dune))
    }
}
