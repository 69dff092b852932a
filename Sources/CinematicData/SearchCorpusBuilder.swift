import CinematicDomain

/// Builds a search section (``CorpusLayout``) from a catalog's rows: ranks them by
/// popularity, reads each title's index words (``SearchText``), and collects the vocabulary,
/// postings and result rows. Deterministic: the same rows give the same section, byte for byte.
enum SearchCorpusBuilder {
    /// The rows in rank order (most votes first, then smaller id) and the section's parts.
    /// `progress` is called with the share of titles read (0...1), every 4,096 titles.
    static func build(_ rows: [CatalogRow], progress: (Double) -> Void = { _ in }) throws(MovieError) -> (ranked: [CatalogRow], corpus: CorpusParts) {
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
            return (typo ? SearchCorpus.typoFlag : 0) | (SearchText.stopwords.contains(word) ? SearchCorpus.stopFlag : 0)
        }
        progress(0.9)
        var parts = display.parts()
        parts[.titleWords] = CorpusLayout.bytes(titleWords)
        parts[.titleStarts] = CorpusLayout.bytes(titleStarts)
        parts[.plainCounts] = CorpusLayout.bytes(plainCounts)
        parts[.coreCounts] = CorpusLayout.bytes(coreCounts)
        parts[.votes] = CorpusLayout.bytes(ranked.map { UInt32(clamping: $0.votes) })
        parts[.years] = CorpusLayout.bytes(ranked.map { UInt16(clamping: $0.year) })
        return (ranked, CorpusParts(words: words, postings: postings, postingStarts: postingStarts, flags: flags, films: ranked.count, parts: parts))
    }
}

/// A search section's parts before they are laid out (``CorpusLayout``).
struct CorpusParts {
    let films: Int
    let words: Int
    /// One per ``CorpusLayout/Part``, in order.
    let parts: [[UInt8]]

    /// The parts of a vocabulary (`words`, sorted by bytes, with their postings and flags) and
    /// of `films` titles (`parts`: every other part).
    init(words: [String], postings: [UInt32], postingStarts: [UInt32], flags: [UInt8], films: Int,
         parts other: [CorpusLayout.Part: [UInt8]]) {
        var scalars: [UInt32] = [], starts: [UInt32] = [0]
        scalars.reserveCapacity(words.count * 8)
        starts.reserveCapacity(words.count + 1)
        for word in words {
            for scalar in word.unicodeScalars { scalars.append(scalar.value) }
            starts.append(UInt32(scalars.count))
        }
        var shared = [UInt8](repeating: 0, count: words.count)
        for index in words.indices.dropLast() {
            let a = Int(starts[index]), b = Int(starts[index + 1]), end = Int(starts[index + 2])
            var length = 0
            while length < 255, a + length < b, b + length < end, scalars[a + length] == scalars[b + length] { length += 1 }
            shared[index] = UInt8(length)
        }
        var frequencies = [UInt32](repeating: 0, count: words.count)
        for index in words.indices { frequencies[index] = postingStarts[index + 1] - postingStarts[index] }
        var all = other
        // One byte a scalar when every scalar fits (the shipped vocabulary is folded to ASCII).
        all[.scalars] = scalars.allSatisfy { $0 < 256 } ? scalars.map { UInt8($0) } : CorpusLayout.bytes(scalars)
        all[.scalarStarts] = CorpusLayout.bytes(starts)
        all[.sharedPrefix] = shared
        all[.flags] = flags
        all[.postingStarts] = CorpusLayout.bytes(postingStarts)
        all[.postings] = CorpusLayout.bytes(postings)
        all[.topWords] = CorpusLayout.bytes(PrefixTopWords.tree(frequencies: frequencies))
        self.films = films
        self.words = words.count
        parts = CorpusLayout.Part.allCases.map { all[$0] ?? [] }
    }

    /// The section, laid out to start at `offset` of its file, with the file's trailer.
    func section(offset: Int) -> [UInt8] {
        CorpusLayout.section(films: films, words: words, parts: parts, offset: offset)
    }

    /// The corpus over these parts, in a private buffer (an index built in memory).
    func corpus() throws(MovieError) -> SearchCorpus {
        let bytes = section(offset: 0)
        let storage = bytes.withUnsafeBytes { IndexBytes(copying: $0) }
        let section = UnsafeRawBufferPointer(rebasing: storage.bytes[..<(bytes.count - CorpusLayout.trailerBytes)])
        return try SearchCorpus(storage: storage, section: section, checking: false)
    }
}
