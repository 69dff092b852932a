import CinematicData
import CinematicDomain

/// A synthetic catalog for the scale benchmark (benchmark code: the library does not hold it), whose
/// vocabulary grows with it as a real catalog's does: each title starts from the first words
/// of a real title, and seven titles in eight also get a word the real catalog does not
/// have: an invented word (syllables; the pool of them grows with the catalog), a real word
/// with a typo (a letter dropped, doubled, swapped or replaced), or a real word continued
/// ("star" → "starling", "stars"). Every other field is a real film's (so the vote
/// distribution is the real one). Deterministic.
enum SyntheticCatalog {
    /// Builds the index of a synthetic catalog of `count` films at `path`; returns the size
    /// of its vocabulary.
    @discardableResult
    static func writeIndex(count: Int, to path: String) throws(MovieError) -> Int {
        let rows = try rows(count: count)
        var words: Set<String> = []
        for row in rows { for word in SearchText.words(row.catalogTitle) { words.insert(word) } }
        try CatalogIndex.write(to: path) { (CatalogFilms(rows: rows), CatalogIndex.Stamp(data: "synthetic-\(count)", library: "bench")) }
        return words.count
    }

    /// The same `count` films as a movie file's text (docs/catalog-index.md: the header line,
    /// then one tab-separated line a film), so a builder run on it sees the same films.
    package static func movieFileText(count: Int) throws(MovieError) -> String {
        var text = CatalogRow.columns.joined(separator: "\t") + "\n"
        for row in try rows(count: count) {
            let fields = ["\(row.id)", row.catalogTitle, "\(row.year)", "\(row.runtime)", row.budget.map { "\($0)" } ?? "NA",
                          "\(row.rating)", "\(row.votes)"] + row.distribution.map { "\($0)" } + [row.mpaa ?? "", row.genres.joined(separator: ",")]
            text += fields.joined(separator: "\t")
            text += "\n"
        }
        return text
    }

    static func rows(count: Int) throws(MovieError) -> [CatalogRow] {
        let real = try EmbeddedCatalog.rows()
        var random = Random(state: 0x9E37_79B9_7F4A_7C15)
        let syllables = ["ka", "lo", "mi", "ra", "to", "ne", "su", "vi", "da", "re", "zo", "ba", "li", "mo", "ta", "en",
                         "or", "an", "el", "ur", "sha", "tri", "gor", "vin", "dal", "mar", "pel", "kos", "rin", "tho"]
        let endings = ["s", "er", "ers", "ing", "land", "ville", "man", "o", "a", "ita", "ling", "heart", "fall"]
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        var rows: [CatalogRow] = []
        rows.reserveCapacity(count)
        for id in 1...count {
            let a = real[random.next(real.count)], b = real[random.next(real.count)], shape = real[random.next(real.count)]
            var title = Array(a.catalogTitle.split(separator: " ").prefix(random.next(3) + 1).map(String.init))
            title += b.catalogTitle.split(separator: " ").suffix(random.next(3)).map(String.init)
            if random.next(8) != 0 {
                let base = SearchText.words(real[random.next(real.count)].catalogTitle).filter { $0.count >= 3 }.first ?? "film"
                var word: String
                switch random.next(10) {
                case 0..<7:
                    // An invented word from a pool that grows with the catalog.
                    var key = random.next(4 * id + 1) &* 2654435761
                    word = ""
                    for _ in 0..<(3 + key % 3) { word += syllables[key % syllables.count]; key /= syllables.count }
                case 7..<9:
                    var characters = Array(base)
                    let at = random.next(characters.count)
                    switch random.next(4) {
                    case 0: characters.remove(at: at)
                    case 1: characters.insert(characters[at], at: at)
                    case 2 where at + 1 < characters.count: characters.swapAt(at, at + 1)
                    default: characters[at] = letters[random.next(letters.count)]
                    }
                    word = String(characters)
                default:
                    word = base + endings[random.next(endings.count)]
                }
                title.insert(word.prefix(1).uppercased() + word.dropFirst(), at: random.next(title.count + 1))
            }
            rows.append(CatalogRow(id: id, catalogTitle: title.joined(separator: " "), like: shape))
        }
        return rows
    }

    /// A linear congruential generator (deterministic across runs and machines).
    struct Random {
        var state: UInt64

        mutating func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int(truncatingIfNeeded: state >> 33) % max(1, bound)
        }
    }
}
