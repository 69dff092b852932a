#if canImport(Glibc)
import Glibc
#endif

/// Reading a query's words into a ``SearchQuery``: the catalog words each may match.
extension SearchEngine {
    /// Two edits in a word of 5 to 7 letters are tried only when one edit finds nothing, only
    /// among words of its first letter; for a query of that word alone, they are kept only
    /// when at most this many words are that close ("the match unique"); with other words,
    /// those narrow the titles down.
    static let shortTwoEditMatches = 1

    /// Each word with the catalog words it may match; the words at `prefixes` also match the
    /// title words they begin (the word being typed), the words at `whole` only themselves.
    func read(_ words: [String], prefixes: Set<Int>, whole: Set<Int>) -> SearchQuery {
        var terms: [SearchQuery.Term] = []
        let namesYear = words.count > 1 && words.contains { $0.count == 4 && Int($0).map { (1890...2030).contains($0) } == true }
        for (index, word) in words.enumerated() {
            let isLast = index == words.count - 1
            let isPrefix = prefixes.contains(index)
            let previous = index > 0 ? words[index - 1] : nil
            let info = self.info(of: word, after: previous, isLast: isLast)
            var alternatives: [String: Double] = [:]
            let id = info.id
            if id != nil { alternatives[word] = SearchQuery.exact }
            if let number = info.roman { alternatives[number] = SearchQuery.exact }
            // Other forms of the word: "doctor" for "dr", "3" and "three" for "iii", "fifth" for "5th".
            if !whole.contains(index) {
                for form in info.forms { alternatives[form] = max(alternatives[form] ?? 0, SearchQuery.form) }
            }
            let scalars = info.scalars
            var prefixed = false
            var prefixIDs = 0..<0
            if isPrefix {
                let range = corpus.range(ofPrefix: scalars)
                // The words it begins, not itself (the first of the range when it is a word).
                prefixIDs = (id != nil ? range.lowerBound + 1 : range.lowerBound)..<range.upperBound
                // One letter says little: its 20 most frequent words; longer prefixes 40.
                let expansions = word.count == 1 ? Self.prefixWords / 2 : Self.prefixWords
                for candidate in corpus.topWords.top(expansions, in: prefixIDs) {
                    let expansion = self.word(candidate)
                    alternatives[expansion] = max(alternatives[expansion] ?? 0, SearchQuery.prefix)
                    prefixed = true
                }
            }
            // Typos only for a word the catalog does not know (nor continues with more than a
            // few words, while typing): a known word is taken as meant, which keeps the lookups
            // few. A word being typed that begins only a few catalog words ("psyco": only
            // "psycosissimo") may be a typo too: both kinds of match compete in the one score
            // (a prefix 0.8, one edit 0.65), so a far more popular film with the word one edit
            // away comes first (Psycho, 53,962 votes, over Psycosissimo, 7). With a year in the
            // query the film is a specific one, so spellings near a known word count too
            // ("solaris 1972" is "Solyaris").
            let edits = SearchRanking.allowedEdits(forLength: word.count)
            let fewContinue = !prefixed || prefixIDs.count < Self.fewPrefixWords
            if edits > 0 && (id == nil || namesYear) && fewContinue && !word.allSatisfy(\.isNumber) && !whole.contains(index) {
                for (candidate, quality) in typoAlternatives(of: word, scalars: scalars, edits: edits, alone: words.count == 1) {
                    alternatives[candidate] = max(alternatives[candidate] ?? 0, quality)
                }
            }
            var term = SearchQuery.Term(text: word, alternatives: alternatives, isStop: info.isStop)
            term.years = words.count > 1 ? SearchFilters.period(of: word) : nil
            term.genres = words.count > 1 && !isPrefix ? info.genres : 0
            term.isNumeral = SearchFilters.isNumeral(word, after: previous, isLast: isLast)
                || (isLast && word != "one" && SearchWordForms.number(word) != nil)
            term.isMarker = index == words.count - 2 && info.isMarker
                && SearchWordForms.number(words[words.count - 1], after: word) != nil
            term.isMedium = info.isMedium
            term.weight = info.weight
            term.isPrefix = isPrefix
            term.index = index
            term.lookup = Dictionary(uniqueKeysWithValues: alternatives.compactMap { entry in self.id(of: entry.key).map { ($0, entry.value) } })
            term.prefixIDs = prefixIDs
            term.id = id
            term.scalars = scalars
            term.isWhole = whole.contains(index)
            terms.append(term)
        }
        var query = SearchQuery(terms: terms)
        for index in words.indices.dropLast() {
            let joined = words[index] + words[index + 1]
            if let id = self.id(of: joined) { query.joined.append((joined, id, index, index + 1)) }
        }
        return query
    }

