import CinematicDomain

/// Runs searches against the in-memory ``SearchCorpus``: reads the query into a
/// ``SearchQuery`` (exact, prefix, typo and joined words), gathers candidates from postings,
/// ranks them (``SearchRanking``), and keeps the ranked lists of recent queries so that the
/// next page of a search costs a slice, whatever its depth. No SQL: a keystroke reads arrays.
/// Used only inside the catalog's lock.
final class SearchEngine {
    let corpus: SearchCorpus
    /// A query's ranked list, and whether it holds every match (or was cut at `limit` postings
    /// per word, to be read further when a deeper page is asked for).
    private struct Ranked {
        var ranks: [Int]
        var limit: Int
        var isComplete: Bool
    }

    private var recent: [(key: String, ranked: Ranked)] = []
    /// Typo lookups of recent words (a word typed earlier in the query is read again at
    /// every keystroke after it), at most `cachedTypos`.
    private var typos: [String: [(word: String, quality: Double)]] = [:]

    /// Most words a query is read for (longer text is cut: work per query is bounded).
    static let maximumWords = 12
    /// Candidates read per matching word, most popular first.
    static let postingsPerWord = 400
    /// Prefix expansions of the word being typed, most frequent first.
    static let prefixWords = 40
    /// Candidates read per prefix or typo expansion (an exact word reads `postingsPerWord`).
    static let postingsPerExpansion = 20
    /// A word being typed of up to this many letters draws its candidates from the
    /// `titlesPerPrefix` most popular titles with a word starting so.
    static let titlePrefixLength = 3
    static let titlesPerPrefix = 200
    /// Ranked lists kept for paging.
    static let cachedQueries = 32
    /// Typo lookups kept.
    static let cachedTypos = 256

    /// The catalog's genre words, for queries made of periods and genres.
    let filters: SearchFilters

    init(_ corpus: SearchCorpus) {
        self.corpus = corpus
        filters = SearchFilters(corpus.display)
    }

    /// The ranks of the films matching `text`, best first: at least `needed` of them when
    /// there are that many. The list is kept for recent queries, so the next page is a slice;
    /// a page deeper than the list reads further (4 times as many postings per word), so the
    /// cost of paging stays flat.
    func ranks(for text: String, needed: Int = MovieCatalog.pageSize) -> [Int] {
        let read = Array(SearchText.queryWords(text).prefix(Self.maximumWords))
        let words = read.map(\.word)
        guard !words.isEmpty else { return [] }
        let typing = text.last.map { $0.isLetter || $0.isNumber } ?? false
        // A word that lost most of its letters to folding ("üñí" → "uni") is matched only whole.
        let whole = Set(read.indices.filter { read[$0].isMostlyFolded })
        let key = read.map { $0.isMostlyFolded ? $0.word + "\u{1}" : $0.word }.joined(separator: " ") + (typing ? "…" : "")
        var previous: Ranked?
        if let hit = recent.firstIndex(where: { $0.key == key }) {
            let entry = recent.remove(at: hit)
            recent.append(entry)
            if entry.ranked.isComplete || entry.ranked.ranks.count >= needed { return entry.ranked.ranks }
            previous = entry.ranked
            recent.removeLast()
        }
        let limit = previous.map { max($0.limit * 4, needed * 2) } ?? Self.postingsPerWord
        let ranked = search(words, typing: typing, whole: whole, limit: limit, needed: needed)
        recent.append((key, ranked))
        if recent.count > Self.cachedQueries { recent.removeFirst() }
        return ranked.ranks
    }

