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
        /// The years of a year ("1999": 1999...1999) or decade ("80s", "1980s": 1980...1989)
        /// in a query of several words: it may match the film's year instead of a title word.
        var years: ClosedRange<Int>?
        /// A number, roman numeral, year or decade (``SearchFilters/isNumeral(_:after:isLast:)``):
        /// it may be the word missing from a title of the series the other words name.
        var isNumeral = false
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
    }

    var terms: [Term]
    /// Adjacent words joined, when the catalog has the joined word: ("goodfellas", 0, 1).
    var joined: [(word: String, id: UInt32, first: Int, second: Int)] = []
    /// The order terms are checked in: the rarest required words first, so a title that
    /// lacks one is dropped after a look or two.
    var order: [Int] = []

    /// Quality of matches by kind.
    static let exact = 1.0, prefix = 0.8, oneEdit = 0.65, twoEdits = 0.5, joinedWords = 0.95

    /// Which query words a title may lack (stopwords aside, it may always lack those).
    enum Missing: Sendable {
        /// None: every word matches (a title word, or the film's year for a year).
        case none
        /// Exactly one numeral (number, roman numeral, year or decade), every other word
        /// matching: the series the other words name ("alien 3" → the Alien films).
        case numeral
        /// The fallback when nothing else matched. A complete word of 4 letters or more that
        /// matches no title word may match one a typo away (as the typo index does for a word
        /// the catalog lacks: "forest gump" → Forrest Gump). Then at most
        /// one word may be missing, and either at least two words that are not numerals match
        /// ("shawshank redemption prison"), or the missing word is the one being typed and
        /// every other word matches exactly ("the shawshank redep"); never a title sharing a
        /// single word with the query otherwise, such as "Cast Away" for "spirited away".
        case word
    }
}

/// The documented score behind search ranking (see ``score(_:words:plainCount:coreCount:votes:year:corpus:allowingMissing:)``).
enum SearchRanking {
    /// Weights of the score's parts.
    static let matchWeight = 3.0, coverageWeight = 1.0, exactTitleBonus = 1.0, popularityWeight = 0.8
    static let yearBonus = 1.5
    /// A stopword counts this much in the match quality.
    static let stopWeight = 0.25

