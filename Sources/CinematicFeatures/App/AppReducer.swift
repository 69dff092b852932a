import CinematicDomain
import MVIKit

/// The app's reducer: the four features composed (Search, Discover and Favorites through
/// ``Scope``; a stack of Details, each under its own key), plus what lies between them and
/// every host would otherwise write again: which tab is shown, opening and closing Details,
/// where the person is in each list, the favorites undo, the query fitted to a search's
/// bounds, and the notices a person reads.
///
/// The four features behave exactly as they do alone; the app only decides which of them
/// an intent goes to and what follows it.
///
/// ```swift
/// let store = Store(initialState: AppState(), reducer: AppReducer(catalog: catalog, favorites: favorites, clock: clock))
/// store.send(.host(.task))
/// store.send(.host(.queryChanged("alien")))
/// store.send(.host(.opened(2)))                  // Alien's Detail, over the Search tab
/// store.send(.host(.detail(.favoriteToggled)))   // its heart
/// store.send(.host(.back))
/// ```
public struct AppReducer: Reducer {
    /// The most Details open at once (``AppLimits/details`` may lower it): opening another
    /// closes the oldest.
    public static let maximumDetails = 16
    /// The most removed favorites undo remembers (``AppLimits/undo`` may lower it).
    public static let maximumUndo = 20
    /// How long a notice that expires stays, on the runtime's clock.
    public static let noticeLifetime: Duration = .seconds(6)
    /// The notice timer (one notice at a time, so one timer).
    public static let noticeEffect: EffectID = "app.notice"

    let search: SearchReducer
    let discover: DiscoverReducer
    let favoritesFeature: FavoritesReducer
    let detail: DetailReducer
    let favorites: any FavoritesRepository
    let catalog: any MovieCatalogRepository
    let clock: any Clock<Duration>
    /// The bounds every path meets.
    let limits: AppLimits

    /// Creates the app over the runtime's catalog, favorites and clock (the search debounce
    /// as Search's own), within `limits`.
    public init(catalog: any MovieCatalogRepository, favorites: any FavoritesRepository,
                clock: any Clock<Duration> = ContinuousClock(), debounce: Duration = SearchReducer.defaultDebounce,
                limits: AppLimits = AppLimits()) {
        search = SearchReducer(searchMovies: SearchMoviesUseCase(repository: catalog), clock: clock, debounce: debounce)
        discover = DiscoverReducer(catalog: catalog)
        favoritesFeature = FavoritesReducer(favorites: favorites)
        detail = DetailReducer(catalog: catalog, favorites: favorites)
        self.favorites = favorites
        self.catalog = catalog
        self.clock = clock
        self.limits = limits
    }

    var searchScope: Scope<AppState, AppIntent, SearchReducer> {
        Scope(state: \.search, intent: { if case let .search(intent) = $0 { intent } else { nil } }, embed: AppIntent.search, child: search)
    }

    var discoverScope: Scope<AppState, AppIntent, DiscoverReducer> {
        Scope(state: \.discover, intent: { if case let .discover(intent) = $0 { intent } else { nil } }, embed: AppIntent.discover,
              child: discover)
    }

    var favoritesScope: Scope<AppState, AppIntent, FavoritesReducer> {
        Scope(state: \.favorites, intent: { if case let .favorites(intent) = $0 { intent } else { nil } }, embed: AppIntent.favorites,
              child: favoritesFeature)
    }

    public func reduce(_ state: inout AppState, _ intent: AppIntent) -> Effect<AppIntent> {
        let effect: Effect<AppIntent>
        switch intent {
        case let .host(host):
            effect = reduce(&state, host)
        case .search(.host(.loadMore)) where isFull(.search, state), .discover(.host(.loadMore(_))) where isFull(loadMoreList(intent), state):
            // Every path to a next page passes here (moved, nested, a child handle's, retry).
            effect = .none
        case .search:
            effect = searchScope.reduce(&state, intent)
        case .discover:
            effect = discoverScope.reduce(&state, intent)
        case .favorites:
            effect = favoritesScope.reduce(&state, intent)
            showRestoring(&state)
        case let .detail(key, intent):
            effect = toDetail(key: key, intent, &state)
        case let .undoSaved(movie):
            state.restoring.removeAll { $0.id == movie.id }
            state.uncheckedRows.remove(movie.id)
            effect = post(.restored, "Restored \(movie.title)", &state)
        case let .undoFailed(movie, error):
            effect = undoFailed(movie, error, &state)
        case let .noticeExpired(id):
            if state.notice?.id == id { state.notice = nil }
            effect = .none
        case let .restored(restore):
            effect = restored(restore, &state)
        case let .stateFileProblem(text):
            effect = post(.stateFile, text, expires: false, &state)
        }
        keepPositionsInRange(&state)
        return effect
    }

