/// Gathering a query's candidates from postings and scoring them (``SearchRanking``).
extension SearchEngine {
    /// The candidates of ``rank(_:limit:missing:)`` with their scores, unordered.
    func scored(_ query: SearchQuery, limit: Int, missing allowance: SearchQuery.Missing) -> (scored: [(rank: Int, score: Double)], isComplete: Bool) {
        // The driver: the required word whose matches are fewest (a year or genre may match
        // the film instead, so it cannot drive; for a series, a numeral or marker may be
        // missing; when most words will do, a medium word alone never names a film).
        let required = query.terms.indices.filter {
            let term = query.terms[$0]
            return !term.isStop && !term.isAttribute && (allowance != .numeral || !term.isNumeral && !term.isMarker)
                && (allowance != .most || !term.isMedium)
        }
        if allowance == .numeral && required.isEmpty { return ([], true) }
        let pool = required.isEmpty ? Array(query.terms.indices.filter { !query.terms[$0].isAttribute }) : required
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
        if allowance == .most {
            // Any word may be missing: candidates come from the matches of the words a title
            // covering enough of the query must hold one of (the heaviest).
            for index in mostDrivers(query, pool: pool) {
                driverWords += query.terms[index].alternatives.sorted { $0.value > $1.value }.map(\.key)
            }
        } else if let driver {
            driverWords = query.terms[driver.index].alternatives.sorted { $0.value > $1.value }.map(\.key)
        }
        driverWords += query.joined.map(\.word)
        // Exact words read `limit` postings; other forms ("dr" for "doctor") a quarter of that,
        // expansions (prefixes, typos) fewer: most popular first.
        var exactWords: Set<String> = Set(query.joined.map(\.word)), forms: Set<String> = []
        for term in query.terms {
            for (word, quality) in term.alternatives where quality >= SearchQuery.form {
                if quality >= SearchQuery.exact { exactWords.insert(word) } else { forms.insert(word) }
            }
        }
        var scored: [(rank: Int, score: Double)] = []
        var seen: Set<Int> = []
        var isComplete = true
        let genreLists = corpus.display.genreIndexes, listBits = filters.listBits
        func consider<S: Sequence<UInt32>>(_ ranks: S) {
            for rank32 in ranks {
                let rank = Int(rank32)
                guard seen.insert(rank).inserted else { continue }
                let title = self.title(ofRank: rank, genreLists: genreLists, listBits: listBits)
                if let score = SearchRanking.score(query, title, corpus: corpus, missing: allowance) {
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
            driverWords = term.alternatives.filter { $0.value >= SearchQuery.form }.map(\.key) + query.joined.map(\.word)
            isComplete = false
        }
        for word in driverWords {
            guard let id = self.id(of: word) else { continue }
            // When most words will do, a word's most popular titles: half as many.
            let exactLimit = allowance == .most ? limit / 2 : limit
            let wordLimit = exactWords.contains(word) ? exactLimit
                : forms.contains(word) ? exactLimit / 4 : max(Self.postingsPerExpansion, limit / 10)
            let postings = corpus.postings(of: id)
            consider(postings.prefix(wordLimit))
            if postings.count >= wordLimit { isComplete = false }
        }
        return (scored, isComplete)
    }

    /// The title of `rank` as ``SearchRanking`` scores it.
    func title(ofRank rank: Int) -> SearchRanking.Title {
        title(ofRank: rank, genreLists: corpus.display.genreIndexes, listBits: filters.listBits)
    }

    /// ``title(ofRank:)`` with the genre tables passed in (read once per query, not per title).
    @inline(__always)
    private func title(ofRank rank: Int, genreLists: UnsafeBufferPointer<UInt16>, listBits: [UInt64]) -> SearchRanking.Title {
        let index = rank - 1
        return SearchRanking.Title(
            words: corpus.titleWords(ofRank: rank), plainCount: Int(corpus.plainCounts[index]),
            coreCount: Int(corpus.coreCounts[index]), votes: Int(corpus.votes[index]), year: Int(corpus.years[index]),
            genres: listBits[Int(genreLists[index])], segments: corpus.titleParts[index])
    }

    /// The words of `pool` a title must match one of to cover ``SearchRanking/mostShare`` of
    /// the query (``SearchQuery/Missing/most``): the heaviest, until the others together weigh
    /// less than the share; with a word being typed, which may be the one missing, one other
    /// word at least.
    private func mostDrivers(_ query: SearchQuery, pool: [Int]) -> [Int] {
        let total = query.terms.reduce(0) { $0 + $1.weight }
        // (A word with no catalog word to match brings no candidates; it stays among the rest.)
        let heaviest = pool.filter { !query.terms[$0].isPrefix && !query.terms[$0].alternatives.isEmpty }
            .sorted { query.terms[$0].weight > query.terms[$1].weight }
        var rest = total
        var drivers: [Int] = []
        for index in heaviest {
            drivers.append(index)
            rest -= query.terms[index].weight
            if rest < SearchRanking.mostShare * total { return drivers }
        }
        return pool
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
        for id in term.lookup.keys { total += corpus.frequency(id) }
        return total
    }
}
