import CinematicComparison
import CinematicDomain
import MVIKit
import Testing
import CinematicTestSupport

/// MV's model on its own: what `MovieSearch` owns. The test plays SwiftUI's part, starting a
/// call per query and cancelling the one the user replaced.
@Suite("Search, MV: the model's own promises")
struct MovieSearchTests {
    let repository = HoldingCatalogRepository()

    func makeModel() async -> MovieSearch { await MovieSearch(searchMovies: SearchMoviesUseCase(repository: repository)) }

    /// Starts a search on the screen's actor, as `.task(id:)` would.
    func start(_ query: String, on model: MovieSearch) -> Task<Void, Never> {
        Task { @ScreenActor in await model.search(for: query) }
    }

    /// Searches "du"; once it is in flight the query changes, so (as SwiftUI would) the test
    /// cancels that call and searches "dune", which is answered and shown. Returns the
    /// cancelled "du" call, still held by the repository.
    func duReplacedByDune(on model: MovieSearch) async -> Task<Void, Never> {
        let du = start("du", on: model)
        await waitUntil("the du request is in flight") { repository.heldQueries == ["du"] }
        du.cancel()                                             // the query changed: SwiftUI cancels
        let dune = start("dune", on: model)
        await waitUntil("the dune request is in flight") { repository.heldQueries == ["du", "dune"] }
        repository.release("dune", with: .success(MovieFixtures.dune))
        await dune.value
        #expect(await model.results == .loaded(MovieFixtures.dune))
        return du
    }

    @Test func aSearchShowsLoadingThenTheMovies() async {
        let model = await makeModel()
        let call = start("dune", on: model)
        await waitUntil("the dune request is in flight") { repository.heldQueries == ["dune"] }
        #expect(await model.results == .loading)
        repository.release("dune", with: .success(MovieFixtures.dune))
        await call.value
        #expect(await model.results == .loaded(MovieFixtures.dune))
    }

    @Test func aShortQueryShowsIdleAndTouchesNoRepository() async {
        let model = await makeModel()
        let call = start("dune", on: model)
        await waitUntil("the dune request is in flight") { repository.heldQueries == ["dune"] }
        repository.release("dune", with: .success(MovieFixtures.dune))
        await call.value

        await start(" d ", on: model).value
        #expect(await model.results == .idle, "a short query left the old results on screen")
        #expect(repository.searchQueries == ["dune"])
    }

    @Test func aCancelledCallsLateAnswerNeverReachesTheScreen() async {
        let model = await makeModel()
        let du = await duReplacedByDune(on: model)
        repository.release("du", with: .success(MovieFixtures.du))   // ignores cancellation, answers last
        await du.value
        #expect(await model.results == .loaded(MovieFixtures.dune), "the stale answer for \"du\" replaced \"dune\"")
    }

    @Test func aCancelledCallsLateFailureIsDroppedToo() async {
        let model = await makeModel()
        let du = await duReplacedByDune(on: model)
        repository.release("du", with: .failure(.network("timed out")))
        await du.value
        #expect(await model.results == .loaded(MovieFixtures.dune), "the stale failure for \"du\" replaced \"dune\"")
    }

    @Test func aFailedSearchShowsTheTypedMovieError() async {
        let model = await makeModel()
        let call = start("dune", on: model)
        await waitUntil("the dune request is in flight") { repository.heldQueries == ["dune"] }
        repository.release("dune", with: .failure(.invalidResponse("unexpected JSON")))
        await call.value
        #expect(await model.results == .failed(.invalidResponse("unexpected JSON")))
    }
}

/// The stand-in for SwiftUI's `.task(id: query)`: checked so that the MV version's view is
/// known to do what the modifier does (debounce by cancellation, reset on a short query).
@Suite("Search, MV: the driver that plays .task(id:)")
struct SearchTaskDriverTests {
    @Test func typingCollapsesToOneSearchAndAShortQueryResets() async {
        let repository = HoldingCatalogRepository()
        let clock = ManualClock()
        let model = await MovieSearch(searchMovies: SearchMoviesUseCase(repository: repository))
        let driver = await SearchTaskDriver(search: model, clock: clock)
        for length in 2...6 {
            await driver.queryChanged(to: String("voyage".prefix(length)))
            await waitUntil("one debounce pending") { clock.sleeperCount == 1 }
        }
        clock.advance(by: .milliseconds(250))
        await waitUntil("the voyage request is in flight") { repository.heldQueries == ["voyage"] }
        repository.release("voyage", with: .success(MovieFixtures.voyage))
        await waitUntil("voyage is shown") { await model.results == .loaded(MovieFixtures.voyage) }

        await driver.queryChanged(to: "v")
        await waitUntil("the short query resets the screen") { await model.results == .idle }
        #expect(repository.searchQueries == ["voyage"])
    }
}