    private func reduce(_ state: inout AppState, _ host: AppIntent.Host) -> Effect<AppIntent> {
        switch host {
        case .task:
            var effects = [favoritesScope.reduce(&state, .favorites(.task))]
            if state.tab == .discover { effects.append(discoverScope.reduce(&state, .discover(.task))) }
            return .merge(effects)
        case let .tabSelected(tab):
            state.tab = tab
            var effects = [closeAllDetails(&state)]
            if tab == .discover { effects.append(discoverScope.reduce(&state, .discover(.task))) }
            return .merge(effects)
        case let .queryChanged(text), let .search(.queryChanged(text)):
            return queryChanged(text, &state)
        case let .search(intent):
            return reduce(&state, .search(.host(intent)))      // through the bounds' check
        case let .discover(intent):
            return reduce(&state, .discover(.host(intent)))
        case let .sectionSelected(section):
            guard state.discover[section] != nil else { return .none }
            state.section = section
            return .none
        case let .moved(list, selection, firstVisible):
            return moved(list, selection: selection, firstVisible: firstVisible, &state)
        case let .opened(movieID):
            return open(movieID, &state)
        case .back:
            guard let top = state.details.popLast() else { return .none }
            return Self.cancelEffects(of: top)
        case .activate: return activate(&state)
        case let .moveBy(delta): return moveBy(delta, &state)
        case let .pageBy(delta): return pageBy(delta, &state)
        case .moveToStart:
            guard state.details.isEmpty else { return .none }
            return moveTo(0, state.currentList, &state)
        case .moveToEnd:
            guard state.details.isEmpty else { return .none }
            return moveTo(max(0, state.movies(of: state.currentList).count - 1), state.currentList, &state)
        case .loadMore: return loadMoreShown(&state)
        case .removeSelected: return removeSelected(&state)
        case let .sortChanged(sort): return sortChanged(sort, &state)
        case .sortNext:
            let sorts = AppSort.allCases
            return sortChanged(sorts[((sorts.firstIndex(of: state.sort) ?? 0) + 1) % sorts.count], &state)
        case let .tabBy(delta): return tabBy(delta, &state)
        case let .sectionBy(delta): return sectionBy(delta, &state)
        case let .resized(rows): return resized(rows, &state)
        case let .removed(movieID), let .favorites(.removed(movieID)):
            return remove(movieID, &state)
        case .favorites(.task):
            return favoritesScope.reduce(&state, .favorites(.task))
        case .undo:
            return undo(&state)
        case let .noticeDismissed(id):
            guard state.notice?.id == id else { return .none }
            state.notice = nil
            return .cancel(Self.noticeEffect)
        case .dismissNotice:
            guard let shown = state.notice else { return .none }
            return reduce(&state, .host(.noticeDismissed(shown.id)))
        case .retried:
            return retry(&state)
        case let .detail(intent):
            guard let top = state.details.last else { return .none }
            return toDetail(key: top.key, .host(intent), &state)
        }
    }

    /// The typed text, cut to a search's bounds at a character boundary (a notice says so).
    private func queryChanged(_ text: String, _ state: inout AppState) -> Effect<AppIntent> {
        let query = SearchMoviesUseCase.bounded(text)
        var effects: [Effect<AppIntent>] = []
        if query != text {
            effects.append(post(.queryShortened, "Your search was shortened to \(SearchMoviesUseCase.maximumQueryLength) characters",
                                &state))
        }
        if state.positions[.search] != nil && query != state.search.query { state.positions[.search] = nil }
        effects.append(searchScope.reduce(&state, .search(.host(.queryChanged(query)))))
        return .merge(effects)
    }

    /// `intent` for the Detail under `key`, its effects under that key (dropped when it was closed).
    func toDetail(key: Int, _ intent: DetailIntent, _ state: inout AppState) -> Effect<AppIntent> {
        guard let index = state.details.firstIndex(where: { $0.key == key }) else { return .none }
        return detail.reduce(&state.details[index].detail, intent)
            .map { AppIntent.detail(key: key, $0) }
            .scoped(Self.scope(of: key))
    }

    /// The effect scope of the Detail under `key`.
    static func scope(of key: Int) -> String { "detail#\(key)" }

    /// Cancels every effect of a Detail leaving the stack.
    static func cancelEffects(of detail: OpenDetail) -> Effect<AppIntent> {
        .merge([DetailReducer.loadEffect, DetailReducer.observeEffect, DetailReducer.saveEffect].map {
            .cancel($0.scoped(scope(of: detail.key)))
        })
    }

    /// Closes every open Detail.
    func closeAllDetails(_ state: inout AppState) -> Effect<AppIntent> {
        let closed = state.details
        state.details = []
        return .merge(closed.map(Self.cancelEffects))
    }

    /// Shows `text` as the notice (replacing any), expiring after ``noticeLifetime`` unless
    /// `expires` is false.
    func post(_ kind: AppNotice.Kind, _ text: String, offersUndo: Bool = false, expires: Bool = true,
              _ state: inout AppState) -> Effect<AppIntent> {
        let id = state.nextNoticeID
        state.nextNoticeID += 1
        state.notice = AppNotice(id: id, kind: kind, text: text, offersUndo: offersUndo, expires: expires)
        return expire(state.notice)
    }

    /// The notice timer for `notice`: it expires after ``noticeLifetime`` when it expires at
    /// all; otherwise (or with no notice) no timer runs.
    func expire(_ notice: AppNotice?) -> Effect<AppIntent> {
        guard let notice, notice.expires else { return .cancel(Self.noticeEffect) }
        return .run(id: Self.noticeEffect) { [clock] send in
            do { try await clock.sleep(for: Self.noticeLifetime) } catch { return }
            await send(.noticeExpired(id: notice.id))
        }
    }
}
