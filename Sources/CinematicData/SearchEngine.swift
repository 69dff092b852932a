import CinematicDomain

/// Runs searches against the ``SearchCorpus`` (read where the index lies): reads the query into a
/// ``SearchQuery`` (exact, prefix, typo, other forms and joined words: SearchQueryReader.swift),
/// gathers candidates from postings and scores them (SearchCandidates.swift,
/// ``SearchRanking``), understands a series ("die hard 3": SearchSeries.swift), and keeps the
/// ranked lists of recent queries so that the next page of a search costs a slice, whatever
/// its depth. No SQL: a keystroke reads arrays. Used only inside the catalog's lock.
final class SearchEngine {
    let corpus: SearchCorpus
    /// A query's ranked list, and whether it holds every match (or was cut at `limit` postings
    /// per word, to be read further when a deeper page is asked for).
    struct Ranked {
        var ranks: [Int]
        var limit: Int
        var isComplete: Bool
        /// When no title matches every word: the query's words the first title leaves out
        /// (``SearchRanking/unmatched(_:_:corpus:)``), as the query reads them.
        var unmatched: [String] = []
    }

    private var recent: [(key: String, ranked: Ranked)] = []
    /// Typo lookups of recent words (a word typed earlier in the query is read again at
    /// every keystroke after it), at most `cachedTypos`.
    var typos: [String: [(word: String, quality: Double)]] = [:]
    /// Recent words' ``WordInfo``, at most `cachedTypos`.
    var wordInfo: [String: WordInfo] = [:]
    /// The ids of words recent searches read (`UInt32.max`: not a word), at most
    /// `cachedWordIDs`: a word met by its id (an expansion, a typo) is noted as it is decoded,
    /// so it is never searched for in the vocabulary (whose binary search reads a page a step).
    private var wordIDs: [String: UInt32] = [:]
    static let cachedWordIDs = 4096

    /// Most words a query is read for (longer text is cut: work per query is bounded).
    static let maximumWords = 12
    /// Candidates read per matching word, most popular first.
    static let postingsPerWord = 400
    /// Prefix expansions of the word being typed, most frequent first.
    static let prefixWords = 40
    /// A word being typed that begins fewer catalog words than this is also read as a
    /// possible typo (SearchQueryReader.swift).
    static let fewPrefixWords = 4
    /// Candidates read per prefix or typo expansion (an exact word reads `postingsPerWord`).
    static let postingsPerExpansion = 20
    /// A word being typed of up to this many letters draws its candidates from the
    /// `titlesPerPrefix` most popular titles with a word starting so.
    static let titlePrefixLength = 3
    static let titlesPerPrefix = 200
    /// Ranked lists kept for paging.
    static let cachedQueries = 32
    /// Typo lookups (and word readings) kept.
    static let cachedTypos = 256

    /// The catalog's genre words, for queries made of periods and genres.
    let filters: SearchFilters
    /// The first letters of the vocabulary's words (``SearchCorpus/firstLetters()``), read
    /// at the first typo lookup.
    private(set) lazy var firstLetters = corpus.firstLetters()

    init(_ corpus: SearchCorpus) {
        self.corpus = corpus
        filters = SearchFilters(genreLists: corpus.display.genreLists)
        // The word-form tables (abbreviations, number words, ordinals, numerals) are built
        // here, on the catalog's thread as it loads, rather than by the first query.
        _ = SearchWordForms.alternatives(of: "ii", after: "part", isLast: true)
        _ = SearchWordForms.alternatives(of: "5th", after: nil, isLast: true)
    }

    /// The ranks of the films matching `text`, best first: at least `needed` of them when
    /// there are that many, and what the first title leaves out when no title matches every
    /// word (``Ranked/unmatched``). The list is kept for recent queries, so the next page is a
    /// slice; a page deeper than the list reads further (4 times as many postings per word), so
    /// the cost of paging stays flat.
    func ranked(for text: String, needed: Int = MovieCatalog.pageSize) -> Ranked {
        let read = Array(SearchText.queryWords(text).prefix(Self.maximumWords))
        let words = read.map(\.word)
        guard !words.isEmpty else { return Ranked(ranks: [], limit: 0, isComplete: true) }
        let typing = text.last.map { $0.isLetter || $0.isNumber } ?? false
        // A word that lost most of its letters to folding ("üñí" → "uni") is matched only whole.
        let whole = Set(read.indices.filter { read[$0].isMostlyFolded })
        // The recent lists' key, joined by hand: `joined(separator:)` is not specialized, and
        // its first call looks up associated types by mangled name (~90 K instructions).
        var key = ""
        for (index, word) in read.enumerated() {
            if index > 0 { key += " " }
            key += word.isMostlyFolded ? word.word + "\u{1}" : word.word
        }
        if typing { key += "…" }
        var previous: Ranked?
        if let hit = recent.firstIndex(where: { $0.key == key }) {
            let entry = recent.remove(at: hit)
            recent.append(entry)
            if entry.ranked.isComplete || entry.ranked.ranks.count >= needed { return entry.ranked }
            previous = entry.ranked
            recent.removeLast()
        }
        let limit = previous.map { max($0.limit * 4, needed * 2) } ?? Self.postingsPerWord
        let ranked = search(words, typing: typing, whole: whole, limit: limit, needed: needed)
        recent.append((key, ranked))
        if recent.count > Self.cachedQueries { recent.removeFirst() }
        return ranked
    }

