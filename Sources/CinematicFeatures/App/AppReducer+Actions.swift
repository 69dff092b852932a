import CinematicDomain
import MVIKit

/// What a person does, named once for every UI (the keymap in app.wire.md binds keys to them):
/// moving in the shown list, opening the selected film, removing it, loading more, sorting,
/// switching tabs and sections. Each acts on the list the shown tab holds, in the order shown.
extension AppReducer {
    /// Moves the selection of the shown list by `delta` rows (``moved(_:selection:firstVisible:_:)``'s
    /// paging past the last row included), keeping it among the rows shown. Nothing on a Detail.
    func moveBy(_ delta: Int, _ state: inout AppState) -> Effect<AppIntent> {
        guard state.details.isEmpty else { return .none }
        let list = state.currentList
        let position = state.position(in: list)
        return moveTo(position.selection + delta, list, &state)
    }

    /// Moves the selection of the shown list by `delta` pages (the rows the host shows), and the
    /// rows shown with it (PageDown from the top shows the next page, its first row selected).
    func pageBy(_ delta: Int, _ state: inout AppState) -> Effect<AppIntent> {
        guard state.details.isEmpty else { return .none }
        let list = state.currentList, rows = state.visibleRows
        let before = state.position(in: list)
        let effect = moveTo(before.selection + delta * rows, list, &state)
        if var position = state.positions[list] {
            position.firstVisible = max(0, min(before.firstVisible + delta * rows, position.selection))
            state.positions[list] = position
            keepSelectionShown(list, &state)
        }
        return effect
    }

    /// Moves to row `selection` of `list` (clamped at 0; past the end as `moved` says) and
    /// scrolls the rows shown just enough to show it.
    func moveTo(_ selection: Int, _ list: AppList, _ state: inout AppState) -> Effect<AppIntent> {
        let effect = moved(list, selection: max(0, selection), firstVisible: state.position(in: list).firstVisible, &state)
        keepSelectionShown(list, &state)
        return effect
    }

    /// The rows shown (from `firstVisible`, ``AppState/visibleRows`` of them) hold the selection.
    /// Near the end of a loaded list, the rows shown stay a full page where there are enough.
    /// A list still loading its rows (not yet the selected one, or a restore's pages) keeps
    /// its rows shown: a restored list comes back to the page that was saved.
    func keepSelectionShown(_ list: AppList, _ state: inout AppState) {
        guard var position = state.positions[list] else { return }
        let count = state.movies(of: list).count
        let loaded = count > position.selection && !isRestoring(list, state)
        let fullPage = loaded ? max(0, count - state.visibleRows) : Int.max
        position.firstVisible = min(position.firstVisible, position.selection, fullPage)
        position.firstVisible = max(position.firstVisible, position.selection - state.visibleRows + 1, 0)
        state.positions[list] = position
    }

    /// Enter: opens the selected row's film; in Search, searches the typed query now when the
    /// results shown do not answer it.
    func activate(_ state: inout AppState) -> Effect<AppIntent> {
        guard state.details.isEmpty else { return .none }
        if state.tab == .search && !state.resultsAreCurrent {
            guard SearchMoviesUseCase.isSearchable(state.search.query) else { return .none }
            return reduce(&state, .search(.host(.submitted)))
        }
        guard let movie = state.selectedMovie else { return .none }
        return open(movie.id, &state)
    }

    /// Removes the selected favorite (the Favorites tab, no Detail shown): no question asked,
    /// the notice offers undo.
    func removeSelected(_ state: inout AppState) -> Effect<AppIntent> {
        guard state.tab == .favorites, state.details.isEmpty, let movie = state.selectedMovie else { return .none }
        return remove(movie.id, &state)
    }

    /// The next page of the shown list (nothing at the list's bound, at its end, or while
    /// a page loads).
    func loadMoreShown(_ state: inout AppState) -> Effect<AppIntent> {
        guard state.details.isEmpty else { return .none }
        return loadMore(state.currentList, &state) ?? .none
    }

    /// Rows shown in `sort`; the shown list goes back to its top.
    func sortChanged(_ sort: AppSort, _ state: inout AppState) -> Effect<AppIntent> {
        guard sort != state.sort else { return .none }
        state.sort = sort
        state.positions[state.currentList] = nil
        return .none
    }

    /// `delta` tabs on, wrapping around.
    func tabBy(_ delta: Int, _ state: inout AppState) -> Effect<AppIntent> {
        let tabs = AppTab.allCases
        let index = tabs.firstIndex(of: state.tab) ?? 0
        return reduce(&state, .host(.tabSelected(tabs[Self.wrapped(index + delta, tabs.count)])))
    }

    /// `delta` Discover sections on, wrapping around (the Discover tab only).
    func sectionBy(_ delta: Int, _ state: inout AppState) -> Effect<AppIntent> {
        let sections = state.discover.sections.map(\.section)
        guard state.tab == .discover, state.details.isEmpty, !sections.isEmpty else { return .none }
        let index = sections.firstIndex(of: state.section) ?? 0
        return reduce(&state, .host(.sectionSelected(sections[Self.wrapped(index + delta, sections.count)])))
    }

    /// The host shows `rows` rows: the selection stays among them.
    func resized(_ rows: Int, _ state: inout AppState) -> Effect<AppIntent> {
        state.visibleRows = max(1, rows)
        keepSelectionShown(state.currentList, &state)
        return .none
    }

    /// True when `list` holds as many rows as ``AppLimits/rowsPerList`` allows.
    func isFull(_ list: AppList, _ state: AppState) -> Bool { state.movies(of: list).count >= limits.rowsPerList }

    /// The list a Discover `loadMore` is for.
    func loadMoreList(_ intent: AppIntent) -> AppList {
        if case let .discover(.host(.loadMore(section))) = intent { return .discover(section) }
        return .search
    }

    private static func wrapped(_ index: Int, _ count: Int) -> Int { ((index % count) + count) % count }
}

extension AppState {
    /// True when the search results shown answer the query typed (loaded for it).
    public var resultsAreCurrent: Bool {
        search.results.value != nil && search.resultsQuery == SearchMoviesUseCase.trimmed(search.query)
    }

    /// The film of the selected row of the shown list (in the order shown), if any.
    public var selectedMovie: Movie? {
        let rows = rows(of: currentList)
        let selection = position(in: currentList).selection
        return rows.indices.contains(selection) ? rows[selection] : nil
    }
}
