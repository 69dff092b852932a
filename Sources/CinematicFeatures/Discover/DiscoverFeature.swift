import CinematicDomain
import MVIKit

/// One Discover section as the screen renders it.
///
/// "Loading more" is a flag beside the content, not a phase: while the next page loads,
/// `movies` stays `.loaded` with every page so far and ``isLoadingMore`` is true, so the list
/// keeps rendering and shows a spinner at its end. A failed next page likewise keeps the
/// content and sets ``loadMoreError``; only a failed *first* page makes `movies` `.failed`.
///
/// ```swift
/// switch state[.popular]?.movies {
/// case .loading: skeleton()
/// case let .loaded(movies): row(movies, spinner: state[.popular]!.isLoadingMore)
/// ...
/// }
/// ```
public struct DiscoverSectionState: Equatable, Sendable {
    /// Which list this is.
    public let section: DiscoverSection
    /// The first page's phase; once loaded, every page loaded so far, in order.
    public var movies: LoadingPhase<[Movie], MovieError>
    /// How many pages have arrived (0 until the first page loads).
    public var pagesLoaded: Int
    /// True once a page shorter than ``MovieCatalog/pageSize`` arrived: there is nothing more.
    public var isExhausted: Bool
    /// True while the next page (2 or later) is loading.
    public var isLoadingMore: Bool
    /// Why the last "load more" failed; cleared when loading more is tried again.
    public var loadMoreError: MovieError?
    /// Where the loaded movies came from: `.cache` once any shown page is an offline copy.
    public var source: AnswerSource
    /// While a restored section reloads its pages (``DiscoverIntent/restored(_:)``), how many
    /// it loads, one after another; 0 otherwise (not on the wire).
    public var restoringPages: Int = 0

    /// Creates a section state; the default is idle with nothing loaded.
    public init(section: DiscoverSection, movies: LoadingPhase<[Movie], MovieError> = .idle, pagesLoaded: Int = 0,
                isExhausted: Bool = false, isLoadingMore: Bool = false, loadMoreError: MovieError? = nil,
                source: AnswerSource = .local) {
        self.section = section
        self.movies = movies
        self.pagesLoaded = pagesLoaded
        self.isExhausted = isExhausted
        self.isLoadingMore = isLoadingMore
        self.loadMoreError = loadMoreError
        self.source = source
    }

    /// True while a page of this section is in flight.
    public var isBusy: Bool { movies.isLoading || isLoadingMore }

    /// The page the next load asks for.
    public var nextPage: Int { pagesLoaded + 1 }
}

/// What the Discover screen renders: one state per section, in ``DiscoverSection/all`` order.
public struct DiscoverState: Equatable, Sendable {
    /// Every section, in display order.
    public var sections: [DiscoverSectionState]

    /// Creates a state with every section idle.
    ///
    /// ```swift
    /// let store = Store(initialState: DiscoverState(), reducer: DiscoverReducer(catalog: catalog))
    /// ```
    public init(sections: [DiscoverSection] = DiscoverSection.all) {
        self.sections = sections.map { DiscoverSectionState(section: $0) }
    }

    /// The state of `section`, nil when this screen does not show it. Setting replaces that
    /// section's state; setting nil, or a section the screen does not show, does nothing.
    ///
    /// ```swift
    /// state[.genre("Drama")]?.movies.value?.count
    /// ```
    public subscript(section: DiscoverSection) -> DiscoverSectionState? {
        get { sections.first { $0.section == section } }
        set {
            guard let index = sections.firstIndex(where: { $0.section == section }), let newValue else { return }
            sections[index] = newValue
        }
    }
}

/// Everything that can happen on the Discover screen.
public enum DiscoverIntent: Equatable, Sendable, HostIntents {
    /// What the user did: the only intents a host may send (the C API decodes exactly these).
    case host(Host)
    /// Internal: a page of a section arrived, from `source`.
    case sectionLoaded(DiscoverSection, page: Int, movies: [Movie], source: AnswerSource = .local)
    /// Internal: a page of a section failed.
    case sectionFailed(DiscoverSection, page: Int, error: MovieError)
    /// Internal: the store was restored from a snapshot: each listed section loads its first
    /// `pages` pages again, one after another (clamped to 1...``DiscoverReducer/maxRestoredPages``,
    /// stopping at the last page that exists); sections not listed stay idle.
    case restored([DiscoverRestoredSection])


    /// The screen appeared: `.host(.task)`.
    public static let task = DiscoverIntent.host(.task)
    /// The user asked to refresh: `.host(.refresh)`.
    public static let refresh = DiscoverIntent.host(.refresh)
    /// The user scrolled to the end of `section`: `.host(.loadMore(section))`.
    public static func loadMore(_ section: DiscoverSection) -> DiscoverIntent { .host(.loadMore(section)) }
}

/// A section of a restored Discover screen and how many of its pages were loaded.
public struct DiscoverRestoredSection: Equatable, Sendable {
    /// The section.
    public let section: DiscoverSection
    /// How many pages it had loaded.
    public let pages: Int

    /// Creates the entry.
    public init(section: DiscoverSection, pages: Int) {
        self.section = section
        self.pages = pages
    }
}

