import CinematicDomain
import MVIKit

/// What the Search screen renders.
///
/// The results always say which query they answer (``resultsQuery``): while the user types
/// on, `query` moves ahead of them, and a screen can tell the shown results are for an older
/// query ("stargate" typed, results still for "star"). Paging is like Discover's: while the
/// next page loads, `results` stays loaded and ``isLoadingMore`` is true.
public struct SearchState: Equatable, Sendable {
    /// The text in the search field, as typed.
    public var query: String
    /// The results of the last search: its first pages, in rank order.
    public var results: LoadingPhase<[Movie], MovieError>
    /// The query ``results`` answer (or are loading for), trimmed; "" while idle.
    public var resultsQuery: String
    /// How many pages of results have arrived.
    public var pagesLoaded: Int
    /// True once a page shorter than a full page arrived: there are no more results.
    public var isExhausted: Bool
    /// True while the next page loads.
    public var isLoadingMore: Bool
    /// Why the last "load more" failed; cleared when loading more is tried again.
    public var loadMoreError: MovieError?
    /// Where the loaded results came from: `.cache` once any shown page is an offline copy.
    public var resultsSource: AnswerSource
    /// What the catalog cannot answer in the query the results answer (a person's name, a
    /// genre it lacks: ``SearchHint``), read when their first page arrives; nil otherwise. The
    /// results still list the titles that match.
    public var hint: SearchHint?
    /// While a restored search reloads its pages (``SearchIntent/restored(query:pages:)``), how
    /// many it loads, one after another; 0 otherwise (not on the wire).
    public var restoringPages: Int = 0
    /// True while a typed query waits out the debounce: its search is on its way (false after
    /// time travel, which cancels it: ``SearchReducer/reverted(_:)``). Not on the wire.
    public var searchPending = false

    /// Creates a state; the default is an empty, idle search.
    public init(query: String = "", results: LoadingPhase<[Movie], MovieError> = .idle, resultsQuery: String = "",
                pagesLoaded: Int = 0, isExhausted: Bool = false, isLoadingMore: Bool = false, loadMoreError: MovieError? = nil,
                resultsSource: AnswerSource = .local, hint: SearchHint? = nil) {
        self.query = query
        self.results = results
        self.resultsQuery = resultsQuery
        self.pagesLoaded = pagesLoaded
        self.isExhausted = isExhausted
        self.isLoadingMore = isLoadingMore
        self.loadMoreError = loadMoreError
        self.resultsSource = resultsSource
        self.hint = hint
    }
}

/// Everything that can happen on the Search screen.
public enum SearchIntent: Equatable, Sendable, HostIntents {
    /// What the user did: the only intents a host may send (the C API decodes exactly these).
    case host(Host)
    /// Internal: the debounce elapsed.
    case searchNow
    /// Internal: page `page` of the results for `query` arrived, from `source`, from a
    /// catalog that holds `coverage` (nil: it does not say); `unmatched`: the query's words
    /// the first film leaves out when no title matches every word.
    case resultsLoaded(query: String, page: Int, movies: [Movie], source: AnswerSource = .local, coverage: CatalogCoverage? = nil,
                       unmatched: [String] = [])
    /// Internal: page `page` of the search for `query` failed.
    case searchFailed(query: String, page: Int, error: MovieError)
    /// Internal: the store was restored from a snapshot: search `query` at once (no debounce)
    /// and load its first `pages` pages again, one after another, stopping at the last page
    /// that exists. `pages` is clamped to 1...``SearchReducer/maxRestoredPages``.
    case restored(query: String, pages: Int)