    /// The ranked matches of a query's words (see ``ranks(for:needed:)`` and docs/catalog-index.md):
    ///
    /// 1. A query made only of years, decades and genres ("1994", "90s comedy", "comedy 1994";
    ///    ``SearchFilters``): the films of that period and genre, most popular first, among the
    ///    titles holding every word as title words, each by its score
    ///    (``SearchRanking/periodScore(votes:)``): "1941" and "1984" list those titles first,
    ///    "2001" lists 2001: A Space Odyssey first.
    /// 2. Otherwise the titles matching every word; then, when the query holds a numeral (a
    ///    number, roman numeral, year or decade) and other words (one of them complete, not
    ///    being typed), the series those words name:
    ///    titles matching all of them but that numeral, the word before it also in the plural
    ///    ("alien 3" → Alien, Aliens, Alien: Resurrection), never a film sharing only the number.
    /// 3. When nothing matched: titles holding a word a typo away from a query word the catalog
    ///    knows ("forest gump"), or missing one word (``SearchQuery/Missing/word``):
    ///    the word being typed when every other word matches exactly ("the shawshank redep"),
    ///    or any word when two others match ("shawshank redemption prison"). A title sharing a
    ///    single word with the query is no match otherwise ("spirited away" lists no "Cast Away").
    private func search(_ words: [String], typing: Bool, whole: Set<Int>, limit: Int, needed: Int) -> Ranked {
        let last = words.count - 1
        let query = read(words, prefixes: typing && !whole.contains(last) ? [last] : [], whole: whole)
        if let filter = filters.filter(of: words) {
            var titles = query
            for index in titles.terms.indices { titles.terms[index].years = nil }
            let named = scored(titles, limit: limit, missing: .none)
            let films = filters.ranks(filter, in: corpus, limit: limit)
            var best: [Int: Double] = [:]
            for (rank, score) in named.scored { best[rank] = score }
            for rank in films.ranks {
                let score = SearchRanking.periodScore(votes: Int(corpus.votes[rank - 1]))
                best[rank] = max(best[rank] ?? score, score)
            }
            return Ranked(ranks: Self.ordered(best.map { ($0.key, $0.value) }), limit: limit,
                          isComplete: named.isComplete && films.isComplete)
        }
        var ranked = rank(query, limit: limit)
        let titleWords = query.terms.indices.filter { !query.terms[$0].isStop && !query.terms[$0].isNumeral }
        // (A series needs a complete title word: not only a word being typed, "2001 a s".)
        if titleWords.contains(where: { !query.terms[$0].isPrefix }),
           let numeral = query.terms.lastIndex(where: { $0.isNumeral && !$0.isStop }) {
            // The series: the word before the numeral also in the plural ("alien" → "aliens").
            var series = query
            if let word = titleWords.last(where: { $0 < numeral }), !whole.contains(word) {
                for plural in [words[word] + "s", words[word] + "es"] {
                    guard let id = corpus.ids[plural], series.terms[word].lookup[id] == nil else { continue }
                    series.terms[word].alternatives[plural] = SearchQuery.prefix
                    series.terms[word].lookup[id] = SearchQuery.prefix
                }
            }
            // The series' most popular titles: a quarter of the postings a word reads.
            let more = rank(series, limit: max(needed, limit / 4), missing: .numeral)
            append(more.ranks, isComplete: more.isComplete, to: &ranked)
        }
        if ranked.ranks.isEmpty && query.terms.filter({ !$0.isStop }).count >= 2 {
            // Nothing matched: titles missing one word, or holding a typo of it ("forest gump",
            // "citizen cane", "shawshank redemption prison"; see SearchQuery.Missing.word).
            ranked = rank(query, limit: limit, missing: .word)
        }
        return ranked
    }

    /// `ranks` after `ranked`'s, those already there left out.
    private func append(_ ranks: [Int], isComplete: Bool, to ranked: inout Ranked) {
        ranked.isComplete = ranked.isComplete && isComplete
        guard !ranks.isEmpty else { return }
        var seen = Set(ranked.ranks)
        for rank in ranks where seen.insert(rank).inserted { ranked.ranks.append(rank) }
    }

