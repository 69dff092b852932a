import CinematicDomain

/// Builds a ``SearchCorpus`` from a catalog's rows: ranks them by popularity, reads each
/// title's index words (``SearchText``), and collects the vocabulary, postings and result
/// rows. Deterministic: the same rows give the same corpus, byte for byte.
enum SearchCorpusBuilder {
    /// The rows in rank order (most votes first, then smaller id) and the corpus over them.
    /// `progress` is called with the share of titles read (0...1), every 4,096 titles.
    static func build(_ rows: [CatalogRow], progress: (Double) -> Void = { _ in }) throws(MovieError) -> (ranked: [CatalogRow], corpus: SearchCorpus) {
        let ranked = rows.sorted { ($0.votes, $1.id) > ($1.votes, $0.id) }
        // Words that are only adjacent words joined: indexed, but not for typos (they are long
        // and many; a typo in a joined word is rare).
        var pairs: Set<String> = [], plainWords: Set<String> = []
        var titles: [(plain: [String], variants: [String], core: Int)] = []
        titles.reserveCapacity(ranked.count)
        var display = MovieRowsBuilder()
        for (offset, row) in ranked.enumerated() {
            if offset % 4096 == 0 { progress(0.8 * Double(offset) / Double(max(1, ranked.count))) }
            let shown = TitleText.parts(ofCatalogTitle: row.catalogTitle).display
            try display.append(row, display: shown)
            // The display title's plain words, then the other forms it is found by: numerals,
            // joined words, the catalog form's ("Godfather, The"), and adjacent words joined
            // ("Ghost Busters" is also "ghostbusters"; not a one-letter word such as an elided
            // "d'" of "d'une": that is no "dune").
            // Linear per title: a word is checked against the title's earlier words in a set.
            let plain = SearchText.words(shown)
            var seen = Set(plain), variants: [String] = []
            for word in SearchText.indexWords(ofTitle: shown) + SearchText.indexWords(ofTitle: row.catalogTitle)
            where seen.insert(word).inserted { variants.append(word) }
            for (first, second) in zip(plain, plain.dropFirst())
            where !first.dropFirst().isEmpty && !second.dropFirst().isEmpty
                && !SearchText.stopwords.contains(first) && !SearchText.stopwords.contains(second) {
                let joined = first + second
                if seen.insert(joined).inserted {
                    variants.append(joined)
                    pairs.insert(joined)
                }
            }
            for word in plain { plainWords.insert(word) }
            titles.append((plain, variants, plain.filter { !SearchText.stopwords.contains($0) }.count))
        }
        var vocabulary: Set<String> = []
        for title in titles { vocabulary.formUnion(title.plain); vocabulary.formUnion(title.variants) }
        let words = vocabulary.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        var ids: [String: UInt32] = [:]
        ids.reserveCapacity(words.count)
        for (index, word) in words.enumerated() { ids[word] = UInt32(index) }
        progress(0.85)
        // Title words as ids; postings: each word's titles in rank order, once each.
        var titleWords: [UInt32] = [], titleStarts: [UInt32] = [0]
        var plainCounts: [UInt16] = [], coreCounts: [UInt16] = []
        var lists = [[UInt32]](repeating: [], count: words.count)
        for (offset, title) in titles.enumerated() {
            let rank = UInt32(offset + 1)
            for word in title.plain + title.variants {
                let id = ids[word]!
                titleWords.append(id)
                if lists[Int(id)].last != rank { lists[Int(id)].append(rank) }
            }
            guard titleWords.count < Int(UInt32.max) else { throw .storage("the movie file has more title words than an index holds (4294967295)") }
            titleStarts.append(UInt32(titleWords.count))
            plainCounts.append(UInt16(clamping: title.plain.count))
            coreCounts.append(UInt16(clamping: title.core))
        }
        var postings: [UInt32] = [], postingStarts: [UInt32] = [0]
        for list in lists {
            postings.append(contentsOf: list)
            postingStarts.append(UInt32(postings.count))
        }
        let pairOnly = pairs.subtracting(plainWords)
        let flags = words.map { word -> UInt8 in
            let typo = SearchRanking.allowedEdits(forLength: word.count) > 0 && !word.allSatisfy(\.isNumber) && !pairOnly.contains(word)
            return typo ? SearchCorpus.typoFlag : 0
        }
        progress(0.9)
        let corpus = SearchCorpus(
            words: words, postings: postings, postingStarts: postingStarts, flags: flags, titleWords: titleWords,
            titleStarts: titleStarts, plainCounts: plainCounts, coreCounts: coreCounts,
            votes: ranked.map { UInt32(clamping: $0.votes) }, years: ranked.map { UInt16(clamping: $0.year) },
            display: display.rows())
        return (ranked, corpus)
    }
}