/// The Discover feature's reducer: every section loads and pages independently.
///
/// Each section's requests share one ``effectID(for:)``, so a section has at most one page in
/// flight, a refresh replaces it (a late answer from before the refresh is dropped), and a
/// failure stays in its own section.
///
/// ```swift
/// let store = Store(initialState: DiscoverState(), reducer: DiscoverReducer(catalog: catalog))
/// store.send(.task)
/// store.send(.loadMore(.genre("Drama")))
/// ```
public struct DiscoverReducer: Reducer {
    private let catalog: any MovieCatalogRepository

    /// Creates the reducer over a catalog.
    public init(catalog: any MovieCatalogRepository) { self.catalog = catalog }

    /// The most pages a restored section loads again (10 pages of 20: 200 films); further
    /// pages load on `loadMore` as usual.
    public static let maxRestoredPages = 10

    /// The id shared by every page request of `section`.
    ///
    /// ```swift
    /// DiscoverReducer.effectID(for: .popular)   // "discover.popular"
    /// ```
    public static func effectID(for section: DiscoverSection) -> EffectID { EffectID("discover.\(section)") }

    public func reduce(_ state: inout DiscoverState, _ intent: DiscoverIntent) -> Effect<DiscoverIntent> {
        switch intent {
        case .host(.task):
            return .merge(state.sections.indices.compactMap { index -> Effect<DiscoverIntent>? in
                switch state.sections[index].movies {
                case .loading, .loaded: return nil
                case .idle, .failed: return loadFirstPage(&state.sections[index])
                }
            })
        case .host(.refresh):
            return .merge(state.sections.indices.map { loadFirstPage(&state.sections[$0]) })
        case let .restored(restored):
            return .merge(restored.compactMap { entry -> Effect<DiscoverIntent>? in
                guard let index = state.sections.firstIndex(where: { $0.section == entry.section }) else { return nil }
                let effect = loadFirstPage(&state.sections[index])
                state.sections[index].restoringPages = min(max(entry.pages, 1), Self.maxRestoredPages)
                return effect
            })
        case let .host(.loadMore(section)):
            guard let index = state.sections.firstIndex(where: { $0.section == section }) else { return .none }
            let current = state.sections[index]
            guard !current.isBusy, !current.isExhausted else { return .none }
            guard current.movies.value != nil else { return loadFirstPage(&state.sections[index]) }
            state.sections[index].isLoadingMore = true
            state.sections[index].loadMoreError = nil
            return load(section, page: current.nextPage)
        case let .sectionLoaded(section, page, movies, source):
            guard let index = expecting(page, of: section, in: state) else { return .none }
            state.sections[index].apply(page: page, movies, source: source)
            // A restored section goes on with its next page until it has them all (or none is left).
            guard page < state.sections[index].restoringPages, !state.sections[index].isExhausted else {
                state.sections[index].restoringPages = 0
                return .none
            }
            state.sections[index].isLoadingMore = true
            return load(section, page: page + 1)
        case let .sectionFailed(section, page, error):
            guard let index = expecting(page, of: section, in: state) else { return .none }
            state.sections[index].restoringPages = 0
            if page == 1 {
                state.sections[index].movies = .failed(error)
            } else {
                state.sections[index].isLoadingMore = false
                state.sections[index].loadMoreError = error
            }
            return .none
        }
    }

    /// Resets a section to "loading page 1" and requests it (replacing what was in flight).
    private func loadFirstPage(_ section: inout DiscoverSectionState) -> Effect<DiscoverIntent> {
        section = DiscoverSectionState(section: section.section, movies: .loading)
        return load(section.section, page: 1)
    }

    /// The index of `section` when it is waiting for exactly `page`; nil for anything else.
    private func expecting(_ page: Int, of section: DiscoverSection, in state: DiscoverState) -> Int? {
        guard let index = state.sections.firstIndex(where: { $0.section == section }),
              state.sections[index].isBusy, state.sections[index].nextPage == page else { return nil }
        return index
    }

    private func load(_ section: DiscoverSection, page: Int) -> Effect<DiscoverIntent> {
        .run(id: Self.effectID(for: section)) { [catalog] send in
            do throws(MovieError) {
                let answer = try await catalog.discover(section: section, page: page)
                await send(.sectionLoaded(section, page: page, movies: answer.value, source: answer.source))
            } catch {
                await send(.sectionFailed(section, page: page, error: error))
            }
        }
    }
}

extension DiscoverSectionState {
    /// Takes page `page`: the first replaces the content, later ones append the movies not
    /// already shown (a catalog that shifts between pages never duplicates a row). A short
    /// page marks the section exhausted. The first page sets the source; a later one can only
    /// make it `.cache`.
    mutating func apply(page: Int, _ movies: [Movie], source: AnswerSource = .local) {
        if page == 1 {
            self.movies = .loaded(movies)
            self.source = source
        } else {
            self.source = self.source.combined(with: source)
            self.movies = .loaded((self.movies.value ?? []).appendingPage(movies))
            isLoadingMore = false
        }
        pagesLoaded = page
        isExhausted = movies.count < MovieCatalog.pageSize
    }
}
