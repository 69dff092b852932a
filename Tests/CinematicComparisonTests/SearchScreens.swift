import CinematicComparison
import CinematicDomain
import CinematicFeatures
import MVIKit
import Testing
import CinematicTestSupport

/// One version of Search as the behavioural suite drives it: the suite's bodies are written
/// once against this, and run against each ``Architecture``.
protocol SearchScreen: Sendable {
    /// The user edited the field to `text`.
    func type(_ text: String) async
    /// What the screen shows.
    func results() async -> SearchResults
    /// Waits until every search this screen started has finished, replaced ones included
    /// (they may be waiting on a repository that ignores cancellation); records a test
    /// failure instead of hanging.
    func settle() async
}

/// The versions the behavioural suite runs against. MV's model has its own tests
/// (``MovieSearchTests``): its promises 1 and 2 live in the view.
enum Architecture: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case mvvm
    case mvi

    var testDescription: String { rawValue.uppercased() }

    /// A fresh screen over `repository`, its debounce on `clock`.
    func makeScreen(repository: any MovieCatalogRepository, clock: ManualClock) async -> any SearchScreen {
        let searchMovies = SearchMoviesUseCase(repository: repository)
        switch self {
        case .mvvm: return await MVVMScreen(model: SearchViewModel(searchMovies: searchMovies, clock: clock))
        case .mvi: return MVIScreen(searchMovies: searchMovies, clock: clock)
        }
    }
}

/// MVVM: the view model, driven on its actor.
struct MVVMScreen: SearchScreen {
    let model: SearchViewModel

    @ScreenActor func type(_ text: String) async { model.query = text }

    @ScreenActor func results() async -> SearchResults { model.results }

    func settle() async {
        let settled = Flag()
        let waiter = Task { [model] in
            await model.settle()
            settled.set()
        }
        if !(await waitUntil("every search task of the view model finished", timeout: .seconds(5), { settled.isSet })) {
            waiter.cancel()
        }
    }
}

/// MVI: the project's Search reducer in an MVIKit store, unchanged; the tracker only
/// watches its effects' lifetimes so the suite can wait for a replaced one.
struct MVIScreen: SearchScreen {
    let store: Store<TrackedReducer<SearchReducer>>
    let tracker = EffectTracker()

    init(searchMovies: SearchMoviesUseCase, clock: ManualClock) {
        store = Store(initialState: SearchState(),
                      reducer: TrackedReducer(base: SearchReducer(searchMovies: searchMovies, clock: clock), tracker: tracker))
    }

    func type(_ text: String) async { store.send(.queryChanged(text)) }

    func results() async -> SearchResults { store.state.results }

    func settle() async {
        await store.settle(within: .seconds(5))
        await waitUntil("every effect of the store finished", timeout: .seconds(5)) { tracker.liveEffects == 0 }
    }
}
