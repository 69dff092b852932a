import CinematicDomain

/// Builds a search section (``CorpusLayout``) from a catalog's films (``CatalogFilms``, in rank
/// order): reads each title's index words (``SearchText``) as it comes, and collects the
/// vocabulary, postings and result rows in flat arrays: words interned once (``WordTable``),
/// every title's word ids in one array, postings placed by a counting sort. Deterministic: the
/// same films give the same section, byte for byte.
enum SearchCorpusBuilder {
    /// The section's parts of `films`, each film handed to `each` (with its rank - 1) as it is
    /// read. `progress` is called with the share of titles read (0...1), every 4,096 titles.
    /// Frees the films once read (``CatalogFilms/release()``).
    static func build(_ films: CatalogFilms, progress: (Double) -> Void = { _ in },
                      each: (Int, CatalogRow) throws(MovieError) -> Void = { _, _ in }) throws(MovieError) -> CorpusParts {
        var titles = TitleWordLists(expectedWords: 2 * films.count)   // plain words, their forms, adjacent pairs
        // The rows parsed and handed to `each` on a thread of their own, the titles read here.
        try RowPipeline.run(films, each: each) { (offset, row) throws(MovieError) in
            if offset % 4096 == 0 { progress(0.8 * Double(offset) / Double(max(1, films.count))) }
            try titles.append(row)
        }
        films.release()
        titles.table.finishInterning()
        progress(0.85)
        // Vocabulary ids in byte order; title words renamed to them.
        let order = titles.table.sortedOrder()
        var rename = [UInt32](repeating: 0, count: order.count)
        for (position, id) in order.enumerated() { rename[Int(id)] = UInt32(position) }
        for index in titles.titleWords.indices { titles.titleWords[index] = rename[Int(titles.titleWords[index])] }
        let flags = order.map { id -> UInt8 in
            let kinds = titles.kinds[Int(id)]
            let pairOnly = kinds & TitleWordLists.pair != 0 && kinds & TitleWordLists.plain == 0
            let (length, isNumber, isStopword) = titles.table.withBytes(Int(id)) { bytes in
                // An ASCII word: a letter per byte, a number when all digits; else as text.
                guard bytes.isASCII else {
                    let word = String(decoding: bytes, as: UTF8.self)
                    return (word.count, word.allSatisfy(\.isNumber), SearchText.stopwords.contains(word))
                }
                return (bytes.count, bytes.allSatisfy { $0 &- UInt8(ascii: "0") < 10 }, ASCIITitleForms.isStopword(bytes))
            }
            let typo = SearchRanking.allowedEdits(forLength: length) > 0 && !isNumber && !pairOnly
            return (typo ? SearchCorpus.typoFlag : 0) | (isStopword ? SearchCorpus.stopFlag : 0)
        }
        rename = []
        titles.kinds = []
        let (postings, postingStarts) = postings(titleWords: titles.titleWords, titleStarts: titles.titleStarts, words: order.count)
        progress(0.9)
        var parts = titles.display.parts()
        titles.display = MovieRowsBuilder()
        parts[.titleWords] = CorpusLayout.bytes(titles.titleWords)
        titles.titleWords = []
        parts[.titleStarts] = CorpusLayout.bytes(titles.titleStarts)
        parts[.plainCounts] = CorpusLayout.bytes(titles.plainCounts)
        parts[.coreCounts] = CorpusLayout.bytes(titles.coreCounts)
        parts[.votes] = CorpusLayout.bytes(titles.votes)
        parts[.years] = CorpusLayout.bytes(titles.years)
        return CorpusParts(table: titles.table, order: order, postings: postings, postingStarts: postingStarts, flags: flags,
                           films: films.count, parts: parts)
    }

