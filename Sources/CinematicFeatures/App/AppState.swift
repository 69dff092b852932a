import CinematicDomain
import MVIKit

/// The screens of the app's tab bar.
public enum AppTab: Hashable, Sendable, CaseIterable {
    case search, discover, favorites

    /// The tab's id on the wire: "search", "discover" or "favorites".
    public var id: String {
        switch self {
        case .search: "search"
        case .discover: "discover"
        case .favorites: "favorites"
        }
    }
}

/// A list of films a person moves through: Search's results, the favorites, or one of
/// Discover's sections.
public enum AppList: Hashable, Sendable {
    case search
    case favorites
    case discover(DiscoverSection)
}

/// How the rows of a list are shown (``AppIntent/Host/sortChanged(_:)``): the list's own
/// order, or sorted by title, year (newest first) or rating (highest first). Positions count
/// rows in this order.
public enum AppSort: String, Hashable, Sendable, CaseIterable {
    /// The list's own order: relevance, the section's order, the most recent favorite first.
    case `default`
    /// By title, A to Z (articles as shown: "The Godfather" under T).
    case title
    /// Newest first.
    case year
    /// Highest rating first.
    case rating

    /// `movies` in this order (stable: equal keys keep the list's order).
    public func apply(_ movies: [Movie]) -> [Movie] {
        let ordered: (Movie, Movie) -> Bool
        switch self {
        case .default: return movies
        case .title: ordered = { $0.title.lowercased() < $1.title.lowercased() }
        case .year: ordered = { $0.year > $1.year }
        case .rating: ordered = { $0.rating > $1.rating }
        }
        return movies.enumerated().sorted { a, b in
            ordered(a.element, b.element) || (!ordered(b.element, a.element) && a.offset < b.offset)
        }.map(\.element)
    }
}

/// Where a person is in a list: the selected row and the first row shown (so a resume, a
/// snapshot and time travel put them back where they were).
public struct ListPosition: Equatable, Sendable {
    /// The selected row (0-based).
    public var selection: Int
    /// The first row shown (0-based, at most ``selection``).
    public var firstVisible: Int

    /// A position; the default is the top of the list.
    public init(selection: Int = 0, firstVisible: Int = 0) {
        self.selection = selection
        self.firstVisible = firstVisible
    }
}

/// A film's Detail on the app's stack.
public struct OpenDetail: Equatable, Sendable {
    /// Unique within one app store: names this Detail's effects and its results.
    public let key: Int
    /// The Detail's own state.
    public var detail: DetailState

    /// A Detail on the stack.
    public init(key: Int, detail: DetailState) {
        self.key = key
        self.detail = detail
    }
}

/// What the person reads: one notice at a time, replaced by the next, shown until dismissed
/// or (for those that expire) until its lifetime passes on the runtime's clock.
public struct AppNotice: Equatable, Sendable {
    /// What the notice is about: hosts may style or act on it; its text is the same words
    /// in every host.
    public enum Kind: Hashable, Sendable, CaseIterable {
        /// A favorite was removed; ``AppIntent/Host/undo`` puts it back.
        case removed
        /// An undo put a favorite back.
        case restored
        /// An undo could not put the favorite back (it stays on the undo stack).
        case undoFailed
        /// Undo with nothing to undo.
        case nothingToUndo
        /// The typed query was longer than a search takes and was shortened.
        case queryShortened
        /// The saved state could not be resumed (the app started fresh) or saved.
        case stateFile
    }

    /// Unique within one app store (1, 2, …).
    public let id: Int
    /// What it is about.
    public let kind: Kind
    /// The words shown.
    public let text: String
    /// True when ``AppIntent/Host/undo`` acts on it.
    public let offersUndo: Bool
    /// True when it goes away by itself after ``AppReducer/noticeLifetime``.
    public let expires: Bool

    /// A notice.
    public init(id: Int, kind: Kind, text: String, offersUndo: Bool = false, expires: Bool = true) {
        self.id = id
        self.kind = kind
        self.text = text
        self.offersUndo = offersUndo
        self.expires = expires
    }
}

/// The whole app: which tab is shown, the four features' states, the stack of open Details
/// (the last is shown), where the person is in each list, the favorites they may put back,
/// and what they read. One state of sub-states (seed 001): a snapshot, a resume and a time
/// travel step restore every part at once.
public struct AppState: Equatable, Sendable {
    /// The tab shown under the Details (if any).
    public var tab: AppTab
    /// The Search screen.
    public var search: SearchState
    /// The Discover screen.
    public var discover: DiscoverState
    /// The Favorites screen.
    public var favorites: FavoritesState
    /// Open Details, oldest first: the last is shown. At most ``AppLimits/details``.
    public var details: [OpenDetail]
    /// The Discover section shown.
    public var section: DiscoverSection
    /// Where the person is in each list they moved in.
    public var positions: [AppList: ListPosition]
    /// Removed favorites that undo puts back, newest first; at most ``AppLimits/undo``.
    public var removed: [Movie]
    /// Favorites an undo is putting back (shown in the list until stored, or rolled back).
    public var restoring: [Movie]
    /// The ids of ``removed``'s rows that came from a snapshot or a state file: an undo
    /// stores the catalog's row for them, never the row as the file said (not on the wire).
    public var uncheckedRows: Set<Int> = []
    /// What the person reads now.
    public var notice: AppNotice?
    /// How rows are shown, in every list.
    public var sort: AppSort = .default
    /// How many rows of a list the host shows (``AppIntent/Host/resized(_:)``; 10 until told).
    public var visibleRows = 10
    /// The next ``OpenDetail/key`` and ``AppNotice/id`` (not on the wire).
    public var nextDetailKey = 1, nextNoticeID = 1

    /// The app at its start: the Search tab, every screen empty.
    public init(tab: AppTab = .search, search: SearchState = SearchState(), discover: DiscoverState = DiscoverState(),
                favorites: FavoritesState = FavoritesState(), details: [OpenDetail] = [], section: DiscoverSection = .popular,
                positions: [AppList: ListPosition] = [:], removed: [Movie] = [], restoring: [Movie] = [],
                notice: AppNotice? = nil) {
        self.tab = tab
        self.search = search
        self.discover = discover
        self.favorites = favorites
        self.details = details
        self.section = section
        self.positions = positions
        self.removed = removed
        self.restoring = restoring
        self.notice = notice
    }

    /// The films of `list` as shown (loaded ones; none while loading or failed).
    public func movies(of list: AppList) -> [Movie] {
        switch list {
        case .search: search.results.value ?? []
        case .favorites: favorites.favorites.value ?? []
        case let .discover(section): discover[section]?.movies.value ?? []
        }
    }

    /// The films of `list` in the order shown (``sort``): what positions count.
    public func rows(of list: AppList) -> [Movie] { sort.apply(movies(of: list)) }

    /// The list the shown tab holds.
    public var currentList: AppList {
        switch tab {
        case .search: .search
        case .favorites: .favorites
        case .discover: .discover(section)
        }
    }

    /// Where the person is in `list` (the top when they never moved there).
    public func position(in list: AppList) -> ListPosition { positions[list] ?? ListPosition() }
}