    /// The user edited the query: `.host(.queryChanged(query))`.
    public static func queryChanged(_ query: String) -> SearchIntent { .host(.queryChanged(query)) }
    /// The user submitted the query: `.host(.submitted)`.
    public static let submitted = SearchIntent.host(.submitted)
    /// The user asked for the next page: `.host(.loadMore)`.
    public static let loadMore = SearchIntent.host(.loadMore)
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
    /// The most pages a restored search loads again (25 pages of 20: 500 results); further
    /// pages load on `loadMore` as usual.
    public static let maxRestoredPages = 25

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
            state.searchPending = true
            return .run(id: Self.searchEffect) { [clock, debounce] send in
                do { try await clock.sleep(for: debounce) } catch { return }
                await send(.searchNow)
            }
        case .host(.submitted), .searchNow:
            guard SearchMoviesUseCase.isSearchable(state.query) else { return reset(&state) }
            let query = SearchMoviesUseCase.trimmed(state.query)
            state = SearchState(query: state.query, results: .loading, resultsQuery: query)
            return search(query, page: 1)
        case .host(.loadMore):
            guard state.results.value != nil, !state.isExhausted, !state.isLoadingMore else { return .none }
            state.isLoadingMore = true
            state.loadMoreError = nil
            return search(state.resultsQuery, page: state.pagesLoaded + 1)
        case let .resultsLoaded(query, page, movies, source, coverage, unmatched):
            // Only the page the state waits for, of the query it shows (the effect id already
            // drops replaced searches; this also holds for a store fed by hand).
            guard query == state.resultsQuery, page == state.pagesLoaded + 1 else { return .none }
            if page == 1 {
                state.results = .loaded(movies)
                state.resultsSource = source
                state.hint = SearchHint.of(query: query, results: movies, coverage: coverage, unmatched: unmatched)
            } else {
                state.resultsSource = state.resultsSource.combined(with: source)
                state.results = .loaded((state.results.value ?? []).appendingPage(movies))
                state.isLoadingMore = false
            }
            state.pagesLoaded = page
            state.isExhausted = movies.count < MovieCatalog.pageSize
            // A restored search goes on with its next page until it has them all (or none is left).
            guard page < state.restoringPages, !state.isExhausted else {
                state.restoringPages = 0
                return .none
            }
            state.isLoadingMore = true
            return search(query, page: page + 1)
        case let .searchFailed(query, page, error):
            guard query == state.resultsQuery, page == state.pagesLoaded + 1 else { return .none }
            state.restoringPages = 0
            if page == 1 {
                state.results = .failed(error)
            } else {
                state.isLoadingMore = false
                state.loadMoreError = error
            }
            return .none
        case let .restored(query, pages):
            state.query = query
            guard SearchMoviesUseCase.isSearchable(query) else { return reset(&state) }
            let trimmed = SearchMoviesUseCase.trimmed(query)
            state = SearchState(query: query, results: .loading, resultsQuery: trimmed)
            state.restoringPages = min(max(pages, 1), Self.maxRestoredPages)
            return search(trimmed, page: 1)
        }
    }

    /// Time travel set an earlier state: the search or page it was waiting for is cancelled
    /// (effects outlive a revert), so the state says nothing is on its way: a loading search
    /// is idle again (its query not searched yet: Enter searches it), no page loads, nothing
    /// is pending.
    public func reverted(_ state: inout SearchState) -> Effect<SearchIntent> {
        if case .loading = state.results {
            state.results = .idle
            state.resultsQuery = ""
        }
        state.isLoadingMore = false
        state.restoringPages = 0
        state.searchPending = false
        return .cancel(Self.searchEffect)
    }

    /// A short query: back to idle at once, and nothing pending survives.
    private func reset(_ state: inout SearchState) -> Effect<SearchIntent> {
        state = SearchState(query: state.query)
        return .cancel(Self.searchEffect)
    }

    private func search(_ query: String, page: Int) -> Effect<SearchIntent> {
        .run(id: Self.searchEffect) { [searchMovies] send in
            do throws(MovieError) {
                let answer = try await searchMovies.execute(query: query, page: page)
                await send(.resultsLoaded(query: query, page: page, movies: answer.value, source: answer.source, coverage: answer.coverage,
                                         unmatched: answer.unmatched))
            } catch {
                await send(.searchFailed(query: query, page: page, error: error))
            }
        }
    }
}
