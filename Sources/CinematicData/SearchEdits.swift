/// Typos of a query word among a title's words (``SearchQuery/Missing/most``), and the edit
/// distance search uses.
extension SearchRanking {
    /// The quality and word of `plain`'s best match a typo away from `term` (see
    /// ``SearchQuery/Missing/most``): for a complete word of 4 letters or more the catalog
    /// knows (a word it lacks has its typos already, from the typo index), or a word of 3
    /// letters missing one of a 4-letter title word ("daw" for "dawn").
    static func typo(of term: SearchQuery.Term, in plain: CorpusSlice, corpus: SearchCorpus) -> (Double, UInt32)? {
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

    /// The optimal-string-alignment Damerau–Levenshtein distance between `a` and `b` (a
    /// transposition of adjacent letters is one edit), or `limit + 1` once it exceeds `limit`.
    static func distance(_ a: String, _ b: String, limit: Int) -> Int {
        distance(Array(a.unicodeScalars.map(\.value)), Array(b.unicodeScalars.map(\.value))[...], limit: limit)
    }

    /// ``distance(_:_:limit:)`` over unicode scalar values.
    static func distance<B: Collection<UInt32>>(_ s: [UInt32], _ b: B, limit: Int) -> Int {
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