    /// Each word with the catalog words it may match; the words at `prefixes` also match the
    /// title words they begin (the word being typed), the words at `whole` only themselves.
    private func read(_ words: [String], prefixes: Set<Int>, whole: Set<Int>) -> SearchQuery {
        var terms: [SearchQuery.Term] = []
        let namesYear = words.count > 1 && words.contains { $0.count == 4 && Int($0).map { (1890...2030).contains($0) } == true }
        for (index, word) in words.enumerated() {
            let isLast = index == words.count - 1
            let isPrefix = prefixes.contains(index)
            var alternatives: [String: Double] = [:]
            let id = corpus.ids[word]
            if id != nil { alternatives[word] = SearchQuery.exact }
            if let number = SearchText.romanValue(word), corpus.ids[String(number)] != nil { alternatives[String(number)] = SearchQuery.exact }
            let scalars = Array(word.unicodeScalars.map(\.value))
            var prefixed = false
            var prefixIDs = 0..<0
            if isPrefix {
                let range = corpus.range(ofPrefix: scalars)
                // The words it begins, not itself (the first of the range when it is a word).
                prefixIDs = (id != nil ? range.lowerBound + 1 : range.lowerBound)..<range.upperBound
                // One letter says little: its 20 most frequent words; longer prefixes 40.
                let expansions = word.count == 1 ? Self.prefixWords / 2 : Self.prefixWords
                for candidate in corpus.topWords.top(expansions, in: prefixIDs) {
                    let expansion = corpus.words[candidate]
                    alternatives[expansion] = max(alternatives[expansion] ?? 0, SearchQuery.prefix)
                    prefixed = true
                }
            }
            // Typos only for a word the catalog does not know (nor continues, while typing):
            // a known word is taken as meant, which keeps the lookups few. With a year in the
            // query the film is a specific one, so spellings near a known word count too
            // ("solaris 1972" is "Solyaris").
            let edits = SearchRanking.allowedEdits(forLength: word.count)
            if edits > 0 && (alternatives[word] == nil || namesYear) && !prefixed && !word.allSatisfy(\.isNumber) && !whole.contains(index) {
                for (candidate, quality) in typoAlternatives(of: word, scalars: scalars, edits: edits) {
                    alternatives[candidate] = max(alternatives[candidate] ?? 0, quality)
                }
            }
            let years = words.count > 1 ? SearchFilters.period(of: word) : nil
            let isNumeral = SearchFilters.isNumeral(word, after: index > 0 ? words[index - 1] : nil, isLast: isLast)
            var term = SearchQuery.Term(text: word, alternatives: alternatives, isStop: SearchText.stopwords.contains(word),
                                        years: years, isNumeral: isNumeral, isPrefix: isPrefix, index: index)
            term.lookup = Dictionary(uniqueKeysWithValues: alternatives.map { (corpus.ids[$0.key]!, $0.value) })
            term.prefixIDs = prefixIDs
            term.id = id
            term.scalars = scalars
            term.isWhole = whole.contains(index)
            terms.append(term)
        }
        var query = SearchQuery(terms: terms)
        for index in words.indices.dropLast() {
            let joined = words[index] + words[index + 1]
            if let id = corpus.ids[joined] { query.joined.append((joined, id, index, index + 1)) }
        }
        return query
    }

    /// The typo index's words for `word` (``TypoWalk``): those within `edits` edits that the
    /// typo index holds, and that deleting letters from each meets (up to `edits` from the
    /// query word, up to the word's own allowance from it: what the former deletion index
    /// matched), with their match quality.
    private func typoAlternatives(of word: String, scalars: [UInt32], edits: Int) -> [(word: String, quality: Double)] {
        if let cached = typos[word] { return cached }
        var found: [(word: String, quality: Double)] = []
        for (id, distance) in TypoWalk.words(near: scalars, limit: edits, in: corpus)
        where corpus.flags[id] & SearchCorpus.typoFlag != 0 {
            let candidate = corpus.scalars(of: id)
            let common = TypoWalk.commonSubsequence(scalars, candidate)
            let own = SearchRanking.allowedEdits(forLength: corpus.words[id].count)
            guard candidate.count - common <= own, scalars.count - common <= edits else { continue }
            found.append((corpus.words[id], distance == 1 ? SearchQuery.oneEdit : SearchQuery.twoEdits))
        }
        if typos.count >= Self.cachedTypos { typos.removeAll(keepingCapacity: true) }
        typos[word] = found
        return found
    }

    /// Candidates from the most selective word (and joined words), scored and ordered.
    private func rank(_ query: SearchQuery, limit: Int, missing allowance: SearchQuery.Missing = .none) -> Ranked {
        let found = scored(query, limit: limit, missing: allowance)
        return Ranked(ranks: Self.ordered(found.scored), limit: limit, isComplete: found.isComplete)
    }

    /// Ranks by score, best first (ties: most popular first).
    private static func ordered(_ scored: [(rank: Int, score: Double)]) -> [Int] {
        scored.sorted { ($0.score, -$0.rank) > ($1.score, -$1.rank) }.map(\.rank)
    }

