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

    /// The intents a host may send.
    public enum Host: Equatable, Sendable {
        /// The app appeared: starts observing the favorites (and loads Discover when its tab
        /// is shown). Sending it again does nothing new.
        case task
        /// The person chose a tab (Details stay on the stack, shown over it).
        case tabSelected(AppTab)
        /// The person typed in the search field. Any text is taken: beyond a search's bounds
        /// (256 characters, 1024 UTF-8 bytes) it is cut at a character boundary, and a
        /// notice says so.
        case queryChanged(String)
        /// The person chose a Discover section.
        case sectionSelected(DiscoverSection)
        /// The person moved in a list: its selected row and first visible row. A selection
        /// past the last row of a list that has more loads the next page and moves on to the
        /// first new row once it arrives; otherwise it stops at the last row.
        case moved(AppList, Int, Int)
        /// The person opened a film (by id) from a list: its Detail is pushed on the stack.
        case opened(Int)
        /// The person went back: the shown Detail is closed. Nothing when none is open.
        case back
        /// The person removed a favorite: it goes on the undo stack (newest first).
        case removed(Int)
        /// The person asked to undo the newest removal: the favorite is put back at once
        /// (optimistic) and stored; a failed write rolls it back and keeps it undoable.
        case undo
        /// The person dismissed the notice with this id.
        case noticeDismissed(Int)
        /// The person asked to try again what failed on the screen shown: the Detail, the
        /// search, or Discover's sections.
        case retried
        /// An intent for the Search screen, as the search feature takes it (a child handle's).
        case search(SearchIntent.Host)
        /// An intent for the Discover screen.
        case discover(DiscoverIntent.Host)
        /// An intent for the Favorites screen (a removal goes on the undo stack).
        case favorites(FavoritesIntent.Host)
        /// An intent for the shown Detail (nothing when none is open).
        case detail(DetailIntent.Host)
    }
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
