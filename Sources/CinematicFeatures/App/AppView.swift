import CinematicDomain

/// What the person sees, derived from ``AppState`` (``AppState/view``): the screen, its rows
/// and sentences, and which actions do something now. Every UI draws this as it is: no host
/// formats a sentence, checks the minimum query, pages, sorts or decides what a key does.
///
/// ```swift
/// let view = store.state.view
/// view.list?.status          // "20 shown, more match"
/// view.list?.rows.first?.title
/// view.actions.undo          // whether undo does something now
/// ```
public struct AppView: Equatable, Sendable {
    /// Which screen is shown: a tab, or the Detail over it.
    public enum Screen: String, Equatable, Sendable { case search, discover, favorites, detail }

    /// The screen shown.
    public var screen: Screen
    /// Its title: "Search", "Discover: Comedy", "Favorites", or the film ("Alien (1979)").
    public var title: String
    /// The list of the tab (nil on a Detail).
    public var list: AppListView?
    /// The Detail shown (nil on a tab).
    public var detail: AppDetailView?
    /// Where what is shown came from, for a live catalog ("" for the embedded one).
    public var source: String
    /// How rows are shown.
    public var sort: AppSort
    /// ``sort`` in words ("By rating, highest first").
    public var sortLabel: String
    /// The text of the search field (the query as the app took it).
    public var query: String
    /// The tabs, in order, the shown one chosen.
    public var tabs: [AppChoice]
    /// Discover's sections, in order, the shown one chosen.
    public var sections: [AppChoice]
    /// Which actions do something now.
    public var actions: AppActions
}

/// One of a row of choices (a tab, a Discover section): its id on the wire, its name, and
/// whether it is the one shown.
public struct AppChoice: Equatable, Sendable {
    /// "search", "comedy"
    public var id: String
    /// "Search", "Comedy"
    public var title: String
    /// True for the one shown.
    public var chosen: Bool
}

extension AppChoice {
    /// The tabs, in order, each with the given one chosen (made once: a view shares them).
    static let tabs = Dictionary(uniqueKeysWithValues: AppTab.allCases.map { shown in
        (shown, AppTab.allCases.map { AppChoice(id: $0.id, title: AppWording.tab($0), chosen: $0 == shown) })
    })

    /// Discover's sections in `discover`'s order, `chosen` chosen (the catalog's usual
    /// sections: made once per chosen section, shared by every view).
    static func sections(of discover: DiscoverState, chosen: DiscoverSection) -> [AppChoice] {
        let usual = DiscoverSection.all
        if discover.sections.count == usual.count, discover.sections.indices.allSatisfy({ same(discover.sections[$0].section, usual[$0]) }),
           let made = usualSections[chosen] {
            return made
        }
        return choices(discover.sections.map(\.section), chosen: chosen)
    }

    /// `sections` as choices, `chosen` chosen.
    private static func choices(_ sections: [DiscoverSection], chosen: DiscoverSection) -> [AppChoice] {
        sections.map { AppChoice(id: $0.id, title: $0.title, chosen: $0 == chosen) }
    }

    /// True for the same section (compared in place: the genre's name by its storage first).
    private static func same(_ a: DiscoverSection, _ b: DiscoverSection) -> Bool {
        switch (a, b) {
        case (.popular, .popular), (.topRated, .topRated): true
        case let (.genre(x), .genre(y)): x == y
        default: false
        }
    }

    private static let usualSections = Dictionary(uniqueKeysWithValues: DiscoverSection.all.map { ($0, choices(DiscoverSection.all, chosen: $0)) })
}

/// A list as shown: the rows in view, where the selection is, and what to say about it.
public struct AppListView: Equatable, Sendable {
    /// Which list.
    public var list: AppList
    /// How many films it holds (loaded).
    public var count: Int
    /// The selected row (in the order shown), nil when the list has no rows.
    public var selection: Int?
    /// The first row in view.
    public var firstVisible: Int
    /// The rows in view: from ``firstVisible``, at most the rows the host shows.
    public var rows: [AppRowView]
    /// One line about the list: "20 shown, more match", "58 movies", "2,000 shown, the most a
    /// list keeps"; "" when a ``message`` stands in for the rows.
    public var status: String
    /// What is shown instead of rows (nothing typed, loading, nothing found, failed), if anything.
    public var message: AppMessage?
    /// What the catalog cannot answer about the query ("Tom Hanks looks like a person…"), or "".
    public var hint: String
    /// How many rows the host shows (``AppIntent/Host/resized(_:)``; 10 until told).
    public var visibleRows: Int
}