    /// Each word's titles in rank order, once each (a counting sort of the titles' words):
    /// the postings and where each word's begin.
    static func postings(titleWords: [UInt32], titleStarts: [UInt32], words: Int) -> (postings: [UInt32], starts: [UInt32]) {
        var counts = [UInt32](repeating: 0, count: words)
        do {
            var last = [UInt32](repeating: 0, count: words)   // the last rank counted per word
            for title in 0..<(titleStarts.count - 1) {
                let rank = UInt32(title + 1)
                for id in titleWords[Int(titleStarts[title])..<Int(titleStarts[title + 1])] where last[Int(id)] != rank {
                    last[Int(id)] = rank
                    counts[Int(id)] += 1
                }
            }
        }
        var starts = [UInt32](repeating: 0, count: words + 1)
        for id in 0..<words { starts[id + 1] = starts[id] + counts[id] }
        // `counts` becomes each word's next free place; a word already placed for this title
        // has it as its last posting (titles come in rank order).
        for id in 0..<words { counts[id] = starts[id] }
        var postings = [UInt32](repeating: 0, count: Int(starts[words]))
        for title in 0..<(titleStarts.count - 1) {
            let rank = UInt32(title + 1)
            for id in titleWords[Int(titleStarts[title])..<Int(titleStarts[title + 1])] {
                let next = Int(counts[Int(id)])
                if next > Int(starts[Int(id)]) && postings[next - 1] == rank { continue }
                postings[next] = rank
                counts[Int(id)] += 1
            }
        }
        return (postings, starts)
    }
}

/// The titles read so far, as flat arrays of word ids (ids of ``table``, first-seen order).
struct TitleWordLists {
    /// ``kinds`` bits: a word some title has as a plain word; one made of two adjacent words.
    static let plain: UInt8 = 1, pair: UInt8 = 2
    var table: WordTable
    /// Per word id: ``plain`` and ``pair`` bits (a word only ever joined gets no typo search).
    var kinds: [UInt8] = []
    /// Every title's words (its plain words, then its other forms), one title after another.
    var titleWords: [UInt32] = [], titleStarts: [UInt32] = [0]
    var plainCounts: [UInt16] = [], coreCounts: [UInt16] = [], votes: [UInt32] = [], years: [UInt16] = []
    var display = MovieRowsBuilder()
    private var ascii = ASCIITitleForms()

    /// No titles yet; the vocabulary sized for about `expectedWords` words.
    init(expectedWords: Int) { table = WordTable(expected: expectedWords) }

    /// Reads the next title (in rank order): its words from its bytes when it is ASCII
    /// (``ASCIITitleForms``), else as strings (``TitleForms``): the same words either way.
    mutating func append(_ row: CatalogRow) throws(MovieError) {
        let parts = TitleText.parts(ofCatalogTitle: row.catalogTitle)
        // A film known by another name shows it too, "Shichinin no samurai (Seven Samurai)",
        // whose words are then the title's own, that name a part of it (``TitleSegments``).
        var catalog = row.catalogTitle, shown = AlternateTitles.display(parts.display, shown: row.shownTitle)
        try display.append(row, display: parts.display, shown: row.shownTitle)
        let read = catalog.withUTF8 { catalog in
            shown.withUTF8 { shown in ascii.read(catalog: catalog, display: shown, articleMoved: parts.article != nil) }
        }
        if read {
            try ascii.bytes.withUnsafeBufferPointer { (bytes) throws(MovieError) in
                for word in ascii.plain { try note(UnsafeBufferPointer(rebasing: bytes[word]), as: Self.plain, adding: true) }
                // A joined pair is marked as it is added (the string reading notes it again).
                for (index, word) in ascii.variants.enumerated() {
                    try note(UnsafeBufferPointer(rebasing: bytes[word]), as: index >= ascii.firstJoined ? Self.pair : 0, adding: true)
                }
            }
            try endTitle(row, plainCount: ascii.plain.count, coreCount: ascii.coreCount)
        } else {
            let forms = TitleForms.read(catalogTitle: row.catalogTitle, parts: parts, display: shown)
            for word in forms.plain { try note(word, as: Self.plain, adding: true) }
            for word in forms.variants { try note(word, as: 0, adding: true) }
            for word in forms.joined { try note(word, as: Self.pair, adding: false) }
            try endTitle(row, plainCount: forms.plain.count, coreCount: forms.plain.count { !SearchText.stopwords.contains($0) })
        }
    }

