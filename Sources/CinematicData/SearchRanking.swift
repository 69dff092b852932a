#if canImport(Glibc)
import Glibc
#endif

/// The documented score behind search ranking (see ``score(_:_:corpus:missing:)``).
enum SearchRanking {
    /// Weights of the score's parts.
    static let matchWeight = 3.0, coverageWeight = 1.0, exactTitleBonus = 1.0, popularityWeight = 0.8
    static let yearBonus = 1.5
    /// When the title holds the query's words in the query's order, side by side (one word
    /// between at most): "the final friday" prefers "... The Final Friday" to "Friday the
    /// 13th: The Final Chapter".
    static let orderBonus = 0.25
    /// A stopword counts this much in the match quality.
    static let stopWeight = 0.25
    /// Share of the query (by word weight) a title must cover when nothing matches every word.
    static let mostShare = 0.5

    /// What the score reads of one title.
    struct Title {
        /// Its words as ids: plain words first (`plainCount`), then the other forms it is found by.
        let words: ArraySlice<UInt32>
        let plainCount: Int
        /// Plain words that are not stopwords.
        let coreCount: Int
        let votes: Int
        let year: Int
        /// Its genres' bits (``SearchFilters/listBits``).
        let genres: UInt64
        /// Where its parts begin (``TitleSegments``).
        let segments: UInt32
    }