    /// The ranked matches of a query's words (see ``ranked(for:needed:)`` and docs/catalog-index.md):
    ///
    /// 1. A query made only of years, decades and genres ("1994", "90s comedy", "comedy 1994";
    ///    ``SearchFilters``): the films of that period and genre, most popular first, among the
    ///    titles holding every word as title words, each by its score
    ///    (``SearchRanking/periodScore(votes:)``): "1941" and "1984" list those titles first,
    ///    "2001" lists 2001: A Space Odyssey first.
    /// 2. Otherwise the titles matching every word; then, when the query holds a numeral (a
    ///    number, roman numeral, year or decade) and other words (one of them complete, not
    ///    being typed), the series those words name: titles matching all of them but that
    ///    numeral, the word before it also in the plural ("alien 3" → Alien, Aliens, Alien:
    ///    Resurrection), never a film sharing only the number. When the query ends with a
    ///    sequel number ("die hard 3", "harry potter part 2", "star trek ii", "shrek two"),
    ///    the series' film of that number comes first (``nthFilm(_:in:)``).
    /// 3. When nothing matched: the titles covering most of the query
    ///    (``SearchQuery/Missing/most``): "waking life full movie", "forest gump",
    ///    "shawshank redemption prison", "the shawshank redep"; never "Cast Away" for
    ///    "spirited away".
    private func search(_ words: [String], typing: Bool, whole: Set<Int>, limit: Int, needed: Int) -> Ranked {
        let last = words.count - 1
        let query = read(words, prefixes: typing && !whole.contains(last) ? [last] : [], whole: whole)
        if let filter = filters.filter(of: words) {
            var titles = query
            titles.partsCover = false
            for index in titles.terms.indices {
                titles.terms[index].years = nil
                titles.terms[index].genres = 0
            }
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
        let titleWords = query.terms.indices.filter { !query.terms[$0].isStop && !query.terms[$0].isNumeral && !query.terms[$0].isMarker }
        // (A series needs a complete title word: not only a word being typed, "2001 a s".)
        if titleWords.contains(where: { !query.terms[$0].isPrefix }),
           let numeral = query.terms.lastIndex(where: { $0.isNumeral && !$0.isStop }) {
            // The series: the word before the numeral also in the plural ("alien" → "aliens").
            var series = query
            if let word = titleWords.last(where: { $0 < numeral }), !whole.contains(word) {
                for plural in [words[word] + "s", words[word] + "es"] {
                    guard let id = self.id(of: plural), series.terms[word].lookup[id] == nil else { continue }
                    series.terms[word].alternatives[plural] = SearchQuery.prefix
                    series.terms[word].lookup[id] = SearchQuery.prefix
                }
            }
            // The series' most popular titles: a quarter of the postings a word reads.
            let more = rank(series, limit: max(needed, limit / 4), missing: .numeral)
            append(more.ranks, isComplete: more.isComplete, to: &ranked)
            if let nth = nthFilm(query, in: ranked.ranks) {
                ranked.ranks.removeAll { $0 == nth }
                ranked.ranks.insert(nth, at: 0)
            }
        }
        if ranked.ranks.isEmpty && query.terms.filter({ !$0.isStop }).count >= 2 {
            // Nothing matched: the titles covering most of the query (see SearchQuery.Missing.most),
            // and what the first of them leaves out.
            ranked = rank(query, limit: limit, missing: .most)
            if let top = ranked.ranks.first {
                ranked.unmatched = SearchRanking.unmatched(query, title(ofRank: top), corpus: corpus).map { query.terms[$0].text }
            }
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

    /// Candidates from the most selective word (and joined words), scored and ordered.
    func rank(_ query: SearchQuery, limit: Int, missing allowance: SearchQuery.Missing = .none) -> Ranked {
        let found = scored(query, limit: limit, missing: allowance)
        return Ranked(ranks: Self.ordered(found.scored), limit: limit, isComplete: found.isComplete)
    }

    /// The id of `word` (``SearchCorpus/id(of:)``, remembered).
    func id(of word: String) -> UInt32? {
        if let known = wordIDs[word] { return known == UInt32.max ? nil : known }
        let id = corpus.id(of: word)
        remember(word, id ?? UInt32.max)
        return id
    }

    /// Word `id` as a string (``SearchCorpus/word(_:)``), its id remembered.
    func word(_ id: Int) -> String {
        let word = corpus.word(id)
        remember(word, UInt32(id))
        return word
    }

    private func remember(_ word: String, _ id: UInt32) {
        if wordIDs.count >= Self.cachedWordIDs { wordIDs.removeAll(keepingCapacity: true) }
        wordIDs[word] = id
    }

    /// Ranks by score, best first (ties: most popular first).
    static func ordered(_ scored: [(rank: Int, score: Double)]) -> [Int] {
        scored.sorted { ($0.score, -$0.rank) > ($1.score, -$1.rank) }.map(\.rank)
    }
}
