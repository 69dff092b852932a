import CinematicDomain
import MVIKit

/// What the Search screen renders.
public struct SearchState: Equatable, Sendable {
    /// The text in the search field, as typed.
    public var query: String
    /// The results for the last query searched.
    public var results: LoadingPhase<[Movie], MovieError>

    /// Creates a state; the default is an empty, idle search.
    public init(query: String = "", results: LoadingPhase<[Movie], MovieError> = .idle) {
        self.query = query
        self.results = results
    }
}

/// Everything that can happen on the Search screen.
public enum SearchIntent: Equatable, Sendable, HostIntents {
    /// What the user did: the only intents a host may send (the C API decodes exactly these).
    case host(Host)
    /// Internal: the debounce elapsed.
    case searchNow
    /// Internal: the search succeeded.
    case resultsLoaded([Movie])
    /// Internal: the search failed.
    case searchFailed(MovieError)

    /// The intents a host may send.
    public enum Host: Equatable, Sendable {
        /// The user edited the query (debounced search).
        case queryChanged(String)
        /// The user submitted the query: search now, skipping the debounce.
        case submitted
    }

    /// The user edited the query: `.host(.queryChanged(query))`.
    public static func queryChanged(_ query: String) -> SearchIntent { .host(.queryChanged(query)) }
    /// The user submitted the query: `.host(.submitted)`.
    public static let submitted = SearchIntent.host(.submitted)
}

/// The Search feature's reducer: debounced, switch-latest search with typed failures.
///
/// The debounce and the request share ``searchEffect``, so each keystroke replaces whatever
/// was pending or in flight, and a stale answer can never reach the state.
///
/// ```swift
/// let store = Store(initialState: SearchState(),
///                   reducer: SearchReducer(searchMovies: SearchMoviesUseCase(repository: catalog)))
/// store.send(.queryChanged("dune"))
/// ```
public struct SearchReducer: Reducer {
    /// The one id shared by the debounce and the request.
    public static let searchEffect: EffectID = "search"
    /// The default pause after the last keystroke before searching.
    public static let defaultDebounce: Duration = .milliseconds(250)

    private let searchMovies: SearchMoviesUseCase
    private let clock: any Clock<Duration>
    private let debounce: Duration

    /// Creates the reducer. The clock defaults to the system's continuous clock; tests pass a
    /// ``ManualClock``.
    public init(searchMovies: SearchMoviesUseCase, clock: any Clock<Duration> = ContinuousClock(),
                debounce: Duration = SearchReducer.defaultDebounce) {
        self.searchMovies = searchMovies
        self.clock = clock
        self.debounce = debounce
    }

    public func reduce(_ state: inout SearchState, _ intent: SearchIntent) -> Effect<SearchIntent> {
        switch intent {
        case let .host(.queryChanged(query)):
            state.query = query
            guard SearchMoviesUseCase.isSearchable(query) else { return reset(&state) }
            return .run(id: Self.searchEffect) { [clock, debounce] send in
                do { try await clock.sleep(for: debounce) } catch { return }
                await send(.searchNow)
            }
        case .host(.submitted), .searchNow:
            guard SearchMoviesUseCase.isSearchable(state.query) else { return reset(&state) }
            state.results = .loading
            return search(state.query)
        case let .resultsLoaded(movies):
            state.results = .loaded(movies)
            return .none
        case let .searchFailed(error):
            state.results = .failed(error)
            return .none
        }
    }

    /// A short query: back to idle at once, and nothing pending survives.
    private func reset(_ state: inout SearchState) -> Effect<SearchIntent> {
        state.results = .idle
        return .cancel(Self.searchEffect)
    }

    private func search(_ query: String) -> Effect<SearchIntent> {
        .run(id: Self.searchEffect) { [searchMovies] send in
            do throws(MovieError) {
                await send(.resultsLoaded(try await searchMovies.execute(query: query)))
            } catch {
                await send(.searchFailed(error))
            }
        }
    }
}
