import CinematicDomain
import MVIKit

extension AppState {
    /// What the person sees now (``AppView``), for lists bounded at `limits`, the rows shown
    /// worded by `wording` (``AppRowView/init(movie:)`` each, the row at the offset given
    /// selected; a codec passes one that remembers the rows it worded last).
    public func view(limits: AppLimits = AppLimits(),
                     rows wording: (ArraySlice<Movie>, Int?) -> [AppRowView] = AppRowView.rows) -> AppView {
        let list = details.isEmpty ? listView(currentList, limits: limits, wording: wording) : nil
        let shown = details.last.map { detailView($0.detail) }
        let screen: AppView.Screen = details.isEmpty ? (tab == .search ? .search : tab == .discover ? .discover : .favorites) : .detail
        let tabs = AppChoice.tabs[tab] ?? []
        let sections = AppChoice.sections(of: discover, chosen: section)
        return AppView(screen: screen, title: shown?.heading ?? title, list: list, detail: shown, source: source,
                       sort: sort, sortLabel: AppWording.sort(sort), query: search.query, tabs: tabs, sections: sections,
                       actions: actions(list, limits: limits))
    }

    private var title: String {
        switch tab {
        case .search: "Search"
        case .favorites: "Favorites"
        case .discover: "Discover: \(section.title)"
        }
    }

    /// Where what the screen shows came from (a live catalog's answers, or its saved ones).
    private var source: String {
        if let top = details.last { return top.detail.detail.value == nil ? "" : AppWording.source(top.detail.detailSource) }
        switch tab {
        case .search: return search.results.value == nil ? "" : AppWording.source(search.resultsSource)
        case .discover: return discover[section].flatMap { $0.movies.value == nil ? nil : AppWording.source($0.source) } ?? ""
        case .favorites: return ""
        }
    }

    private func listView(_ list: AppList, limits: AppLimits, wording: (ArraySlice<Movie>, Int?) -> [AppRowView]) -> AppListView {
        let shown = rows(of: list)
        let position = self.position(in: list)
        let selection = shown.isEmpty ? nil : min(position.selection, shown.count - 1)
        let first = min(position.firstVisible, max(0, shown.count - 1))
        let rows = wording(shown.isEmpty ? [] : shown[first..<min(shown.count, first + visibleRows)], selection.map { $0 - first })
        let (status, message) = words(of: list, count: shown.count, full: shown.count >= limits.rowsPerList)
        let hint = list == .search && message == nil ? search.hint?.text ?? "" : ""
        return AppListView(list: list, count: shown.count, selection: selection, firstVisible: first, rows: rows,
                           status: status, message: message, hint: hint, visibleRows: visibleRows)
    }

    /// The list's status line and, when no rows stand, the message shown instead.
    private func words(of list: AppList, count: Int, full: Bool) -> (String, AppMessage?) {
        switch list {
        case .search:
            if !SearchMoviesUseCase.isSearchable(search.query) {
                return ("", AppMessage(kind: .idle, heading: "Search the catalog", body: AppWording.searchIdle))
            }
            switch search.results {
            case .idle, .loading:
                let query = SearchMoviesUseCase.trimmed(search.query)
                if case .idle = search.results, !search.searchPending {
                    // After time travel: nothing runs until the person asks.
                    return ("", AppMessage(kind: .idle, heading: "\u{201C}\(query)\u{201D} is not searched yet", body: AppWording.searchNotYet))
                }
                return ("", AppMessage(kind: .loading, heading: "Searching for \u{201C}\(query)\u{201D}\u{2026}", body: ""))
            case let .failed(error): return ("", AppWording.failure("Search failed", error))
            case .loaded:
                if count == 0 { return ("", AppMessage(kind: .empty, heading: "Nothing found", body: AppWording.searchEmpty(search.resultsQuery, hint: search.hint))) }
                let counted = AppWording.count(count, exhausted: search.isExhausted, full: full, loadingMore: search.isLoadingMore,
                                               loadMoreError: search.loadMoreError)
                // Typed since these results: they stay until the new ones come, and say whose they are.
                guard !resultsAreCurrent else { return (counted, nil) }
                let typed = SearchMoviesUseCase.trimmed(search.query)
                guard search.searchPending else {
                    return ("\(counted); results for \u{201C}\(search.resultsQuery)\u{201D}, \u{201C}\(typed)\u{201D} not searched yet (Enter: search)", nil)
                }
                return ("\(counted); results for \u{201C}\(search.resultsQuery)\u{201D}, searching \u{201C}\(typed)\u{201D} (Enter: now)", nil)
            }
        case let .discover(section):
            guard let shown = discover[section] else { return ("", nil) }
            switch shown.movies {
            case .idle, .loading: return ("", AppMessage(kind: .loading, heading: "Loading \(shown.section.title)\u{2026}", body: ""))
            case let .failed(error): return ("", AppWording.failure("Could not load \(shown.section.title)", error))
            case .loaded:
                if count == 0 { return ("", AppMessage(kind: .empty, heading: shown.section.title, body: AppWording.sectionEmpty(shown.section.title))) }
                return (AppWording.count(count, exhausted: shown.isExhausted, full: full, loadingMore: shown.isLoadingMore,
                                         loadMoreError: shown.loadMoreError), nil)
            }
        case .favorites:
            guard favorites.favorites.value != nil else { return ("", AppMessage(kind: .loading, heading: "Loading your favorites\u{2026}", body: "")) }
            if count == 0 { return ("", AppMessage(kind: .empty, heading: "No favorites yet", body: AppWording.favoritesEmpty)) }
            let removal = favorites.removalError.map { "; a removal failed: \($0.message)" } ?? ""
            return ((count == 1 ? "1 favorite" : "\(AppWording.grouped(count)) favorites") + removal, nil)
        }
    }

