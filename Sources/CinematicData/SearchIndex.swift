import CinematicDomain

/// The catalog's search index, built with the catalog: every title's index words
/// (``SearchText/indexWords(ofTitle:)``) with their postings, the vocabulary with document
/// frequencies, and a deletion index for typos (SymSpell: each vocabulary word of 4+ letters
/// under its 1-deletions, of 8+ letters also its 2-deletions, and itself).
///
/// Queries look candidates up here (exact, prefix, typo and joined words), never by scanning
/// every title; ``SearchRanking`` orders them.
enum SearchIndex {
    static func createTables(in connection: SQLiteConnection) throws(MovieError) {
        try connection.execute("""
            CREATE TABLE title_words (word TEXT NOT NULL, rank INTEGER NOT NULL, PRIMARY KEY (word, rank)) WITHOUT ROWID;
            CREATE TABLE vocab (word TEXT PRIMARY KEY, df INTEGER NOT NULL) WITHOUT ROWID;
            CREATE TABLE typos (variant TEXT NOT NULL, word TEXT NOT NULL, PRIMARY KEY (variant, word)) WITHOUT ROWID;
            CREATE TABLE prefixes (prefix TEXT NOT NULL, position INTEGER NOT NULL, word TEXT NOT NULL,
                                   PRIMARY KEY (prefix, position)) WITHOUT ROWID;
            CREATE TABLE prefix_titles (prefix TEXT NOT NULL, rank INTEGER NOT NULL, PRIMARY KEY (prefix, rank)) WITHOUT ROWID;
            """)
    }

    /// Builds the vocabulary, the prefix tables and the typo index from `title_words` (after
    /// every title).
    static func finish(in connection: SQLiteConnection, withoutTypos skipped: Set<String> = []) throws(MovieError) {
        try connection.execute("INSERT INTO vocab (word, df) SELECT word, count(*) FROM title_words GROUP BY word")
        // For the first 1...3 letters of a word being typed: the most popular titles holding a
        // word that starts so, read at once instead of word by word.
        for length in 1...SearchEngine.titlePrefixLength {
            try connection.execute("""
                INSERT INTO prefix_titles (prefix, rank)
                SELECT prefix, rank FROM (
                    SELECT prefix, rank, row_number() OVER (PARTITION BY prefix ORDER BY rank) AS n FROM (
                        SELECT DISTINCT substr(word, 1, \(length)) AS prefix, rank FROM title_words WHERE length(word) >= \(length)))
                WHERE n <= \(SearchEngine.titlesPerPrefix)
                """)
        }
        let words = try connection.prepare("SELECT word, df FROM vocab", persistent: false)
        defer { words.finalize() }
        let insert = try connection.prepare("INSERT OR IGNORE INTO typos (variant, word) VALUES (?1, ?2)", persistent: false)
        defer { insert.finalize() }
        try words.bind([])
        var vocabulary: [(word: String, df: Int)] = []
        while try words.step() { vocabulary.append((words.text(0) ?? "", words.int(1))) }
        // The most frequent words for each short prefix, so expanding the word being typed is
        // one indexed read however many words share its first letters.
        var byPrefix: [String: [(word: String, df: Int)]] = [:]
        for entry in vocabulary where entry.word.count > 1 {
            for length in 1...min(SearchEngine.indexedPrefixLength, entry.word.count - 1) {
                byPrefix[String(entry.word.prefix(length)), default: []].append(entry)
            }
        }
        let prefix = try connection.prepare("INSERT INTO prefixes (prefix, position, word) VALUES (?1, ?2, ?3)", persistent: false)
        defer { prefix.finalize() }
        for (key, entries) in byPrefix {
            let top = entries.sorted { ($0.df, $1.word) > ($1.df, $0.word) }.prefix(SearchEngine.prefixWords)
            for (position, entry) in top.enumerated() { try prefix.run([.text(key), .int(position), .text(entry.word)]) }
        }
        for (word, _) in vocabulary where !skipped.contains(word) {
            let edits = SearchRanking.allowedEdits(forLength: word.count)
            guard edits > 0, !word.allSatisfy(\.isNumber) else { continue }
            try insert.run([.text(word), .text(word)])
            for variant in SearchRanking.deletions(of: word, edits: edits) {
                try insert.run([.text(variant), .text(word)])
            }
        }
    }
}

/// Runs searches against the index: reads the query into a ``SearchQuery``, gathers
/// candidates, ranks them, and keeps the ranked lists of recent queries so that the next
/// page of a search costs a slice, whatever its depth. Used only inside the catalog's lock.
final class SearchEngine {
    private let vocabExact: SQLiteStatement
    private let vocabPrefix: SQLiteStatement
    private let indexedPrefix: SQLiteStatement
    private let typo: SQLiteStatement
    private let postings: SQLiteStatement
    private let prefixTitles: SQLiteStatement
    /// A query's ranked list, and whether it holds every match (or was cut at `limit` postings
    /// per word, to be read further when a deeper page is asked for).
    private struct Ranked {
        var ranks: [Int]
        var limit: Int
        var isComplete: Bool
    }