    private mutating func endTitle(_ row: CatalogRow, plainCount: Int, coreCount: Int) throws(MovieError) {
        try appendAlternateTitles(row)
        guard titleWords.count < Int(UInt32.max) else { throw .storage("the movie file has more title words than an index holds (4294967295)") }
        titleStarts.append(UInt32(titleWords.count))
        plainCounts.append(UInt16(clamping: plainCount))
        coreCounts.append(UInt16(clamping: coreCount))
        votes.append(UInt32(clamping: row.votes))
        years.append(UInt16(clamping: row.year))
    }

    /// The words of the film's other names (``AlternateTitles``), each of their forms once and
    /// none already the title's: forms of the title (found as "another form", never plain
    /// words, so the stored title's coverage and exactness are its own).
    private mutating func appendAlternateTitles(_ row: CatalogRow) throws(MovieError) {
        guard !row.alternateTitles.isEmpty else { return }
        let start = Int(titleStarts[titleStarts.count - 1])
        for name in row.alternateTitles {
            let forms = TitleForms.read(catalogTitle: name, parts: TitleText.parts(ofCatalogTitle: name))
            for word in forms.plain + forms.variants {
                let id = try table.id(of: word)
                if !titleWords[start...].contains(id) { noted(id, as: 0, adding: true) }
            }
            for word in forms.joined { try note(word, as: Self.pair, adding: false) }
        }
    }

    /// Interns `word`, marks it `kind`, and with `adding` appends it to the title's words.
    private mutating func note(_ word: String, as kind: UInt8, adding: Bool) throws(MovieError) {
        noted(try table.id(of: word), as: kind, adding: adding)
    }

    /// ``note(_:as:adding:)`` of an ASCII word's bytes.
    private mutating func note(_ word: UnsafeBufferPointer<UInt8>, as kind: UInt8, adding: Bool) throws(MovieError) {
        noted(try table.id(ofASCII: word), as: kind, adding: adding)
    }

    private mutating func noted(_ id: UInt32, as kind: UInt8, adding: Bool) {
        if Int(id) == kinds.count { kinds.append(0) }
        kinds[Int(id)] |= kind
        if adding { titleWords.append(id) }
    }
}

/// A title's search words read as strings (``SearchText``, ``TitleText``): any title.
enum TitleForms {
    /// The display title's plain words (repeats kept); its other forms, each once and none a
    /// plain word: numerals, joined words, the catalog form's ("Godfather, The"), initials,
    /// then adjacent words joined ("Ghost Busters" is also "ghostbusters"; not a one-letter
    /// word such as an elided "d'" of "d'une": that is no "dune"); those joined among them.
    /// Linear per title: a word is checked against the title's earlier words in a set.
    static func read(catalogTitle: String, parts: TitleText.Parts, display: String? = nil) -> (plain: [String], variants: [String], joined: [String]) {
        let shown = display ?? parts.display, plain = SearchText.words(shown)
        var seen = Set(plain), variants: [String] = [], joinedWords: [String] = []
        // A title without a moved article is its own catalog form: its forms are read once.
        let catalogForms = parts.article == nil ? [] : SearchText.indexWords(ofTitle: catalogTitle)
        for word in SearchText.indexWords(ofTitle: shown, plain: plain) + catalogForms
        where seen.insert(word).inserted { variants.append(word) }
        for (first, second) in zip(plain, plain.dropFirst())
        where !first.dropFirst().isEmpty && !second.dropFirst().isEmpty
            && !SearchText.stopwords.contains(first) && !SearchText.stopwords.contains(second) {
            let joined = first + second
            if seen.insert(joined).inserted {
                variants.append(joined)
                joinedWords.append(joined)
            }
        }
        return (plain, variants, joinedWords)
    }
}
