import CinematicDomain

/// The app's words, the same in every UI: what an empty list means and what to type, what
/// failed and what the person can do, how many films a list shows, and a film's facts. The
/// keys named are the keymap's (app.wire.md).
public enum AppWording {
    /// The key that tries again (the keymap's `retried`).
    public static let retryKey = "F5"
    /// The key that fills the heart on a Detail (the keymap's heart).
    public static let heartKey = "F"

    /// Search before two characters are typed.
    public static let searchIdle = "Type at least \(SearchMoviesUseCase.minimumQueryLength) characters to search: "
        + "a title (dune), a series (die hard 3), or a title and a year (king kong 1933)."
    /// A query typed but not searched, nothing on its way (after time travel).
    public static let searchNotYet = "Enter searches the catalog for it."
    /// The histogram's heading.
    public static let histogramHeading = "Share of votes per star rating (bars on a 0-100% scale)"
    /// What the histogram's figures mean.
    public static let histogramNote = "The catalog gives each share as a band of 10 points and shows its middle: "
        + "4.5% means 0-10%, 14.5% means 10-20%; so the shares need not add up to 100%."

    /// A search that found nothing.
    public static func searchEmpty(_ query: String) -> String {
        "No film in the catalog matches \u{201C}\(SearchMoviesUseCase.trimmed(query))\u{201D}. " + searchAdvice
    }

    /// What to try when a search finds nothing.
    public static let searchAdvice = "Try fewer words, another spelling, or part of the title; the catalog knows titles, years and genres."

    /// A search that found nothing, with the catalog's `hint` when it says what the catalog
    /// holds (``SearchHint/Kind/years``, ``SearchHint/Kind/nothing``).
    public static func searchEmpty(_ query: String, hint: SearchHint?) -> String {
        guard let hint, hint.kind == .years || hint.kind == .nothing else { return searchEmpty(query) }
        return hint.text + " " + searchAdvice
    }

    /// The Favorites list with none yet.
    public static let favoritesEmpty = "Open a film (Enter on a row) and press \(heartKey) to keep it here; "
        + "every app that shares your favorites file shows it too."

    /// How rows are shown, in words.
    public static func sort(_ sort: AppSort) -> String {
        switch sort {
        case .default: "In the list's order"
        case .title: "By title"
        case .year: "By year, newest first"
        case .rating: "By rating, highest first"
        }
    }

    /// A tab's name.
    public static func tab(_ tab: AppTab) -> String {
        switch tab {
        case .search: "Search"
        case .discover: "Discover"
        case .favorites: "Favorites"
        }
    }

    /// A Discover section with no films.
    public static func sectionEmpty(_ title: String) -> String { "\(title) has no films in this catalog." }

    /// (what failed, what the person can do) for a failed load.
    public static func failure(_ what: String, _ error: MovieError) -> AppMessage {
        let code = error.code, message = error.message
        let advice: String
        switch error {
        case .network, .timeout: advice = "Check that the movie server is running and reachable"
        case .notFound: advice = "The catalog has no such film; go back and choose another"
        case .storage: advice = "Check that the favorites file can be written (disk space, permissions)"
        case .invalidResponse: advice = "The movie server answered something this app cannot read; check its version"
        }
        return AppMessage(kind: .failed, heading: message.isEmpty ? "\(what): \(code)" : "\(what): \(code): \(message)",
                          body: "\(advice); \(retryKey) tries again.")
    }

    /// How many films a loaded, paged list shows.
    public static func count(_ count: Int, exhausted: Bool, full: Bool, loadingMore: Bool, loadMoreError: MovieError?) -> String {
        if exhausted { return count == 1 ? "1 movie" : "\(grouped(count)) movies" }
        if full { return "\(grouped(count)) shown, the most a list keeps" }
        if loadingMore { return "\(grouped(count)) shown, loading more\u{2026}" }
        if let loadMoreError { return "\(grouped(count)) shown; the next page failed: \(loadMoreError.message) (\(retryKey) tries again)" }
        return "\(grouped(count)) shown, more match"
    }

    /// Where a loaded answer came from: "" for the embedded catalog.
    public static func source(_ source: AnswerSource) -> String {
        switch source {
        case .local: ""
        case .live: "Live from the movie server"
        case .cache: "Offline: showing saved results (the movie server does not answer)"
        }
    }

    /// 63400 → "63,400" (``NumberText/grouped(_:)``).
    public static func grouped(_ value: Int) -> String { NumberText.grouped(value) }

    /// 8.25 → "8.3" (one decimal); "unknown" for what no film's figure is (not finite, or
    /// beyond ±10^15: a hostile row must not trap the conversion to an integer).
    public static func oneDecimal(_ value: Double) -> String {
        guard value.isFinite, value.magnitude < 1e15 else { return "unknown" }
        let tenths = Int((value * 10).rounded())
        return "\(tenths < 0 ? "-" : "")\(abs(tenths) / 10).\(abs(tenths) % 10)"
    }

    /// A film's facts, in order: Year, Runtime, Genres, MPAA, Budget, Rating.
    public static func facts(_ movie: Movie, budget: Int?) -> [AppFact] {
        [AppFact(label: "Year", value: movie.year > 0 ? String(movie.year) : "unknown"),
         AppFact(label: "Runtime", value: movie.runtime > 0 ? "\(movie.runtime) min" : "unknown"),
         AppFact(label: "Genres", value: movie.genres.isEmpty ? "none listed" : movie.genres.joined(separator: ", ")),
         AppFact(label: "MPAA", value: movie.mpaa.map { $0.isEmpty ? "unknown" : $0 } ?? "unknown"),
         AppFact(label: "Budget", value: budget.map { "$\(grouped($0))" } ?? "unknown"),
         AppFact(label: "Rating", value: "\(oneDecimal(movie.rating)) from \(grouped(movie.votes)) vote\(movie.votes == 1 ? "" : "s")")]
    }
}