    private var recent: [(key: String, ranked: Ranked)] = []

    /// Most words a query is read for (longer text is cut: work per query is bounded).
    static let maximumWords = 12
    /// Candidates read per matching word, most popular first.
    static let postingsPerWord = 400
    /// Prefix expansions of the word being typed, most frequent first.
    static let prefixWords = 40
    /// Prefixes up to this length are looked up in the prefix table; longer ones range-scan
    /// the vocabulary (few words share them).
    static let indexedPrefixLength = 4
    /// Candidates read per prefix or typo expansion (an exact word reads `postingsPerWord`).
    static let postingsPerExpansion = 20
    /// A word being typed of up to this many letters draws its candidates from the prefix
    /// titles table: the `titlesPerPrefix` most popular titles with a word starting so.
    static let titlePrefixLength = 3
    static let titlesPerPrefix = 200
    /// Ranked lists kept for paging.
    static let cachedQueries = 32

    init(_ connection: SQLiteConnection) throws(MovieError) {
        vocabExact = try connection.prepare("SELECT df FROM vocab WHERE word = ?1")
        vocabPrefix = try connection.prepare("SELECT word, df FROM vocab WHERE word > ?1 AND word < ?2 ORDER BY df DESC LIMIT ?3")
        indexedPrefix = try connection.prepare("SELECT word FROM prefixes WHERE prefix = ?1 ORDER BY position")
        typo = try connection.prepare("SELECT DISTINCT word FROM typos WHERE variant = ?1")
        postings = try connection.prepare("""
            SELECT m.rank, m.search_words, m.core_count, m.votes, m.year FROM title_words w JOIN movies m ON m.rank = w.rank
            WHERE w.word = ?1 ORDER BY w.rank LIMIT ?2
            """)
        prefixTitles = try connection.prepare("""
            SELECT m.rank, m.search_words, m.core_count, m.votes, m.year FROM prefix_titles p JOIN movies m ON m.rank = p.rank
            WHERE p.prefix = ?1 ORDER BY p.rank LIMIT ?2
            """)
    }

    /// The ranks of the films matching `text`, best first: at least `needed` of them when
    /// there are that many. The list is kept for recent queries, so the next page is a slice;
    /// a page deeper than the list reads further (4 times as many postings per word), so the
    /// cost of paging stays flat.
    func ranks(for text: String, needed: Int = MovieCatalog.pageSize) throws(MovieError) -> [Int] {
        let words = Array(SearchText.words(text).prefix(Self.maximumWords))
        guard !words.isEmpty else { return [] }
        let typing = text.last.map { $0.isLetter || $0.isNumber } ?? false
        let key = words.joined(separator: " ") + (typing ? "…" : "")
        var previous: Ranked?
        if let hit = recent.firstIndex(where: { $0.key == key }) {
            let entry = recent.remove(at: hit)
            recent.append(entry)
            if entry.ranked.isComplete || entry.ranked.ranks.count >= needed { return entry.ranked.ranks }
            previous = entry.ranked
            recent.removeLast()
        }
        let query = try read(words, typing: typing)
        let limit = previous.map { max($0.limit * 4, needed * 2) } ?? Self.postingsPerWord
        var ranked = try rank(query, limit: limit)
        if ranked.ranks.isEmpty && query.terms.filter({ !$0.isStop }).count >= 2 {
            // Nothing matches every word: titles missing one of them, from every word's matches.
            ranked = try rank(query, limit: limit, allowingMissing: 1)
        }
        recent.append((key, ranked))
        if recent.count > Self.cachedQueries { recent.removeFirst() }
        return ranked.ranks
    }

