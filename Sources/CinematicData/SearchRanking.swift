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
    /// ... or, when the query holds the whole title (two words of it or more: "star wars a new
    /// hope" holds Star Wars), this share.
    static let wholeTitleShare = 1.0 / 3

    /// What the score reads of one title.
    struct Title {
        /// Its words as ids: plain words first (`plainCount`), then the other forms it is found by.
        let words: CorpusSlice
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
        // The terms are read in place: a title is scored without copying each term (and
        // retaining its tables) per title.
        query.terms.withUnsafeBufferPointer { terms -> Double? in
            var weighted = 0.0, weights = 0.0
            var allExact = true, yearMatched = false
            var missingNumerals = 0, inexact = 0
            // When most words will do: how many words are missing, and the first of them.
            var missingCount = 0, firstMissing = -1
            var coveredWeight = 0.0, saysSomething = false
            // When most words will do: the query's weight, what is left to look at, and what the
            // missing words could still bring as typos (a title that cannot reach the share stops).
            var totalWeight = 0.0
            if allowance == .most { for term in query.terms { totalWeight += term.weight } }
            var unseenWeight = totalWeight, missedWeight = 0.0
            var covered = 0
            // The title words matched so far (at most one per query word: no allocation).
            var used = InlineArray<12, UInt32>(repeating: 0), usedCount = 0
            func isUsed(_ word: UInt32) -> Bool {
                for index in 0..<usedCount where used[index] == word { return true }
                return false
            }
            // Where each query word (by its index) matched a plain title word, -1 when it did not.
            var positions = InlineArray<12, Int16>(repeating: -1)
            // The title's plain words come first, then the other forms it is found by.
            let plain = title.words.prefix(title.plainCount)
            for index in query.order.isEmpty ? Array(query.terms.indices) : query.order {
                let term = terms.baseAddress! + index
                let (best, bestWord, isYear) = match(term, title, joined: query.joined)
                if isYear { yearMatched = true }
                let weight = allowance == .most ? term.pointee.weight : term.pointee.isStop ? stopWeight : 1.0
                if best == 0 && !term.pointee.isStop {
                    switch allowance {
                    case .none: return nil
                    case .numeral:
                        if term.pointee.isNumeral { missingNumerals += 1 } else if !term.pointee.isMarker { return nil }
                        if missingNumerals > 1 { return nil }
                    case .most:
                        missingCount += 1
                        if missingCount == 1 { firstMissing = index }
                        missedWeight += term.pointee.weight
                        unseenWeight -= term.pointee.weight
                        let typedOnly = missingCount == 1 && term.pointee.isPrefix
                        let rescue = missingCount == 1 ? SearchQuery.oneEdit * missedWeight : 0
                        if !typedOnly && coveredWeight + unseenWeight + rescue < wholeTitleShare * totalWeight {
                            return nil
                        }
                    }
                } else if best > 0 {
                    coveredWeight += term.pointee.weight * best
                    unseenWeight -= term.pointee.weight
                    // A title word that names the film (not a stopword, medium word or number).
                    if bestWord != nil && !term.pointee.isStop && !term.pointee.isMedium && !term.pointee.isNumeral { saysSomething = true }
                    if best < SearchQuery.form && !term.pointee.isStop { inexact += 1 }
                }
                weighted += weight * best
                weights += weight
                if best < SearchQuery.form && !term.pointee.isStop && !(term.pointee.isMedium && best == 0) { allExact = false }
                if let word = bestWord, !term.pointee.isStop, term.pointee.index < 12, let position = plain.firstIndex(of: word) {
                    positions[term.pointee.index] = Int16(clamping: position - plain.startIndex)
                }
                if let word = bestWord, !term.pointee.isStop, !isUsed(word), usedCount < 12 {
                    used[usedCount] = word
                    usedCount += 1
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
                if missingCount == 1, let (quality, word) = typo(of: query.terms[firstMissing], in: plain, corpus: corpus) {
                    let term = query.terms[firstMissing]
                    missingCount = 0
                    weighted += term.weight * quality
                    coveredWeight += term.weight * quality
                    inexact += 1
                    saysSomething = true
                    if !isUsed(word) { covered += 1 }
                }
                let typedOnly = missingCount == 1 && query.terms[firstMissing].isPrefix && inexact == 0 && saysSomething
                let holdsTitle = covered >= max(2, title.coreCount) && coveredWeight >= wholeTitleShare * totalWeight
                guard typedOnly || (saysSomething && (coveredWeight >= mostShare * totalWeight || holdsTitle)) else { return nil }
            }
            let match = weights > 0 ? weighted / weights : 0
            // A joined word ("goodfellas" for "good fellas") covers what the query split; a
            // whole part of the title ("outfoxed" of "Outfoxed: Rupert Murdoch's ...") covers it.
            let whole = covered >= title.coreCount || query.partsCover && coversPart(title, plain: plain, matched: used, count: usedCount, corpus: corpus)
            let coverage = title.coreCount == 0 || whole ? 1 : min(1, Double(covered) / Double(title.coreCount))
            let exactTitle = allExact && whole ? 1.0 : 0
            return matchWeight * match + coverageWeight * coverage + exactTitleBonus * exactTitle
                + popularityWeight * log10(Double(max(0, title.votes)) + 1) + (yearMatched ? yearBonus : 0)
                + (inOrder(positions, count: query.terms.count) ? orderBonus : 0)
        }
    }

    /// True when the query matched every word of one of the title's parts (stopwords aside),
    /// and only words of that part ("mission impossible" is no part of "Mission: Impossible II";
    /// "seven samurai" is the part "(Seven Samurai)" of "Shichinin no samurai (Seven Samurai)").
    /// `matched`: the title words the query's words matched (the first `count`); those that are
    /// plain words must all lie in the part, so a word the title repeats ("samurai") counts
    /// in whichever part holds the others.
    private static func coversPart(_ title: Title, plain: CorpusSlice, matched: InlineArray<12, UInt32>, count: Int,
                                   corpus: SearchCorpus) -> Bool {
        guard title.segments != 0 else { return false }
        func isMatched(_ word: UInt32) -> Bool {
            for index in 0..<count where matched[index] == word { return true }
            return false
        }
        var start = 0
        while start < min(plain.count, 32) {
            var end = start + 1
            while end < plain.count && (end >= 32 || title.segments & (1 << UInt32(end)) == 0) { end += 1 }
            let part = plain[(plain.startIndex + start)..<(plain.startIndex + end)]
            var holdsOne = false, holdsAll = true
            for index in 0..<count where plain.contains(matched[index]) {
                if part.contains(matched[index]) { holdsOne = true } else { holdsAll = false }
            }
            if holdsOne && holdsAll && part.allSatisfy({ corpus.isStop($0) || isMatched($0) }) { return true }
            start = end
        }
        return false
    }

    /// True when two words or more matched title words in the query's order, each at most
    /// one word after the one before.
    private static func inOrder(_ positions: InlineArray<12, Int16>, count: Int) -> Bool {
        var previous: Int16 = -1, matched = 0
        for index in 0..<min(count, 12) where positions[index] >= 0 {
            let position = positions[index]
            if matched > 0 && (position <= previous || position - previous > 2) { return false }
            previous = position
            matched += 1
        }
        return matched >= 2
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
}
