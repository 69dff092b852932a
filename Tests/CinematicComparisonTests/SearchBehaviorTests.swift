import CinematicComparison
import CinematicDomain
import MVIKit
import Testing
import CinematicTestSupport

/// Seed 004's four promises, written once and run against MVVM and MVI. Time is a
/// `ManualClock`; the repository holds every answer until the test releases it and ignores
/// cancellation, so a replaced request really does answer last.
@Suite("Search, MVVM and MVI: the four promises")
struct SearchBehaviorTests {
    /// A screen, its scripted repository and its clock.
    struct Harness {
        let repository = HoldingCatalogRepository()
        let clock = ManualClock()
        let screen: any SearchScreen

        init(_ architecture: Architecture) async {
            screen = await architecture.makeScreen(repository: repository, clock: clock)
        }

        /// Types `text`; for a searchable query, waits until its debounce is the one pending
        /// (the screen started it and replaced any earlier one).
        func type(_ text: String) async {
            await screen.type(text)
            if SearchMoviesUseCase.isSearchable(text) {
                await waitUntil("exactly one debounce pending after typing \"\(text)\"", timeout: .seconds(2)) {
                    clock.sleeperCount == 1
                }
            }
        }

        /// Lets the debounce elapse and waits until the search for `query` reaches the repository.
        func searchStarts(_ held: [String]) async {
            clock.advance(by: .milliseconds(250))
            await waitUntil("the repository holds \(held)") { repository.heldQueries == held }
        }

        /// Types "du" and lets its search start, then "dune"; answers "dune" and waits until it
        /// is shown. The "du" request, cancelled, is still held: the test answers it last.
        func duReplacedByDune() async {
            await type("du")
            await searchStarts(["du"])
            await type("dune")
            await searchStarts(["du", "dune"])
            repository.release("dune", with: .success(MovieFixtures.dune))
            await shows(.loaded(MovieFixtures.dune))
        }

        /// Waits until the screen shows `results`.
        func shows(_ results: SearchResults) async {
            await waitUntil("the screen shows \(results)") { await screen.results() == results }
        }
    }

    // MARK: 1. Keystrokes collapse

    @Test(arguments: Architecture.allCases)
    func typingLetterByLetterSendsOneRequestForTheWholeWord(_ architecture: Architecture) async {
        let harness = await Harness(architecture)
        for length in 1...6 {
            await harness.type(String("voyage".prefix(length)))
            harness.clock.advance(by: .milliseconds(100))   // a typist's pause, shorter than the debounce
        }
        #expect(harness.repository.searchQueries.isEmpty)
        await harness.searchStarts(["voyage"])
        harness.repository.release("voyage", with: .success(MovieFixtures.voyage))
        await harness.shows(.loaded(MovieFixtures.voyage))
        await harness.screen.settle()
        #expect(harness.repository.searchQueries == ["voyage"])
    }

    // MARK: 2. A short query resets and cancels

    @Test(arguments: Architecture.allCases)
    func aShortQueryReturnsToIdleAtOnceAndCancelsThePendingSearch(_ architecture: Architecture) async {
        let harness = await Harness(architecture)
        await harness.type("dune")
        await harness.searchStarts(["dune"])
        harness.repository.release("dune", with: .success(MovieFixtures.dune))
        await harness.shows(.loaded(MovieFixtures.dune))

        await harness.type("dun")
        await harness.type("d")
        #expect(await harness.screen.results() == .idle, "the short query did not reset the screen")
        #expect(harness.clock.sleeperCount == 0, "the pending search for \"dun\" survived the short query")
        harness.clock.advance(by: .seconds(1))
        await harness.screen.settle()
        #expect(harness.repository.searchQueries == ["dune"])
        #expect(await harness.screen.results() == .idle)
    }

    @Test(arguments: Architecture.allCases)
    func aShortQueryDropsTheSearchInFlight(_ architecture: Architecture) async {
        let harness = await Harness(architecture)
        await harness.type("dune")
        await harness.searchStarts(["dune"])
        await harness.shows(.loading)

        await harness.type("d")
        #expect(await harness.screen.results() == .idle)
        harness.repository.release("dune", with: .success(MovieFixtures.dune))
        await harness.screen.settle()
        #expect(await harness.screen.results() == .idle, "an answer for a query the user cleared reached the screen")
    }

    // MARK: 3. Stale answers are dropped

    @Test(arguments: Architecture.allCases)
    func aLateAnswerForAReplacedQueryNeverReachesTheScreen(_ architecture: Architecture) async {
        let harness = await Harness(architecture)
        await harness.duReplacedByDune()
        // The "du" request was cancelled, ignored it, and answers now, last.
        harness.repository.release("du", with: .success(MovieFixtures.du))
        await harness.screen.settle()
        #expect(await harness.screen.results() == .loaded(MovieFixtures.dune), "the stale answer for \"du\" replaced \"dune\"")
        #expect(harness.repository.searchQueries == ["du", "dune"])
    }

    @Test(arguments: Architecture.allCases)
    func aLateFailureForAReplacedQueryIsDroppedToo(_ architecture: Architecture) async {
        let harness = await Harness(architecture)
        await harness.duReplacedByDune()
        harness.repository.release("du", with: .failure(.network("timed out")))
        await harness.screen.settle()
        #expect(await harness.screen.results() == .loaded(MovieFixtures.dune), "the stale failure for \"du\" replaced \"dune\"")
    }

    // MARK: 4. Failures are typed

    @Test(arguments: Architecture.allCases)
    func aFailedSearchShowsTheTypedMovieError(_ architecture: Architecture) async {
        let harness = await Harness(architecture)
        await harness.type("dune")
        await harness.searchStarts(["dune"])
        harness.repository.release("dune", with: .failure(.invalidResponse("unexpected JSON")))
        await harness.screen.settle()
        // The failure's type is MovieError by construction (SearchResults is
        // LoadingPhase<[Movie], MovieError>); the test checks it is the repository's error.
        guard case let .failed(error) = await harness.screen.results() else {
            Issue.record("the failed search does not show a failure")
            return
        }
        #expect(error == .invalidResponse("unexpected JSON"))
    }
}