    /// Each word with the catalog words it may match.
    private func read(_ words: [String], typing: Bool) throws(MovieError) -> SearchQuery {
        var terms: [SearchQuery.Term] = []
        let namesYear = words.count > 1 && words.contains { $0.count == 4 && Int($0).map { (1890...2030).contains($0) } == true }
        for (index, word) in words.enumerated() {
            let isLast = index == words.count - 1
            var alternatives: [String: Double] = [:]
            if try df(word) != nil { alternatives[word] = SearchQuery.exact }
            if let number = SearchText.romanValue(word), try df(String(number)) != nil { alternatives[String(number)] = SearchQuery.exact }
            var prefixed = false
            if isLast && typing {
                let short = word.count <= Self.indexedPrefixLength
                let statement = short ? indexedPrefix : vocabPrefix
                try statement.bind(short ? [.text(word)] : [.text(word), .text(word + "\u{10FFFF}"), .int(Self.prefixWords)])
                // One letter says little: its 20 most frequent words; longer prefixes 40.
                var expansions = word.count == 1 ? Self.prefixWords / 2 : Self.prefixWords
                while expansions > 0, try statement.step() {
                    let candidate = statement.text(0) ?? ""
                    guard candidate != word else { continue }
                    expansions -= 1
                    alternatives[candidate] = max(alternatives[candidate] ?? 0, SearchQuery.prefix)
                    prefixed = true
                }
                statement.reset()
            }
            // Typos only for a word the catalog does not know (nor continues, while typing):
            // a known word is taken as meant, which keeps the lookups few. With a year in the
            // query the film is a specific one, so spellings near a known word count too
            // ("solaris 1972" is "Solyaris").
            let edits = SearchRanking.allowedEdits(forLength: word.count)
            if edits > 0 && (alternatives[word] == nil || namesYear) && !prefixed && !word.allSatisfy(\.isNumber) {
                for variant in SearchRanking.deletions(of: word, edits: edits).union([word]) {
                    try typo.bind([.text(variant)])
                    while try typo.step() {
                        let candidate = typo.text(0) ?? ""
                        let distance = SearchRanking.distance(word, candidate, limit: edits)
                        guard distance >= 1, distance <= edits else { continue }
                        let quality = distance == 1 ? SearchQuery.oneEdit : SearchQuery.twoEdits
                        alternatives[candidate] = max(alternatives[candidate] ?? 0, quality)
                    }
                }
                typo.reset()
            }
            let year = words.count > 1 && word.count == 4 ? Int(word).flatMap { (1890...2030).contains($0) ? $0 : nil } : nil
            var term = SearchQuery.Term(text: word, alternatives: alternatives, isStop: SearchText.stopwords.contains(word),
                                        year: year, isPrefix: isLast && typing, index: index)
            term.lookup = Dictionary(uniqueKeysWithValues: alternatives.map { (Substring($0.key), $0.value) })
            terms.append(term)
        }
        var query = SearchQuery(terms: terms)
        for index in words.indices.dropLast() {
            let joined = words[index] + words[index + 1]
            if try df(joined) != nil { query.joined.append((joined, index, index + 1)) }
        }
        return query
    }

    private func df(_ word: String) throws(MovieError) -> Int? {
        try vocabExact.bind([.text(word)])
        defer { vocabExact.reset() }
        return try vocabExact.step() ? vocabExact.int(0) : nil
    }

    /// Candidates from the most selective word (and joined words), scored and ordered.
    private func rank(_ query: SearchQuery, limit: Int, allowingMissing allowed: Int = 0) throws(MovieError) -> Ranked {
        // The driver: the required word whose matches are fewest (a year may match the
        // film's year instead, so it cannot drive).
        let required = query.terms.indices.filter { !query.terms[$0].isStop && query.terms[$0].year == nil }
        let pool = required.isEmpty ? Array(query.terms.indices.filter { query.terms[$0].year == nil }) : required
        var driverWords: [String] = []
        var driver: (index: Int, weight: Int)?
        var weights: [Int: Int] = [:]
        for index in pool {
            let candidate = try weight(query.terms[index])
            weights[index] = candidate
            if driver == nil || candidate < driver!.weight { driver = (index, candidate) }
        }
        var query = query
        let rest = query.terms.indices.filter { weights[$0] == nil }
        query.order = weights.sorted { ($0.value, $0.key) < ($1.value, $1.key) }.map(\.key) + rest
        if allowed > 0 {
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
        func read(_ statement: SQLiteStatement, _ values: [SQLiteStatement.Value], limit: Int) throws(MovieError) {
            try statement.bind(values)
            defer { statement.reset() }
            var count = 0
            while try statement.step() {
                count += 1
                let rank = statement.int(0)
                guard seen.insert(rank).inserted else { continue }
                let text = statement.text(1) ?? ""
                if let score = SearchRanking.score(query, words: text.split(separator: " "), coreCount: statement.int(2),
                                                   votes: statement.int(3), year: statement.int(4), allowingMissing: allowed) {
                    scored.append((rank, score))
                }
            }
            if count >= limit { isComplete = false }
        }
        // A driver being typed with 1...3 letters: its prefix's most popular titles at once,
        // and the word itself when the catalog has it.
        // (Reading deeper pages later takes the word-by-word way, which goes further.)
        if allowed == 0, limit == Self.postingsPerWord, let driver, query.terms[driver.index].isPrefix,
           query.terms[driver.index].text.count <= Self.titlePrefixLength {
            let term = query.terms[driver.index]
            try read(prefixTitles, [.text(term.text), .int(Self.titlesPerPrefix)], limit: Self.titlesPerPrefix + 1)
            driverWords = term.alternatives.filter { $0.value >= SearchQuery.exact }.map(\.key) + query.joined.map(\.word)
            isComplete = false
        }
        for word in driverWords {
            let wordLimit = exactWords.contains(word) ? limit : max(Self.postingsPerExpansion, limit / 10)
            try read(postings, [.text(word), .int(wordLimit)], limit: wordLimit)
        }
        return Ranked(ranks: scored.sorted { ($0.score, -$0.rank) > ($1.score, -$1.rank) }.map(\.rank), limit: limit, isComplete: isComplete)
    }

    /// How many titles a term's alternatives match (its selectivity as a driver).
    private func weight(_ term: SearchQuery.Term) throws(MovieError) -> Int {
        guard !term.alternatives.isEmpty else { return Int.max }
        var total = 0
        for word in term.alternatives.keys { total += try df(word) ?? 0 }
        return total
    }
}