    /// The score of one title for `query`, or nil when the title does not match (a word that
    /// is not a stopword matches none of the title's words, nor the year; `missing` says
    /// which words may lack a match (``SearchQuery/Missing``), scoring 0: so "star trek 7"
    /// still lists Star Trek films):
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
    /// - yearMatch: 1 when the query names the film's year (or decade).
    /// Ties keep the catalog's order (most votes first).
    static func score(_ query: SearchQuery, words: ArraySlice<UInt32>, plainCount: Int, coreCount: Int, votes: Int, year: Int,
                      corpus: SearchCorpus, missing allowance: SearchQuery.Missing = .none) -> Double? {
        var weighted = 0.0, weights = 0.0
        var allExact = true
        var yearMatched = false
        var missingWords = 0, missingNumerals = 0, matchedWords = 0
        var missingIsTyped = false, inexact = 0
        var missingTerm: SearchQuery.Term?
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
            if let wanted = term.years, wanted.contains(year), best < SearchQuery.exact {
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
                if term.isNumeral { missingNumerals += 1 } else { missingWords += 1 }
                missingIsTyped = term.isPrefix
                missingTerm = term
                switch allowance {
                case .none: return nil
                case .numeral: if missingWords > 0 || missingNumerals > 1 { return nil }
                case .word: if missingWords + missingNumerals > 1 { return nil }
                }
            } else if best > 0 && !term.isStop {
                if !term.isNumeral { matchedWords += 1 }
                if best < SearchQuery.exact { inexact += 1 }
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
        if allowance == .word, missingWords == 1, let term = missingTerm,
           let (quality, word) = typo(of: term, in: plain, corpus: corpus) {
            // The one word missing is a typo of a title word ("forest" → "forrest").
            missingWords = 0
            missingIsTyped = false
            matchedWords += 1
            inexact += 1
            weighted += quality
            allExact = false
            if !used.contains(word) { covered += 1 }
        }
        switch allowance {
        case .none: break
        case .numeral: if missingNumerals != 1 { return nil }
        case .word:
            let typedOnly = missingWords + missingNumerals == 1 && missingIsTyped && inexact == 0 && matchedWords >= 1
            if matchedWords < 2 && !typedOnly { return nil }
        }
        let match = weights > 0 ? weighted / weights : 0
        // A joined word ("goodfellas" for "good fellas") covers what the query split.
        let coverage = coreCount == 0 ? 1 : min(1, Double(covered) / Double(coreCount))
        let exactTitle = allExact && covered >= coreCount ? 1.0 : 0
        return matchWeight * match + coverageWeight * coverage + exactTitleBonus * exactTitle
            + popularityWeight * log10(Double(max(0, votes)) + 1) + (yearMatched ? yearBonus : 0)
    }

    /// The quality and word of `plain`'s best match a typo away from `term` (see
    /// ``SearchQuery/Missing/word``): for a complete word of 4 letters or more the catalog
    /// knows (a word it lacks has its typos already, from the typo index).
    private static func typo(of term: SearchQuery.Term, in plain: ArraySlice<UInt32>, corpus: SearchCorpus) -> (Double, UInt32)? {
        guard term.id != nil, !term.isPrefix, !term.isStop, !term.isWhole, !term.isNumeral else { return nil }
        let edits = allowedEdits(forLength: term.scalars.count)
        guard edits > 0 else { return nil }
        var best: (Double, UInt32)?
        let letters = letterMask(term.scalars)
        for word in plain {
            let candidate = corpus.scalars(of: Int(word))
            guard candidate.count >= 4, abs(candidate.count - term.scalars.count) <= edits else { continue }
            // Each edit brings at most one letter the other word lacks (a cheap bound first).
            let other = letterMask(candidate)
            guard (letters & ~other).nonzeroBitCount <= edits, (other & ~letters).nonzeroBitCount <= edits else { continue }
            let found = distance(term.scalars, candidate, limit: edits)
            guard found <= edits else { continue }
            let quality = found == 1 ? SearchQuery.oneEdit : SearchQuery.twoEdits
            if quality > (best?.0 ?? 0) { best = (quality, word) }
        }
        return best
    }

    /// The set of a word's letters, each as bit `scalar % 64`.
    private static func letterMask<C: Collection<UInt32>>(_ scalars: C) -> UInt64 {
        var mask: UInt64 = 0
        for scalar in scalars { mask |= 1 << UInt64(scalar & 63) }
        return mask
    }

    /// A film found by its period or genre alone, in a query made only of years, decades and
    /// genres ("1994", "90s comedy"), counts as a match of quality 0.9, with no coverage:
    ///
    ///     score = 3 × 0.9 + 0.8 × log10(votes + 1)
    ///
    /// so a title holding the query's words ranks by its own score among them: a title that is
    /// the number ("1941", 5,536 votes; "1984", 304 votes) comes before the year's films with
    /// up to 750 times its votes (1 + 1 of coverage and exact title, + 0.3: 2.3 points, 10^(2.3
    /// / 0.8)), a title starting with it ("2001: A Space Odyssey", a third of its words) before
    /// those with up to 6 times its votes.
    static func periodScore(votes: Int) -> Double {
        matchWeight * periodMatch + popularityWeight * log10(Double(max(0, votes)) + 1)
    }

    /// The match quality of a film found by its period or genre alone.
    static let periodMatch = 0.9

    /// The optimal-string-alignment Damerau–Levenshtein distance between `a` and `b` (a
    /// transposition of adjacent letters is one edit), or `limit + 1` once it exceeds `limit`.
    static func distance(_ a: String, _ b: String, limit: Int) -> Int {
        distance(Array(a.unicodeScalars.map(\.value)), Array(b.unicodeScalars.map(\.value))[...], limit: limit)
    }

    /// ``distance(_:_:limit:)`` over unicode scalar values.
    static func distance(_ s: [UInt32], _ b: ArraySlice<UInt32>, limit: Int) -> Int {
        let t = Array(b)
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
