import CinematicDomain
import MVIKit

/// Everything that can happen in the app: what the person did (``Host``), and what the
/// four features' effects, undo writes and the notice clock report back.
public enum AppIntent: Equatable, Sendable, HostIntents {
    /// What the person did: the only intents a host may send.
    case host(Host)
    /// Search's own intents (its effects' results, and what a host sent it).
    case search(SearchIntent)
    /// Discover's own intents.
    case discover(DiscoverIntent)
    /// Favorites' own intents.
    case favorites(FavoritesIntent)
    /// An open Detail's own intents (dropped once that Detail is closed).
    case detail(key: Int, DetailIntent)
    /// Internal: an undo stored the favorite back.
    case undoSaved(Movie)
    /// Internal: an undo could not store the favorite back.
    case undoFailed(Movie, MovieError)
    /// Internal: a notice's lifetime passed.
    case noticeExpired(id: Int)
    /// Internal: the app was restored from a snapshot (see ``AppRestore``).
    case restored(AppRestore)
    /// Internal: the app's state file could not be resumed from or saved (the words say why).
    case stateFileProblem(String)

}

/// What a restored app starts from: the tab, Discover's section, where the person was in
/// each list, the Details that were open (each with the row it was opened from, if known),
/// the undo stack, and what Search and Discover reload.
public struct AppRestore: Equatable, Sendable {
    /// The tab shown.
    public var tab: AppTab
    /// Discover's section shown.
    public var section: DiscoverSection
    /// The query, and how many pages of its results to load again.
    public var query: String
    public var searchPages: Int
    /// Discover's sections to load again, with their pages.
    public var sections: [DiscoverRestoredSection]
    /// The Details that were open, oldest first: the film's id and the row it was opened from.
    public var details: [(movieID: Int, listing: Movie?)]
    /// Positions in the lists.
    public var positions: [AppList: ListPosition]
    /// The undo stack, newest first.
    public var removed: [Movie]
    /// A notice to show again (it stays until dismissed): its kind, words and whether undo acts on it.
    public var notice: (kind: AppNotice.Kind, text: String, offersUndo: Bool)?

    /// A restore.
    public init(tab: AppTab = .search, section: DiscoverSection = .popular, query: String = "", searchPages: Int = 0,
                sections: [DiscoverRestoredSection] = [], details: [(movieID: Int, listing: Movie?)] = [],
                positions: [AppList: ListPosition] = [:], removed: [Movie] = [],
                notice: (kind: AppNotice.Kind, text: String, offersUndo: Bool)? = nil) {
        self.tab = tab
        self.section = section
        self.query = query
        self.searchPages = searchPages
        self.sections = sections
        self.details = details
        self.positions = positions
        self.removed = removed
        self.notice = notice
    }

    public static func == (lhs: AppRestore, rhs: AppRestore) -> Bool {
        lhs.tab == rhs.tab && lhs.section == rhs.section && lhs.query == rhs.query && lhs.searchPages == rhs.searchPages
            && lhs.sections == rhs.sections && lhs.positions == rhs.positions && lhs.removed == rhs.removed
            && lhs.details.map(\.movieID) == rhs.details.map(\.movieID) && lhs.details.map(\.listing) == rhs.details.map(\.listing)
            && lhs.notice?.kind == rhs.notice?.kind && lhs.notice?.text == rhs.notice?.text && lhs.notice?.offersUndo == rhs.notice?.offersUndo
    }
}

/// A Search intent inside an app intent (schema `appSearchIntent`): as the search feature
/// takes it, except that a query of any length is taken (the app fits it).
public typealias AppSearchIntent = SearchIntent.Host