/// One film's row, its fields already worded.
public struct AppRowView: Equatable, Sendable {
    /// The film.
    public var id: Int
    /// "Alien"
    public var title: String
    /// "1979"
    public var year: String
    /// "8.3"
    public var rating: String
    /// "Action, Sci-Fi", or "" when the catalog lists none.
    public var genres: String
    /// True for the selected row.
    public var selected: Bool

    /// `movie`'s row, worded ("1979", "8.3", "Action, Sci-Fi"), not selected.
    public init(movie: Movie) {
        self.init(id: movie.id, title: movie.title, year: movie.year > 0 ? String(movie.year) : "",
                  rating: AppWording.oneDecimal(movie.rating), genres: movie.genres.joined(separator: ", "), selected: false)
    }

    /// The rows of `movies`, the one at offset `selected` selected (what
    /// ``AppState/view(limits:rows:)`` words the rows in view with by default).
    public static func rows(_ movies: ArraySlice<Movie>, selected: Int?) -> [AppRowView] {
        var rows = movies.map(AppRowView.init(movie:))
        if let selected, rows.indices.contains(selected) { rows[selected].selected = true }
        return rows
    }

    /// A row of the given words.
    public init(id: Int, title: String, year: String, rating: String, genres: String, selected: Bool) {
        self.id = id
        self.title = title
        self.year = year
        self.rating = rating
        self.genres = genres
        self.selected = selected
    }
}

/// A sentence shown in place of content: what happened, and what the person can do.
public struct AppMessage: Equatable, Sendable {
    /// What kind of moment it is (hosts may style it).
    public enum Kind: String, Equatable, Sendable { case idle, loading, empty, failed }
    /// Its kind.
    public var kind: Kind
    /// What happened ("Search failed: network: connection refused").
    public var heading: String
    /// What the person can do ("Check that the movie server is running and reachable; F5 tries again.").
    public var body: String
}

/// The Detail shown, worded.
public struct AppDetailView: Equatable, Sendable {
    /// "Alien (1979)".
    public var heading: String
    /// The film's facts, in order: Year, Runtime, Genres, MPAA, Budget, Rating.
    public var facts: [AppFact]
    /// Whether the heart is filled.
    public var isFavorite: Bool
    /// What the heart says: "In your favorites", "Not in your favorites", "Saving…", or why
    /// the last change could not be saved.
    public var heart: String
    /// Shown instead of the facts while loading or after a failure.
    public var message: AppMessage?
    /// The share of votes per star rating, when the film has one.
    public var histogram: AppHistogram?
}

/// A labelled fact of a film: ("Runtime", "116 min").
public struct AppFact: Equatable, Sendable {
    /// "Runtime"
    public var label: String
    /// "116 min"
    public var value: String
}

/// The rating histogram on a stated scale: each bar's length is its share of the whole
/// width on a fixed 0-100% scale.
public struct AppHistogram: Equatable, Sendable {
    /// One bar.
    public struct Bar: Equatable, Sendable {
        /// 10 down to 1.
        public var stars: Int
        /// "10★"
        public var starsLabel: String
        /// The share of votes in percent (the catalog's band middle: 14.5).
        public var share: Double
        /// "14.5%"
        public var label: String
        /// The bar's length, 0...1 of the width (share / 100).
        public var fraction: Double
    }

    /// "Share of votes per star rating (bars on a 0-100% scale)"
    public var heading: String
    /// What the figures mean (10-point bands).
    public var note: String
    /// From 10 stars down to 1.
    public var bars: [Bar]
}

/// Which actions do something now (a host may grey out the others), each named as its intent.
public struct AppActions: Equatable, Sendable {
    /// Back closes a Detail.
    public var back: Bool
    /// Undo puts a removed favorite back.
    public var undo: Bool
    /// Retried tries again what failed on the screen shown.
    public var retried: Bool
    /// Load more fetches the next page of the shown list.
    public var loadMore: Bool
    /// Activate opens the selected film (or searches the typed query now).
    public var activate: Bool
    /// Remove takes the selected favorite out.
    public var removeSelected: Bool
    /// A notice is shown that dismissNotice hides.
    public var dismissNotice: Bool
}