    /// The score of one title for `query`, or nil when the title does not match (a word that
    /// is not a stopword matches none of the title's words, nor the year or genre; `missing`
    /// says which words may lack a match (``SearchQuery/Missing``), scoring 0: so "star trek 7"
    /// still lists Star Trek films):
    ///
    ///     score = 3 × match + 1 × coverage + 1 × exactTitle + 0.8 × log10(votes + 1) + 1.5 × yearMatch
    ///
    /// - match: the mean quality of the query's words (stopwords weigh 0.25; when nothing
    ///   matches every word, each word weighs its ``SearchQuery/Term/weight``, so the title
    ///   covering more of the query comes first): 1 exact or numeral ("2" for "II"), 0.97
    ///   another form ("doctor" for "Dr."), 0.95 joined ("good fellas"), 0.8 prefix of the
    ///   word being typed, 0.65 one edit, 0.5 two edits (Damerau–Levenshtein).
    /// - coverage: the share of the title's words (stopwords aside, `coreCount` of them) the
    ///   query matched, so "alien" prefers "Alien" to "Alien Nation".
    /// - exactTitle: 1 when every query word matched exactly (or as another form of itself,
    ///   or is a medium word the title lacks) and covers the whole title.
    /// - popularity: log10 of the votes, so a famous prefix match ("star" → Star Wars,
    ///   134,640 votes) outranks an obscure exact title ("Star!", 290 votes: 2.7 points of
    ///   popularity against 2 of exactness and coverage), while among comparable films the
    ///   better match wins.
    /// - yearMatch: 1 when the query names the film's year (or decade). A genre word matching
    ///   the film's genre counts as matched, with no bonus.
    /// Ties keep the catalog's order (most votes first).
    static func score(_ query: SearchQuery, _ title: Title, corpus: SearchCorpus,
                      missing allowance: SearchQuery.Missing = .none) -> Double? {
        var weighted = 0.0, weights = 0.0
        var allExact = true, yearMatched = false
        var missingNumerals = 0, inexact = 0
        var missing: [Int] = []
        var coveredWeight = 0.0, saysSomething = false
        // When most words will do: the query's weight, what is left to look at, and what the
        // missing words could still bring as typos (a title that cannot reach the share stops).
        var totalWeight = 0.0
        if allowance == .most { for term in query.terms { totalWeight += term.weight } }
        var unseenWeight = totalWeight, missedWeight = 0.0
        var covered = 0
        var used: [UInt32] = []
        var positions: [(term: Int, position: Int)] = []
        // The title's plain words come first, then the other forms it is found by.
        let plain = title.words.prefix(title.plainCount)
        let words = title.words
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
            if best < SearchQuery.exact, let wanted = term.years, wanted.contains(title.year) {
                best = SearchQuery.exact
                bestWord = nil
                yearMatched = true
            }
            if best < SearchQuery.exact, term.genres & title.genres != 0 {
                best = SearchQuery.exact
                bestWord = nil
            }
            if best < SearchQuery.joinedWords, let pair = query.joined.first(where: { pair in
                (pair.first == term.index || pair.second == term.index) && words.contains(pair.id)
            }) {
                best = SearchQuery.joinedWords
                bestWord = pair.id
            }
            let weight = allowance == .most ? term.weight : term.isStop ? stopWeight : 1.0
            if best == 0 && !term.isStop {
                switch allowance {
                case .none: return nil
                case .numeral:
                    if term.isNumeral { missingNumerals += 1 } else if !term.isMarker { return nil }
                    if missingNumerals > 1 { return nil }
                case .most:
                    missing.append(index)
                    missedWeight += term.weight
                    unseenWeight -= term.weight
                    let typedOnly = missing.count == 1 && term.isPrefix
                    let rescue = missing.count == 1 ? SearchQuery.oneEdit * missedWeight : 0
                    if !typedOnly && coveredWeight + unseenWeight + rescue < mostShare * totalWeight {
                        return nil
                    }
                }
            } else if best > 0 {
                coveredWeight += term.weight * best
                unseenWeight -= term.weight
                // A title word that names the film (not a stopword, medium word or number).
                if bestWord != nil && !term.isStop && !term.isMedium && !term.isNumeral { saysSomething = true }
                if best < SearchQuery.form && !term.isStop { inexact += 1 }
            }
            weighted += weight * best
            weights += weight
            if best < SearchQuery.form && !term.isStop && !(term.isMedium && best == 0) { allExact = false }
            if let word = bestWord, !term.isStop, let position = plain.firstIndex(of: word) {
                positions.append((term.index, position))
            }
            if let word = bestWord, !term.isStop, !used.contains(word) {
                used.append(word)
                // A joined form ("ghostbusters" for "Ghost Busters") covers both words.
                let joinsTwo = !plain.contains(word) && zip(plain, plain.dropFirst()).contains { corpus.joins($0, $1, into: word) }
                covered += joinsTwo ? 2 : 1
            }
        }
        switch allowance {
        case .none: break
        case .numeral: if missingNumerals != 1 { return nil }
        case .most:
            // The one missing word may be a typo of a title word ("forest" → "forrest").
            for index in missing where missing.count == 1 {
                let term = query.terms[index]
                guard let (quality, word) = typo(of: term, in: plain, corpus: corpus) else { continue }
                missing.removeAll { $0 == index }
                weighted += term.weight * quality
                coveredWeight += term.weight * quality
                inexact += 1
                saysSomething = true
                if !used.contains(word) { covered += 1 }
            }
            let typedOnly = missing.count == 1 && query.terms[missing[0]].isPrefix && inexact == 0 && saysSomething
            guard typedOnly || (saysSomething && coveredWeight >= mostShare * totalWeight) else { return nil }
        }
        let match = weights > 0 ? weighted / weights : 0
        // A joined word ("goodfellas" for "good fellas") covers what the query split; a
        // whole part of the title ("outfoxed" of "Outfoxed: Rupert Murdoch's ...") covers it.
        let whole = covered >= title.coreCount || query.partsCover && coversPart(title, plain: plain, matched: positions.map(\.position), corpus: corpus)
        let coverage = title.coreCount == 0 || whole ? 1 : min(1, Double(covered) / Double(title.coreCount))
        let exactTitle = allExact && whole ? 1.0 : 0
        return matchWeight * match + coverageWeight * coverage + exactTitleBonus * exactTitle
            + popularityWeight * log10(Double(max(0, title.votes)) + 1) + (yearMatched ? yearBonus : 0)
            + (inOrder(positions) ? orderBonus : 0)
    }

    /// True when the query matched every word of one of the title's parts (stopwords aside),
    /// and only words of that part ("mission impossible" is no part of "Mission: Impossible II").
    private static func coversPart(_ title: Title, plain: ArraySlice<UInt32>, matched: [Int], corpus: SearchCorpus) -> Bool {
        guard title.segments != 0, !matched.isEmpty else { return false }
        var start = plain.startIndex
        while start < plain.endIndex {
            var end = start + 1
            while end < plain.endIndex, end - plain.startIndex >= 32 || title.segments & (1 << UInt32(end - plain.startIndex)) == 0 { end += 1 }
            let part = start..<end
            if matched.allSatisfy({ part.contains($0) }),
               part.allSatisfy({ matched.contains($0) || SearchText.stopwords.contains(corpus.words[Int(plain[$0])]) }) {
                return true
            }
            start = end
        }
        return false
    }

    /// True when two words or more matched title words in the query's order, each at most
    /// one word after the one before.
    private static func inOrder(_ positions: [(term: Int, position: Int)]) -> Bool {
        guard positions.count >= 2 else { return false }
        let sorted = positions.sorted { $0.term < $1.term }
        return zip(sorted, sorted.dropFirst()).allSatisfy { $1.position > $0.position && $1.position - $0.position <= 2 }
    }

    /// The quality and word of `plain`'s best match a typo away from `term` (see
    /// ``SearchQuery/Missing/most``): for a complete word of 4 letters or more the catalog
    /// knows (a word it lacks has its typos already, from the typo index), or a word of 3
    /// letters missing one of a 4-letter title word ("daw" for "dawn").
    private static func typo(of term: SearchQuery.Term, in plain: ArraySlice<UInt32>, corpus: SearchCorpus) -> (Double, UInt32)? {
        guard !term.isPrefix, !term.isStop, !term.isWhole, !term.isNumeral, !term.isMedium else { return nil }
        if term.scalars.count == 3 {
            for word in plain {
                let candidate = corpus.scalars(of: Int(word))
                if candidate.count == 4, TypoWalk.commonSubsequence(term.scalars, candidate) == 3 { return (SearchQuery.oneEdit, word) }
            }
            return nil
        }
        guard term.id != nil else { return nil }
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