    /// What reading a word needs that does not depend on the rest of the query (its id,
    /// other forms, kind, weight), kept for recent words: a word typed earlier in the query is
    /// read again at every keystroke after it.
    struct WordInfo {
        let id: UInt32?
        let scalars: [UInt32]
        /// Its roman numeral's number, when the catalog has it ("2" for "ii").
        let roman: String?
        /// Its other forms the catalog has (``SearchWordForms/alternatives(of:after:isLast:)``).
        let forms: [String]
        let isStop, isMedium, isMarker: Bool
        let genres: UInt64
        /// ``SearchQuery/Term/weight``.
        let weight: Double
    }

    /// `word`'s ``WordInfo`` (from the cache, except for "i", "v" and "x", whose reading depends
    /// on the word before).
    func info(of word: String, after previous: String?, isLast: Bool) -> WordInfo {
        let contextual = word == "i" || word == "v" || word == "x"
        if !contextual, let cached = wordInfo[word] { return cached }
        let id = self.id(of: word)
        let isStop = SearchText.stopwords.contains(word), isMedium = SearchWordForms.medium.contains(word)
        let rarity = log(Double(corpus.count + 1) / Double((id.map { corpus.frequency($0) } ?? 0) + 1))
        let roman = SearchText.romanValue(word).map(String.init).flatMap { self.id(of: $0) != nil ? $0 : nil }
        let info = WordInfo(
            id: id, scalars: Array(word.unicodeScalars.map(\.value)), roman: roman,
            forms: SearchWordForms.alternatives(of: word, after: previous, isLast: isLast).filter { self.id(of: $0) != nil },
            isStop: isStop, isMedium: isMedium, isMarker: SearchWordForms.seriesMarkers.contains(word),
            genres: filters.genreBits[word] ?? 0, weight: rarity * (isStop || isMedium ? SearchRanking.stopWeight : 1))
        if !contextual {
            if wordInfo.count >= Self.cachedTypos { wordInfo.removeAll(keepingCapacity: true) }
            wordInfo[word] = info
        }
        return info
    }

    /// The typo index's words for `word` (``TypoWalk/wordsKeepingStart(near:limit:in:)``: a
    /// cost of one first letter's words; two edits keep the first letter): those within
    /// `edits` edits that the typo index holds, and that deleting letters from each meets (up to `edits` from the
    /// query word, up to the word's own allowance from it: what the former deletion index
    /// matched), with their match quality. When some are one edit away, only those. A word
    /// of 5 to 7 letters with none one edit away may be two edits from a word of its first
    /// letter, when that word is the only one (``shortTwoEditMatches``).
    func typoAlternatives(of word: String, scalars: [UInt32], edits: Int, alone: Bool) -> [(word: String, quality: Double)] {
        let found: [(word: String, quality: Double)]
        if let cached = typos[word] {
            found = cached
        } else {
            var near = typoWords(near: scalars, edits: edits, own: nil)
            if near.contains(where: { $0.distance == 1 }) { near.removeAll { $0.distance > 1 } }
            if near.isEmpty && edits == 1 && scalars.count >= 5 {
                near = typoWords(near: scalars, edits: 2, own: 2, in: corpus.range(ofPrefix: [scalars[0]]))
            }
            found = near.map { (self.word($0.id), $0.distance == 1 ? SearchQuery.oneEdit : SearchQuery.twoEdits) }
            if typos.count >= Self.cachedTypos { typos.removeAll(keepingCapacity: true) }
            typos[word] = found
        }
        // Two edits in a short word alone: only a unique match.
        if alone && edits == 1 && found.count > Self.shortTwoEditMatches && found.contains(where: { $0.quality < SearchQuery.oneEdit }) {
            return []
        }
        return found
    }

    /// The typo-index words of `range` within `edits` of `scalars` that deleting letters meets
    /// (at most `edits` from the query word; from the word, at most `own`, or its own
    /// allowance when nil).
    private func typoWords(near scalars: [UInt32], edits: Int, own: Int?, in range: Range<Int>? = nil) -> [(id: Int, distance: Int)] {
        // The whole vocabulary: its first letter's words walked, other first letters looked up.
        let near = range.map { TypoWalk.words(near: scalars, limit: edits, in: corpus, range: $0) }
            ?? TypoWalk.wordsKeepingStart(near: scalars, limit: edits, in: corpus, letters: firstLetters)
        return near.filter { id, _ in
            guard corpus.flags[id] & SearchCorpus.typoFlag != 0 else { return false }
            let candidate = corpus.scalars(of: id)
            let common = TypoWalk.commonSubsequence(scalars, candidate)
            let allowance = own ?? SearchRanking.allowedEdits(forLength: corpus.word(id).count)
            return candidate.count - common <= allowance && scalars.count - common <= edits
        }
    }
}