    /// The candidates of ``rank(_:limit:missing:)`` with their scores, unordered.
    private func scored(_ query: SearchQuery, limit: Int, missing allowance: SearchQuery.Missing) -> (scored: [(rank: Int, score: Double)], isComplete: Bool) {
        // The driver: the required word whose matches are fewest (a year may match the
        // film's year instead, so it cannot drive; for a series, a numeral may be missing).
        let required = query.terms.indices.filter {
            !query.terms[$0].isStop && query.terms[$0].years == nil && (allowance != .numeral || !query.terms[$0].isNumeral)
        }
        if allowance == .numeral && required.isEmpty { return ([], true) }
        let pool = required.isEmpty ? Array(query.terms.indices.filter { query.terms[$0].years == nil }) : required
        var driverWords: [String] = []
        var driver: (index: Int, weight: Int)?
        var weights: [Int: Int] = [:]
        for index in pool {
            let candidate = weight(query.terms[index])
            weights[index] = candidate
            if driver == nil || candidate < driver!.weight { driver = (index, candidate) }
        }
        var query = query
        let rest = query.terms.indices.filter { weights[$0] == nil }
        query.order = weights.sorted { ($0.value, $0.key) < ($1.value, $1.key) }.map(\.key) + rest
        if allowance == .word {
            // Any word may be the missing one: candidates come from every word's matches.
            for index in pool { driverWords += query.terms[index].alternatives.sorted { $0.value > $1.value }.map(\.key) }
        } else if let driver {
            driverWords = query.terms[driver.index].alternatives.sorted { $0.value > $1.value }.map(\.key)
        }
        driverWords += query.joined.map(\.word)
        // Exact words read `limit` postings; expansions (prefixes, typos) fewer, most popular first.
        var exactWords: Set<String> = Set(query.joined.map(\.word))
        for term in query.terms { for (word, quality) in term.alternatives where quality >= SearchQuery.exact { exactWords.insert(word) } }
        var scored: [(rank: Int, score: Double)] = []
        var seen: Set<Int> = []
        var isComplete = true
        func consider<S: Sequence<UInt32>>(_ ranks: S) {
            for rank32 in ranks {
                let rank = Int(rank32)
                guard seen.insert(rank).inserted else { continue }
                let index = rank - 1
                if let score = SearchRanking.score(query, words: corpus.titleWords(ofRank: rank), plainCount: Int(corpus.plainCounts[index]),
                                                   coreCount: Int(corpus.coreCounts[index]), votes: Int(corpus.votes[index]),
                                                   year: Int(corpus.years[index]), corpus: corpus, missing: allowance) {
                    scored.append((rank, score))
                }
            }
        }
        // A driver being typed with 1...3 letters: its prefix's most popular titles at once,
        // and the word itself when the catalog has it.
        // (Reading deeper pages later takes the word-by-word way, which goes further.)
        if allowance == .none, limit == Self.postingsPerWord, let driver, query.terms[driver.index].isPrefix,
           query.terms[driver.index].text.count <= Self.titlePrefixLength {
            let term = query.terms[driver.index]
            consider(prefixTitles(Array(term.text.unicodeScalars.map(\.value))))
            driverWords = term.alternatives.filter { $0.value >= SearchQuery.exact }.map(\.key) + query.joined.map(\.word)
            isComplete = false
        }
        for word in driverWords {
            guard let id = corpus.ids[word] else { continue }
            let wordLimit = exactWords.contains(word) ? limit : max(Self.postingsPerExpansion, limit / 10)
            let postings = corpus.postings(of: id)
            consider(postings.prefix(wordLimit))
            if postings.count >= wordLimit { isComplete = false }
        }
        return (scored, isComplete)
    }

    /// The `titlesPerPrefix` most popular titles holding a word that starts with `prefix`
    /// (the word itself included), ascending: the first postings of every word of the
    /// prefix's range, merged, each word read only while it can still improve the list.
    private func prefixTitles(_ prefix: [UInt32]) -> [UInt32] {
        var best: [UInt32] = []   // ascending, at most titlesPerPrefix, no duplicates
        let cap = Self.titlesPerPrefix
        for id in corpus.range(ofPrefix: prefix) {
            for rank in corpus.postings(of: UInt32(id)) {
                if best.count == cap, rank >= best[cap - 1] { break }
                var low = 0, high = best.count
                while low < high { let middle = (low + high) / 2; if best[middle] < rank { low = middle + 1 } else { high = middle } }
                if low < best.count, best[low] == rank { continue }
                best.insert(rank, at: low)
                if best.count > cap { best.removeLast() }
            }
        }
        return best
    }

    /// How many titles a term's alternatives match (its selectivity as a driver).
    private func weight(_ term: SearchQuery.Term) -> Int {
        guard !term.alternatives.isEmpty else { return Int.max }
        var total = 0
        for word in term.alternatives.keys { total += corpus.ids[word].map { corpus.frequency($0) } ?? 0 }
        return total
    }
}
