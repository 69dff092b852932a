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
            """)
    }

    /// Builds the vocabulary and the typo index from `title_words` (after every title).
    static func finish(in connection: SQLiteConnection) throws(MovieError) {
        try connection.execute("INSERT INTO vocab (word, df) SELECT word, count(*) FROM title_words GROUP BY word")
        let words = try connection.prepare("SELECT word FROM vocab", persistent: false)
        defer { words.finalize() }
        let insert = try connection.prepare("INSERT OR IGNORE INTO typos (variant, word) VALUES (?1, ?2)", persistent: false)
        defer { insert.finalize() }
        try words.bind([])
        var vocabulary: [String] = []
        while try words.step() { vocabulary.append(words.text(0) ?? "") }
        for word in vocabulary {
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
    private let typo: SQLiteStatement
    private let postings: SQLiteStatement
    private var recent: [(key: String, ranks: [Int])] = []

    /// Most words a query is read for (longer text is cut: work per query is bounded).
    static let maximumWords = 12
    /// Candidates read per matching word, most popular first.
    static let postingsPerWord = 400
    /// Prefix expansions of the word being typed, most frequent first.
    static let prefixWords = 40
    /// Ranked lists kept for paging.
    static let cachedQueries = 32

    init(_ connection: SQLiteConnection) throws(MovieError) {
        vocabExact = try connection.prepare("SELECT df FROM vocab WHERE word = ?1")
        vocabPrefix = try connection.prepare("SELECT word, df FROM vocab WHERE word > ?1 AND word < ?2 ORDER BY df DESC LIMIT ?3")
        typo = try connection.prepare("SELECT DISTINCT word FROM typos WHERE variant = ?1")
        postings = try connection.prepare("""
            SELECT m.rank, m.search_words, m.core_words, m.votes, m.year FROM title_words w JOIN movies m ON m.rank = w.rank
            WHERE w.word = ?1 ORDER BY w.rank LIMIT ?2
            """)
    }

    /// The ranks of the films matching `text`, best first (all of them, for paging).
    func ranks(for text: String) throws(MovieError) -> [Int] {
        let words = Array(SearchText.words(text).prefix(Self.maximumWords))
        guard !words.isEmpty else { return [] }
        let typing = text.last.map { $0.isLetter || $0.isNumber } ?? false
        let key = words.joined(separator: " ") + (typing ? "…" : "")
        if let hit = recent.firstIndex(where: { $0.key == key }) {
            let entry = recent.remove(at: hit)
            recent.append(entry)
            return entry.ranks
        }
        let query = try read(words, typing: typing)
        var ranks = try rank(query)
        if ranks.isEmpty && query.terms.filter({ !$0.isStop }).count >= 2 {
            // Nothing matches every word: titles missing one of them, from every word's matches.
            ranks = try rank(query, allowingMissing: 1)
        }
        recent.append((key, ranks))
        if recent.count > Self.cachedQueries { recent.removeFirst() }
        return ranks
    }

    /// Each word with the catalog words it may match.
    private func read(_ words: [String], typing: Bool) throws(MovieError) -> SearchQuery {
        var terms: [SearchQuery.Term] = []
        for (index, word) in words.enumerated() {
            let isLast = index == words.count - 1
            var alternatives: [String: Double] = [:]
            if try df(word) != nil { alternatives[word] = SearchQuery.exact }
            if let number = SearchText.romanValue(word), try df(String(number)) != nil { alternatives[String(number)] = SearchQuery.exact }
            if isLast && typing {
                try vocabPrefix.bind([.text(word), .text(word + "\u{10FFFF}"), .int(Self.prefixWords)])
                while try vocabPrefix.step() {
                    let candidate = vocabPrefix.text(0) ?? ""
                    alternatives[candidate] = max(alternatives[candidate] ?? 0, SearchQuery.prefix)
                }
            }
            let edits = SearchRanking.allowedEdits(forLength: word.count)
            if edits > 0 && !word.allSatisfy(\.isNumber) {
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
            }
            let year = words.count > 1 && word.count == 4 ? Int(word).flatMap { (1890...2030).contains($0) ? $0 : nil } : nil
            terms.append(.init(text: word, alternatives: alternatives, isStop: SearchText.stopwords.contains(word), year: year,
                               isPrefix: isLast && typing))
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
    private func rank(_ query: SearchQuery, allowingMissing allowed: Int = 0) throws(MovieError) -> [Int] {
        // The driver: the required word whose matches are fewest (a year may match the
        // film's year instead, so it cannot drive).
        let required = query.terms.indices.filter { !query.terms[$0].isStop && query.terms[$0].year == nil }
        let pool = required.isEmpty ? Array(query.terms.indices.filter { query.terms[$0].year == nil }) : required
        var driverWords: [String] = []
        var driver: (index: Int, weight: Int)?
        for index in pool {
            let candidate = try weight(query.terms[index])
            if driver == nil || candidate < driver!.weight { driver = (index, candidate) }
        }
        if allowed > 0 {
            // Any word may be the missing one: candidates come from every word's matches.
            for index in pool { driverWords += query.terms[index].alternatives.sorted { $0.value > $1.value }.map(\.key) }
        } else if let driver {
            driverWords = query.terms[driver.index].alternatives.sorted { $0.value > $1.value }.map(\.key)
        }
        driverWords += query.joined.map(\.word)
        var scored: [(rank: Int, score: Double)] = []
        var seen: Set<Int> = []
        for word in driverWords {
            try postings.bind([.text(word), .int(Self.postingsPerWord)])
            while try postings.step() {
                let rank = postings.int(0)
                guard seen.insert(rank).inserted else { continue }
                let words = (postings.text(1) ?? "").split(separator: " ").map(String.init)
                let core = (postings.text(2) ?? "").split(separator: " ").map(String.init)
                if let score = SearchRanking.score(query, words: words, coreWords: core, votes: postings.int(3), year: postings.int(4),
                                                   allowingMissing: allowed) {
                    scored.append((rank, score))
                }
            }
        }
        postings.reset()
        return scored.sorted { ($0.score, -$0.rank) > ($1.score, -$1.rank) }.map(\.rank)
    }

    /// How many titles a term's alternatives match (its selectivity as a driver).
    private func weight(_ term: SearchQuery.Term) throws(MovieError) -> Int {
        guard !term.alternatives.isEmpty else { return Int.max }
        var total = 0
        for word in term.alternatives.keys { total += try df(word) ?? 0 }
        return total
    }
}
