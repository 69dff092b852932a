/// What a search says about the catalog itself when the query asks for what the catalog does
/// not hold: the catalog knows films by title, year and genre (``Genre/all``), not the people
/// who made them, nor other genres. The results still list the titles that match; a host
/// shows ``text`` with them.
///
/// ```swift
/// SearchHint.of(query: "tom hanks", results: [])?.kind     // .person
/// SearchHint.of(query: "80s horror", results: [])?.kind    // .genre
/// SearchHint.of(query: "annie hall", results: [annieHall]) // nil: a title holds the words
/// ```
public struct SearchHint: Equatable, Hashable, Sendable {
    /// What the query asked for that the catalog lacks.
    public enum Kind: String, Equatable, Hashable, Sendable {
        /// A person's name ("tom hanks", "films by kubrick"): the catalog has no cast or crew.
        case person
        /// A genre the catalog does not have ("horror", "80s westerns", "sci-fi").
        case genre
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

    /// The hint for `query` and the first page of its `results`, or nil.
    ///
    /// - A person: the query is a name of 2 or 3 words whose first is a given name ("tom
    ///   hanks", "meryl streep"), or any name of 1 to 3 words after "with", "starring", "by",
    ///   "directed by", "actor", "director"... ("movies with kubrick"), and no title among the
    ///   results holds all its words (a word or its possessive, or one edit away from a word
    ///   of 4 letters or more): "annie hall", "harry potter", "jack frost" are titles.
    /// - A genre: the query's words, fillers ("movies", "best"), periods ("80s", "1994") and
    ///   the catalog's own genres aside, all name genres the catalog lacks: "horror", "80s
    ///   horror movies", "science fiction", "westerns".
    public static func of(query: String, results: [Movie]) -> SearchHint? {
        let words = CatalogWords.words(of: query)
        guard !words.isEmpty, words.count <= 8 else { return nil }
        if let genre = CatalogWords.missingGenre(in: words) {
            let names = Genre.all.dropLast().joined(separator: ", ") + " and " + (Genre.all.last ?? "")
            return SearchHint(kind: .genre, text: "The catalog has no \(genre) genre: its genres are \(names). "
                                  + "These titles hold the words you typed.")
        }
        if let name = CatalogWords.personName(in: words),
           !results.contains(where: { CatalogWords.holds(CatalogWords.words(of: $0.title), name) }) {
            let shown = name.map(CatalogWords.capitalized).joined(separator: " ")
            return SearchHint(kind: .person, text: "“\(shown)” looks like a person: the catalog knows films by title, "
                                  + "year and genre, not who is in them or made them. These titles hold the words you typed.")
        }
        return nil
    }
}
