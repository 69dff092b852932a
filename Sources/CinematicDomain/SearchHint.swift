/// What a search says about the catalog itself when the query asks for what the catalog does
/// not hold: the catalog knows films by title, year and genre (``Genre/all``), not the people
/// who made them, nor other genres, nor films past its years (``CatalogCoverage``). The
/// results still list the titles that match; a host shows ``text`` with them.
///
/// ```swift
/// SearchHint.of(query: "tom hanks", results: [])?.kind     // .person
/// SearchHint.of(query: "80s horror", results: [])?.kind    // .genre
/// SearchHint.of(query: "casino royale 2006", results: [casinoRoyale1967], coverage: embedded)?.kind  // .years
/// SearchHint.of(query: "zzqx", results: [], coverage: embedded)?.kind    // .nothing
/// SearchHint.of(query: "annie hall", results: [annieHall]) // nil: a title holds the words
/// ```
public struct SearchHint: Equatable, Hashable, Sendable {
    /// What the query asked for that the catalog lacks.
    public enum Kind: String, Equatable, Hashable, Sendable {
        /// A person's name ("tom hanks", "films by kubrick"): the catalog has no cast or crew.
        case person
        /// A genre the catalog does not have ("horror", "80s westerns", "sci-fi").
        case genre
        /// A year outside the catalog's years ("casino royale 2006" in a catalog ending in
        /// 2005): the text gives the catalog's range and provenance.
        case years
        /// Nothing matched: the text gives what the catalog holds.
        case nothing
        /// No title holds every word: the films listed match the others, and the text names
        /// the words the first leaves out ("the dark knight" → First Knight leaves out "dark").
        case partial
    }

    /// What it is about.
    public let kind: Kind
    /// The words a host shows, the same in every host.
    public let text: String

    /// Creates a hint.
    public init(kind: Kind, text: String) {
        self.kind = kind
        self.text = text
    }

    /// The hint for `query` and the first page of its `results`, from a catalog that holds
    /// `coverage` (nil: one that does not say) and whose first result leaves out the words
    /// `unmatched` (no title matches them all), or nil.
    ///
    /// - A person: the query is a name of 2 or 3 words whose first is a given name ("tom
    ///   hanks", "meryl streep"), or any name of 1 to 3 words after "with", "starring", "by",
    ///   "directed by", "actor", "director"... ("movies with kubrick"), and no title among the
    ///   results holds all its words (a word or its possessive, or one edit away from a word
    ///   of 4 letters or more): "annie hall", "harry potter", "jack frost" are titles.
    /// - A genre: the query's words, fillers ("movies", "best"), periods ("80s", "1994") and
    ///   the catalog's own genres aside, all name genres the catalog lacks: "horror", "80s
    ///   horror movies", "science fiction", "westerns".
    /// - Years (with a coverage): a year of the query ("2006", "2010s") lies outside the
    ///   catalog's years.
    /// - Nothing (with a coverage): no title matched.
    /// - Partial: the catalog says the results leave out some of the query's words; with a
    ///   coverage, the text adds what the catalog holds (the film may be past its years).
    public static func of(query: String, results: [Movie], coverage: CatalogCoverage? = nil,
                          unmatched: [String] = []) -> SearchHint? {
        let words = CatalogWords.words(of: query)
        guard !words.isEmpty, words.count <= 8 else { return nil }
        if let genre = CatalogWords.missingGenre(in: words) {
            return SearchHint(kind: .genre, text: "The catalog has no \(genre) genre: its genres are \(listed(Genre.all)). "
                                  + "These titles hold the words you typed.")
        }
        if let name = CatalogWords.personName(in: words),
           !results.contains(where: { CatalogWords.holds(CatalogWords.words(of: $0.title), name) }) {
            let shown = name.map(CatalogWords.capitalized).joined(separator: " ")
            return SearchHint(kind: .person, text: "“\(shown)” looks like a person: the catalog knows films by title, "
                                  + "year and genre, not who is in them or made them. These titles hold the words you typed.")
        }
        if let coverage, let year = outside(words, coverage, titled: results) {
            let rest = results.isEmpty ? "" : " These titles hold your other words."
            return SearchHint(kind: .years, text: "No film from \(year) is in the catalog: it holds \(coverage.range).\(rest)")
        }
        if let coverage, results.isEmpty {
            return SearchHint(kind: .nothing, text: "No film in the catalog matches \u{201C}\(query)\u{201D}: it holds \(coverage.range).")
        }
        if !results.isEmpty, !unmatched.isEmpty {
            let named = listed(unmatched.prefix(3).map { "\u{201C}\($0)\u{201D}" })
            let holds = coverage.map { " The catalog holds \($0.range)." } ?? ""
            return SearchHint(kind: .partial, text: "No title holds every word: these leave out \(named).\(holds)")
        }
        return nil
    }

    /// The first year of `words` ("2006", or a decade's "2010s") outside the catalog's years
    /// that no title of `results` holds as a word ("2010" is a film of 1984, "2046" one of 2004).
    private static func outside(_ words: [String], _ coverage: CatalogCoverage, titled results: [Movie]) -> Int? {
        guard coverage.lastYear > 0 else { return nil }
        for word in words {
            let digits = word.hasSuffix("s") ? word.dropLast() : Substring(word)
            guard digits.count == 4, digits.utf8.allSatisfy({ (48...57).contains($0) }), let year = Int(digits),
                  (1800...2999).contains(year) else { continue }
            // A decade lies outside when none of its years is inside.
            let last = word.hasSuffix("s") ? year + 9 : year
            guard year > coverage.lastYear || last < coverage.firstYear else { continue }
            if !results.contains(where: { CatalogWords.words(of: $0.title).contains(word) }) { return year }
        }
        return nil
    }

    /// "a", "a and b", "a, b and c".
    private static func listed(_ items: [String]) -> String {
        items.count <= 1 ? items.joined() : items.dropLast().joined(separator: ", ") + " and " + items[items.count - 1]
    }
}
