import CinematicDomain
import Synchronization

/// What ``AppState/view(limits:memo:)`` derived last, so that the view of the next state (a
/// keystroke later, a selection moved) reuses every part whose inputs did not change: the
/// list in the order shown, the rows in view worded with their selection, the tabs and
/// Discover's sections as choices. A part is reused while its inputs are equal (a list
/// compares by its storage first: one comparison while it stays loaded), and then it is the
/// very same array, so whoever compares views next (a codec's caches) does so in one step too.
///
/// The view is the same with or without a memo; a codec keeps one per store:
///
/// ```swift
/// let memo = AppViewMemo()
/// let view = state.view(limits: limits, memo: memo)   // words only what changed since the last
/// ```
public final class AppViewMemo: Sendable {
    private struct Ordered { var movies: [Movie], sort: AppSort, rows: [Movie] }
    private struct Window { var rows: ArraySlice<Movie>, selected: Int?, worded: [AppRowView] }
    private struct Sections { var discover: [DiscoverSectionState], chosen: DiscoverSection, choices: [AppChoice] }

    private let ordered = Mutex<Ordered?>(nil)
    private let window = Mutex<Window?>(nil)
    private let sections = Mutex<Sections?>(nil)

    /// A memo that remembers nothing yet.
    public init() {}

    /// `movies` in `sort`'s order (``AppSort/apply(_:)``), sorted again only when either changed.
    func rows(_ movies: [Movie], sortedBy sort: AppSort) -> [Movie] {
        if sort == .default { return movies }
        if let rows = ordered.withLock({ $0.flatMap { $0.sort == sort && $0.movies == movies ? $0.rows : nil } }) { return rows }
        let rows = sort.apply(movies)
        ordered.withLock { $0 = Ordered(movies: movies, sort: sort, rows: rows) }
        return rows
    }

    /// The rows in view, worded (``AppRowView/init(movie:)``), the one at offset `selected`
    /// of `rows` marked selected.
    func worded(_ rows: ArraySlice<Movie>, selected: Int?) -> [AppRowView] {
        let kept = window.withLock { window in
            window.flatMap { $0.selected == selected && $0.rows.startIndex == rows.startIndex && $0.rows == rows ? $0.worded : nil }
        }
        if let kept { return kept }
        let worded = Self.worded(rows, selected: selected)
        window.withLock { $0 = Window(rows: rows, selected: selected, worded: worded) }
        return worded
    }

    /// The rows in view, worded (no memo).
    static func worded(_ rows: ArraySlice<Movie>, selected: Int?) -> [AppRowView] {
        var worded = rows.map(AppRowView.init(movie:))
        for index in worded.indices { worded[index].selected = index == selected }
        return worded
    }

    /// Discover's sections as choices, `chosen` the one shown.
    func choices(_ discover: [DiscoverSectionState], chosen: DiscoverSection) -> [AppChoice] {
        // The same sections: the same storage (one comparison) until a section's page loads.
        if let kept = sections.withLock({ $0.flatMap { $0.chosen == chosen && $0.discover == discover ? $0.choices : nil } }) { return kept }
        let choices = AppViewMemo.choices(discover, chosen: chosen)
        sections.withLock { $0 = Sections(discover: discover, chosen: chosen, choices: choices) }
        return choices
    }

    /// Discover's sections as choices (no memo).
    static func choices(_ discover: [DiscoverSectionState], chosen: DiscoverSection) -> [AppChoice] {
        discover.map { AppChoice(id: $0.section.id, title: $0.section.title, chosen: $0.section == chosen) }
    }

    /// The tabs as choices, `tab` the one shown: one array per tab, made once.
    static func tabs(_ tab: AppTab) -> [AppChoice] {
        switch tab {
        case .search: tabChoices[0]
        case .discover: tabChoices[1]
        case .favorites: tabChoices[2]
        }
    }

    private static let tabChoices = AppTab.allCases.map { shown in
        AppTab.allCases.map { AppChoice(id: $0.id, title: AppWording.tab($0), chosen: $0 == shown) }
    }
}
