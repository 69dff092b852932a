/// What a search query asks for: its words, each with the catalog words it may match and how
/// well, and a year or genre when it names one ("matrix 1999", "akahige drama").
struct SearchQuery: Sendable {
    /// One query word and the catalog words it may match.
    struct Term: Sendable {
        let text: String
        /// Catalog word → match quality (1 exact or numeral, 0.97 another form of the word
        /// ("doctor" for "dr", "3" for "three"), 0.8 prefix, 0.65 one edit, 0.5 two edits).
        var alternatives: [String: Double]
        /// A stopword ("the", "of"): it may be missing from a title.
        let isStop: Bool
        /// The years of a year ("1999": 1999...1999) or decade ("80s", "1980s": 1980...1989)
        /// in a query of several words: it may match the film's year instead of a title word.
        var years: ClosedRange<Int>?
        /// The genre bits of a catalog genre word ("drama", "comedies") in a query of several
        /// words: it may match the film's genres instead of a title word.
        var genres: UInt64 = 0
        /// A number, roman numeral, year or decade (``SearchFilters/isNumeral(_:after:isLast:)``):
        /// it may be the word missing from a title of the series the other words name.
        var isNumeral = false
        /// "part", "chapter", ... just before the query's last word, a numeral: a title of the
        /// series may lack it too ("die hard part 3").
        var isMarker = false
        /// A word about the medium ("movie", "dvd", "full": ``SearchWordForms/medium``): when
        /// nothing matches every word, a title may lack it at little cost.
        var isMedium = false
        /// How much the word says, for the share of the query a title covers when nothing
        /// matches every word: the log of how rare it is among titles (an unknown word says
        /// the most), a quarter of that for stopwords and medium words.
        var weight = 1.0
        /// The word being typed (the query's last, with no space after it): any title word it
        /// begins matches as a prefix.
        var isPrefix = false
        /// The word's position in the query.
        var index = 0
        /// ``alternatives`` keyed by word id, to look title words up.
        var lookup: [UInt32: Double] = [:]
        /// For the word being typed: the ids of the vocabulary words it begins (itself aside).
        var prefixIDs: Range<Int> = 0..<0
        /// The id of the word itself, when the vocabulary has it.
        var id: UInt32?
        /// The word's unicode scalars.
        var scalars: [UInt32] = []
        /// A word that lost most of its letters to folding: it matches only itself.
        var isWhole = false

        /// True when the word may match the film itself (its year or genre) rather than a
        /// title word: it cannot drive the candidates.
        var isAttribute: Bool { years != nil || genres != 0 }
    }

    var terms: [Term]
    /// Adjacent words joined, when the catalog has the joined word: ("goodfellas", 0, 1).
    var joined: [(word: String, id: UInt32, first: Int, second: Int)] = []
    /// The order terms are checked in: the rarest required words first, so a title that
    /// lacks one is dropped after a look or two.
    var order: [Int] = []
    /// Whether a whole part of a title ("Outfoxed" of "Outfoxed: Rupert Murdoch's War on
    /// Journalism") covers it as the whole title would; not for the titles among a period's
    /// films ("2001" ranks "2001: A Space Travesty" among 2001's films by its own words).
    var partsCover = true

    /// Quality of matches by kind.
    static let exact = 1.0, form = 0.97, prefix = 0.8, oneEdit = 0.65, twoEdits = 0.5, joinedWords = 0.95

    /// Which query words a title may lack (stopwords aside, it may always lack those).
    enum Missing: Sendable {
        /// None: every word matches (a title word, or the film's year or genre).
        case none
        /// Exactly one numeral (number, roman numeral, year or decade), every other word
        /// matching (a series marker before it may be missing too): the series the other
        /// words name ("alien 3" → the Alien films).
        case numeral
        /// The fallback when nothing else matched: the titles covering most of the query.
        /// A complete known word of 4 letters or more that matches no title word may match
        /// one a typo away ("forest gump" → Forrest Gump). A title must then cover at least
        /// half of the query, each word counting its ``Term/weight`` ("waking life full
        /// movie", "shawshank redemption prison"; never "Cast Away" for "spirited away",
        /// where the rarer word is missing), or a third of it when the query holds the whole
        /// title, of two words or more ("star wars a new hope" holds Star Wars), with a word
        /// that is neither a stopword nor a medium word; or lack only the word being typed,
        /// every other word matching exactly ("the shawshank redep").
        case most
    }
}
