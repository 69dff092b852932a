/// The words of a query that name a period or a genre rather than a title word, and what a
/// query made only of such words asks for (``SearchEngine``):
///
/// - a year: 4 digits from 1890 to 2030 ("1994");
/// - a decade: "1990s", "90s" (also typed "90's"; "00s" is the 2000s, "10s"…"90s" the
///   1910s…1990s), or spelled out, "twenties"…"nineties";
/// - a genre: one of the catalog's own genres (the shipped catalog has Action, Animation,
///   Comedy, Documentary, Drama, Romance and Short), lowercased, also in the plural
///   ("comedies", "dramas") and as "animated" (Animation) or "romantic" (Romance);
/// - fillers that a query made of those may hold: stopwords and "movie", "movies", "film",
///   "films", "from" ("comedies from the 90s").
struct SearchFilters: Sendable {
    /// Genre name or alias → its bit (at most 64 genres: the first 64 names in catalog order).
    let genreBits: [String: UInt64]
    /// Per distinct genre list of the catalog (``MovieRows/genreLists``): its genres' bits.
    let listBits: [UInt64]

    /// Words a query made only of periods and genres may also hold.
    static let fillers: Set<String> = ["movie", "movies", "film", "films", "from"]

    /// Decades spelled out.
    private static let spelledDecades: [String: Int] = [
        "twenties": 1920, "thirties": 1930, "forties": 1940, "fifties": 1950, "sixties": 1960,
        "seventies": 1970, "eighties": 1980, "nineties": 1990,
    ]

    /// The genre words of a catalog's distinct genre lists (``MovieRows/genreLists``). A genre
    /// name is read into its word once (the lists combine a few names many ways).
    init(genreLists: [String]) {
        var bits: [String: UInt64] = [:], nameBits: [String: UInt64] = [:]
        var next = 0
        var lists: [UInt64] = []
        lists.reserveCapacity(genreLists.count)
        for list in genreLists {
            var mask: UInt64 = 0
            Self.forEachGenreName(of: list) { name in
                if let known = nameBits[name] {
                    mask |= known
                    return
                }
                let word = Self.genreWord(of: name)
                if !word.isEmpty, bits[word] == nil, next < 64 {
                    bits[word] = 1 << UInt64(next)
                    next += 1
                }
                let bit = word.isEmpty ? 0 : bits[word] ?? 0
                nameBits[name] = bit
                mask |= bit
            }
            lists.append(mask)
        }
        var aliases = bits
        for (word, bit) in bits {
            aliases[word + "s", default: 0] |= bit
            if word.hasSuffix("y") { aliases[String(word.dropLast()) + "ies", default: 0] |= bit }
        }
        if let bit = bits["animation"] { aliases["animated", default: 0] |= bit }
        if let bit = bits["romance"] { aliases["romantic", default: 0] |= bit }
        genreBits = aliases
        listBits = lists
    }

    /// Calls `body` with each genre name of `list`, as spelled between its commas, none empty.
    /// An ASCII list is split at its comma bytes (splitting it as Characters finds the same
    /// names, one grapheme break at a time).
    static func forEachGenreName(of list: String, _ body: (String) -> Void) {
        var text = list
        let ascii = text.withUTF8 { bytes in
            guard bytes.isASCII else { return false }
            var start = 0
            for end in 0...bytes.count where end == bytes.count || bytes[end] == UInt8(ascii: ",") {
                if end > start { body(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)) }
                start = end + 1
            }
            return true
        }
        if !ascii { for name in list.split(separator: ",") { body(String(name)) } }
    }

    /// The search word of a genre name: its words joined ("Sci-Fi": "scifi"); empty if it has none.
    static func genreWord(of name: String) -> String {
        var joined = ""   // not `joined()`: the unspecialized generic looks up conformances at first use
        for word in SearchText.words(name) { joined += word }
        return joined
    }

    /// The years a word names: a year ("1994" → 1994...1994) or a decade ("90s", "1990s",
    /// "nineties" → 1990...1999); nil for any other word.
    static func period(of word: String) -> ClosedRange<Int>? {
        let bytes = word.utf8
        guard let first = bytes.first else { return nil }
        guard first >= 0x30 && first <= 0x39 else {
            return spelledDecades[word].map { $0...($0 + 9) }
        }
        var value = 0, digits = 0
        for byte in bytes {
            guard byte >= 0x30 && byte <= 0x39 else { break }
            value = value * 10 + Int(byte - 0x30)
            digits += 1
            if digits > 4 { return nil }
        }
        if digits == bytes.count {
            return digits == 4 && (1890...2030).contains(value) ? value...value : nil
        }
        // A decade: digits ending in 0, then "s".
        guard digits == bytes.count - 1, bytes.last == 0x73, value % 10 == 0 else { return nil }
        if digits == 4, (1890...2030).contains(value) { return value...(value + 9) }
        if digits == 2 { let start = value == 0 ? 2000 : 1900 + value; return start...(start + 9) }
        return nil
    }

    /// A number or roman numeral ("3", "iii"), a year or a decade: a word that may be missing
    /// from a title of the series the query's other words name ("alien 3").
    static func isNumeral(_ word: String, after previous: String?, isLast: Bool) -> Bool {
        let bytes = word.utf8
        guard let first = bytes.first else { return false }
        if first >= 0x30 && first <= 0x39 {
            return bytes.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } || period(of: word) != nil
        }
        return SearchText.romanValue(word, after: previous, isLast: isLast) != nil || spelledDecades[word] != nil
    }

    /// What a query made only of periods, genres and fillers asks for (with at least one
    /// period or genre), or nil when it holds any other word.
    func filter(of words: [String]) -> Filter? {
        var years: ClosedRange<Int>?
        var genres: UInt64 = 0
        var named = false
        for word in words {
            if let period = Self.period(of: word) {
                // Several periods: the years they share ("90s 1994" is 1994; "1994 1995", none).
                if let known = years {
                    let low = max(known.lowerBound, period.lowerBound), high = min(known.upperBound, period.upperBound)
                    guard low <= high else { return Filter(years: nil, genres: 0, isEmpty: true) }
                    years = low...high
                } else {
                    years = period
                }
                named = true
            } else if let bit = genreBits[word] {
                genres |= bit
                named = true
            } else if !(SearchText.stopwords.contains(word) || Self.fillers.contains(word)) {
                return nil
            }
        }
        return named ? Filter(years: years, genres: genres, isEmpty: false) : nil
    }

    /// Films of some years and of all some genres.
    struct Filter: Sendable {
        var years: ClosedRange<Int>?
        var genres: UInt64
        /// True when no film can match ("1994 1995").
        var isEmpty: Bool
    }

    /// The ranks of the films `filter` selects, most popular first: at most `limit`, and
    /// whether that is all of them. Reads the catalog's years and genre lists in rank order,
    /// stopping at `limit`.
    func ranks(_ filter: Filter, in corpus: SearchCorpus, limit: Int) -> (ranks: [Int], isComplete: Bool) {
        guard !filter.isEmpty else { return ([], true) }
        var found: [Int] = []
        let years = corpus.years, lists = corpus.display.genreIndexes
        let low = filter.years?.lowerBound ?? Int.min, high = filter.years?.upperBound ?? Int.max
        for index in 0..<corpus.count {
            let year = Int(years[index])
            guard year >= low, year <= high else { continue }
            if filter.genres != 0, listBits[Int(lists[index])] & filter.genres != filter.genres { continue }
            found.append(index + 1)
            if found.count >= limit { return (found, index == corpus.count - 1) }
        }
        return (found, true)
    }
}
