#if canImport(Glibc)
import Glibc
#endif

/// What a search query asks for: its words, each with the catalog words it may match and how
/// well, and a year when it names one ("matrix 1999").
struct SearchQuery: Sendable {
    /// One query word and the catalog words it may match.
    struct Term: Sendable {
        let text: String
        /// Catalog word → match quality (1 exact or numeral, 0.8 prefix, 0.65 one edit,
        /// 0.5 two edits).
        var alternatives: [String: Double]
        /// A stopword ("the", "of"): it may be missing from a title.
        let isStop: Bool
        /// A year (1890...2030) in a query of several words: it may match the film's year
        /// instead of a title word.
        let year: Int?
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
    }

    var terms: [Term]
    /// Adjacent words joined, when the catalog has the joined word: ("goodfellas", 0, 1).
    var joined: [(word: String, id: UInt32, first: Int, second: Int)] = []
    /// The order terms are checked in: the rarest required words first, so a title that
    /// lacks one is dropped after a look or two.
    var order: [Int] = []

    /// Quality of matches by kind.
    static let exact = 1.0, prefix = 0.8, oneEdit = 0.65, twoEdits = 0.5, joinedWords = 0.95
}

/// The documented score behind search ranking (see ``score(_:words:plainCount:coreCount:votes:year:corpus:allowingMissing:)``).
enum SearchRanking {
    /// Weights of the score's parts.
    static let matchWeight = 3.0, coverageWeight = 1.0, exactTitleBonus = 1.0, popularityWeight = 0.8
    static let yearBonus = 1.5
    /// A stopword counts this much in the match quality.
    static let stopWeight = 0.25

    /// The score of one title for `query`, or nil when the title does not match (a word that
    /// is not a stopword matches none of the title's words, nor the year; with
    /// `allowingMissing`, up to that many may, scoring 0: the fallback when nothing matches
    /// every word, so "star trek 2" still lists Star Trek films):
    ///
    ///     score = 3 × match + 1 × coverage + 1 × exactTitle + 0.8 × log10(votes + 1) + 1.5 × yearMatch
    ///
    /// - match: the mean quality of the query's words (stopwords weigh 0.25): 1 exact or
    ///   numeral ("2" for "II"), 0.95 joined ("good fellas"), 0.8 prefix of the word being
    ///   typed, 0.65 one edit, 0.5 two edits (Damerau–Levenshtein).
    /// - coverage: the share of the title's words (stopwords aside, `coreCount` of them) the
    ///   query matched, so "alien" prefers "Alien" to "Alien Nation".
    /// - exactTitle: 1 when every query word matched exactly and covers the whole title.
    /// - popularity: log10 of the votes, so a famous prefix match ("star" → Star Wars,
    ///   134,640 votes) outranks an obscure exact title ("Star!", 290 votes: 2.7 points of
    ///   popularity against 2 of exactness and coverage), while among comparable films the
    ///   better match wins.
    /// - yearMatch: 1 when the query names the film's year.
    /// Ties keep the catalog's order (most votes first).
    static func score(_ query: SearchQuery, words: ArraySlice<UInt32>, plainCount: Int, coreCount: Int, votes: Int, year: Int,
                      corpus: SearchCorpus, allowingMissing allowed: Int = 0) -> Double? {
        var weighted = 0.0, weights = 0.0
        var allExact = true
        var yearMatched = false
        var missing = 0
        var covered = 0
        var used: [UInt32] = []
        // The title's plain words come first, then the other forms it is found by.
        let plain = words.prefix(plainCount)
        for index in query.order.isEmpty ? Array(query.terms.indices) : query.order {
            let term = query.terms[index]
            var best = 0.0
            var bestWord: UInt32?
            for word in words {
                if let quality = term.lookup[word], quality > best {
                    best = quality
                    bestWord = word
                } else if term.isPrefix, best < SearchQuery.prefix, term.prefixIDs.contains(Int(word)), word != term.id {
                    best = SearchQuery.prefix
                    bestWord = word
                }
            }
            if let wanted = term.year, wanted == year, best < SearchQuery.exact {
                best = SearchQuery.exact
                bestWord = nil
                yearMatched = true
            }
            if best < SearchQuery.joinedWords, let pair = query.joined.first(where: { pair in
                (pair.first == term.index || pair.second == term.index) && words.contains(pair.id)
            }) {
                best = SearchQuery.joinedWords
                bestWord = pair.id
            }
            if best == 0 && !term.isStop {
                missing += 1
                if missing > allowed { return nil }
            }
            let weight = term.isStop ? stopWeight : 1.0
            weighted += weight * best
            weights += weight
            if best < SearchQuery.exact && !term.isStop { allExact = false }
            if let word = bestWord, !term.isStop, !used.contains(word) {
                used.append(word)
                // A joined form ("ghostbusters" for "Ghost Busters") covers both words.
                let joinsTwo = !plain.contains(word) && zip(plain, plain.dropFirst()).contains { corpus.joins($0, $1, into: word) }
                covered += joinsTwo ? 2 : 1
            }
        }
        let match = weights > 0 ? weighted / weights : 0
        // A joined word ("goodfellas" for "good fellas") covers what the query split.
        let coverage = coreCount == 0 ? 1 : min(1, Double(covered) / Double(coreCount))
        let exactTitle = allExact && covered >= coreCount ? 1.0 : 0
        return matchWeight * match + coverageWeight * coverage + exactTitleBonus * exactTitle
            + popularityWeight * log10(Double(max(0, votes)) + 1) + (yearMatched ? yearBonus : 0)
    }

    /// The optimal-string-alignment Damerau–Levenshtein distance between `a` and `b` (a
    /// transposition of adjacent letters is one edit), or `limit + 1` once it exceeds `limit`.
    static func distance(_ a: String, _ b: String, limit: Int) -> Int {
        let s = Array(a.unicodeScalars), t = Array(b.unicodeScalars)
        if abs(s.count - t.count) > limit { return limit + 1 }
        var previous2 = [Int](repeating: 0, count: t.count + 1)
        var previous = Array(0...t.count)
        var current = [Int](repeating: 0, count: t.count + 1)
        for i in 1...max(1, s.count) where !s.isEmpty {
            current[0] = i
            var rowMinimum = current[0]
            for j in 1...max(1, t.count) where !t.isEmpty {
                let cost = s[i - 1] == t[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, s[i - 1] == t[j - 2], s[i - 2] == t[j - 1] { value = min(value, previous2[j - 2] + 1) }
                current[j] = value
                rowMinimum = min(rowMinimum, value)
            }
            if rowMinimum > limit { return limit + 1 }
            (previous2, previous, current) = (previous, current, previous2)
        }
        if s.isEmpty { return t.count }
        return previous[t.count]
    }

    /// How many edits a word of `length` letters may be from what was typed: 0 below 4
    /// letters, 1 from 4, 2 from 8.
    static func allowedEdits(forLength length: Int) -> Int { length >= 8 ? 2 : length >= 4 ? 1 : 0 }
}