    private func detailView(_ detail: DetailState) -> AppDetailView {
        let movie = detail.detail.value?.movie ?? (detail.listingChecked ? detail.listing : nil)
        let heading = movie.map { $0.year > 0 ? "\($0.title) (\($0.year))" : $0.title } ?? "Film"
        let heart = detail.favoriteError.map { "Could not save: \($0.message)" }
            ?? (detail.savingFavorite != nil ? "Saving\u{2026}" : detail.isFavorite ? "In your favorites" : "Not in your favorites")
        var message: AppMessage?
        switch detail.detail {
        case .idle, .loading: message = AppMessage(kind: .loading, heading: "Loading \(movie?.title ?? "the film")\u{2026}", body: "")
        case let .failed(error): message = AppWording.failure("Could not load \(movie?.title ?? "this film")", error)
        case .loaded: message = nil
        }
        let histogram = detail.detail.value.flatMap { loaded -> AppHistogram? in
            let shares = Array(loaded.ratingDistribution.prefix(10))
            guard !shares.isEmpty else { return nil }
            let bars = (1...shares.count).reversed().map { stars in
                let share = shares[stars - 1].isFinite ? shares[stars - 1] : 0
                return AppHistogram.Bar(stars: stars, starsLabel: "\(stars)\u{2605}", share: share, label: "\(AppWording.oneDecimal(share))%",
                                        fraction: min(1, max(0, share / 100)))
            }
            return AppHistogram(heading: AppWording.histogramHeading, note: AppWording.histogramNote, bars: bars)
        }
        let facts = movie.map { AppWording.facts($0, budget: detail.detail.value?.budget) } ?? []
        return AppDetailView(heading: heading, facts: facts, isFavorite: detail.isFavorite, heart: heart, message: message,
                             histogram: histogram)
    }

    private func actions(_ list: AppListView?, limits: AppLimits) -> AppActions {
        let onList = details.isEmpty
        let hasSelection = list?.selection != nil
        return AppActions(
            back: !details.isEmpty, undo: !removed.isEmpty, retried: hasFailure,
            loadMore: onList && canLoadMore(currentList, limits: limits),
            activate: onList && (tab == .search && !resultsAreCurrent ? SearchMoviesUseCase.isSearchable(search.query) : hasSelection),
            removeSelected: onList && tab == .favorites && hasSelection, dismissNotice: notice != nil)
    }

    /// True when something on the screen shown failed (what ``AppIntent/Host/retried`` retries).
    private var hasFailure: Bool {
        if let top = details.last { if case .failed = top.detail.detail { return true } else { return false } }
        switch tab {
        case .search: return Self.failed(search.results) || search.loadMoreError != nil
        case .discover: return discover[section]?.loadMoreError != nil || discover.sections.contains { Self.failed($0.movies) }
        case .favorites: return false
        }
    }

    private static func failed(_ phase: LoadingPhase<[Movie], MovieError>) -> Bool {
        if case .failed = phase { return true }
        return false
    }

    /// True when `list` has a next page to load now: loaded, not at its end or its bound
    /// (``AppLimits/rowsPerList``), no page loading (what ``AppReducer`` loads, and what the
    /// view offers as `loadMore`).
    func canLoadMore(_ list: AppList, limits: AppLimits) -> Bool {
        guard movies(of: list).count < limits.rowsPerList else { return false }
        switch list {
        case .search: return search.results.value != nil && !search.isExhausted && !search.isLoadingMore
        case let .discover(section): return discover[section].map { $0.movies.value != nil && !$0.isExhausted && !$0.isBusy } ?? false
        case .favorites: return false
        }
    }
}
