import CinematicDomain
import MVIKit

/// Moving in lists, opening films and trying again.
extension AppReducer {
    /// The person moved in `list`. A selection past its last row loads the next page when
    /// there is one (the selection waits on the first new row), else stops at the last row.
    func moved(_ list: AppList, selection: Int, firstVisible: Int, _ state: inout AppState) -> Effect<AppIntent> {
        var position = ListPosition(selection: max(0, selection), firstVisible: max(0, firstVisible))
        let count = state.movies(of: list).count
        var effect = Effect<AppIntent>.none
        if count > 0 && position.selection >= count {
            if let more = loadMore(list, &state) {
                effect = more
                position.selection = count
            } else if isLoadingMore(list, state) {
                position.selection = count
            } else {
                position.selection = count - 1
            }
        }
        position.firstVisible = min(position.firstVisible, position.selection)
        state.positions[list] = position
        return effect
    }

    /// Starts loading the next page of `list`; nil when it has none to load now.
    func loadMore(_ list: AppList, _ state: inout AppState) -> Effect<AppIntent>? {
        guard state.canLoadMore(list, limits: limits) else { return nil }
        switch list {
        case .search: return reduce(&state, .search(.host(.loadMore)))
        case let .discover(section): return reduce(&state, .discover(.host(.loadMore(section))))
        case .favorites: return nil
        }
    }

    private func isLoadingMore(_ list: AppList, _ state: AppState) -> Bool {
        switch list {
        case .search: state.search.isLoadingMore || isRestoring(list, state)
        case let .discover(section): (state.discover[section]?.isLoadingMore ?? false) || isRestoring(list, state)
        case .favorites: false
        }
    }

    /// True while `list` loads again the pages a restore brought back (its rows are not all
    /// there yet).
    func isRestoring(_ list: AppList, _ state: AppState) -> Bool {
        switch list {
        case .search: state.search.restoringPages > 0
        case let .discover(section): (state.discover[section]?.restoringPages ?? 0) > 0
        case .favorites: false
        }
    }

    /// Whether `list` shows its final rows (loaded, nothing more arriving): only then are
    /// positions kept within its rows (a list still loading, after a restore, keeps them).
    private func isSettled(_ list: AppList, _ state: AppState) -> Bool {
        switch list {
        case .search: state.search.results.value != nil && !isLoadingMore(list, state)
        case let .discover(section): state.discover[section]?.movies.value != nil && !isLoadingMore(list, state)
        case .favorites: state.favorites.favorites.value != nil
        }
    }

    /// Keeps every settled list's position on one of its rows.
    func keepPositionsInRange(_ state: inout AppState) {
        for (list, position) in state.positions where isSettled(list, state) {
            let last = max(0, state.movies(of: list).count - 1)
            guard position.selection > last || position.firstVisible > min(position.selection, last) else { continue }
            let selection = min(position.selection, last)
            state.positions[list] = ListPosition(selection: selection, firstVisible: min(position.firstVisible, selection))
        }
    }

    /// Pushes the Detail of `movieID`, with its row from the lists the app shows (so its heart
    /// works even when the detail cannot load).
    func open(_ movieID: Int, _ state: inout AppState) -> Effect<AppIntent> {
        let lists: [AppList] = [state.currentList, .search, .favorites] + state.discover.sections.map { .discover($0.section) }
        let shown = state
        let known = lists.flatMap { shown.movies(of: $0) } + shown.details.compactMap(\.detail.listing) + shown.restoring + shown.removed
        let listing = known.first { $0.id == movieID }
        return push(DetailState(movieID: movieID, listing: listing), &state)
    }

    /// Pushes `detail` and starts it (its task); the oldest Detail is closed past
    /// ``AppLimits/details``.
    func push(_ detail: DetailState, _ state: inout AppState) -> Effect<AppIntent> {
        var effects: [Effect<AppIntent>] = []
        while state.details.count >= limits.details { effects.append(Self.cancelEffects(of: state.details.removeFirst())) }
        let key = state.nextDetailKey
        state.nextDetailKey += 1
        state.details.append(OpenDetail(key: key, detail: detail))
        effects.append(toDetail(key: key, .host(.task), &state))
        return .merge(effects)
    }

    /// Tries again what failed on the screen shown.
    func retry(_ state: inout AppState) -> Effect<AppIntent> {
        if let top = state.details.last {
            guard case .failed = top.detail.detail else { return .none }
            return toDetail(key: top.key, .host(.task), &state)
        }
        switch state.tab {
        case .search:
            if case .failed = state.search.results { return reduce(&state, .search(.host(.submitted))) }
            if state.search.loadMoreError != nil { return reduce(&state, .search(.host(.loadMore))) }
            return .none
        case .discover:
            let shown = state.discover[state.section]
            if shown?.loadMoreError != nil { return reduce(&state, .discover(.host(.loadMore(state.section)))) }
            guard state.discover.sections.contains(where: { if case .failed = $0.movies { true } else { false } }) else { return .none }
            return reduce(&state, .discover(.host(.task)))
        case .favorites:
            return .none
        }
    }
}
