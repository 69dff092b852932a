import CinematicDomain

/// A run of word ids read in place.
typealias CorpusSlice = Slice<UnsafeBufferPointer<UInt32>>

/// A word's unicode scalars read in place (one byte or four each: ``SearchCorpus/narrowScalars``),
/// indexed by their positions in the vocabulary's scalars.
struct ScalarRun: RandomAccessCollection {
    let base: UnsafeRawPointer
    let narrow: Bool
    let startIndex: Int, endIndex: Int

    /// The scalar at `position` (in `startIndex..<endIndex`).
    subscript(position: Int) -> UInt32 {
        narrow ? UInt32(base.load(fromByteOffset: position, as: UInt8.self)) : base.load(fromByteOffset: 4 * position, as: UInt32.self)
    }
}

/// Everything a keystroke needs, read where the index lies (``CorpusLayout``): the vocabulary
/// (sorted by bytes, so the words that start with a prefix are one contiguous range of word
/// ids), each word's postings (the popularity ranks of the titles holding it, ascending, so
/// most popular first), each title's words as ids with the figures the score reads, and the
/// fields of a result row. Opening builds no collection over them: every array is a view of
/// the index's bytes (``IndexBytes``), and strings are decoded only for the words and films a
/// search reads or a state shows. A search does no SQL.
///
/// Ranks are 1-based (1 = most votes), like the `movies` table's primary key; title `rank`'s
/// arrays sit at index `rank - 1`.
final class SearchCorpus: @unchecked Sendable {
    /// The bytes every view below reads; they live as long as the corpus.
    let storage: IndexBytes
    /// Number of words and of titles.
    let wordCount: Int, count: Int
    /// Every word's unicode scalars, one after another: one byte each when every scalar of the
    /// vocabulary is below 256 (``narrowScalars``: the part's length is the scalars' count),
    /// else four; word `i` is `scalars(of: i)`, positions `scalarStarts[i]..<scalarStarts[i + 1]`.
    let scalarBytes: UnsafeRawBufferPointer
    let narrowScalars: Bool
    /// The number of scalars.
    let scalarCount: Int
    let scalarStarts: UnsafeBufferPointer<UInt32>
    /// `sharedPrefix[i]`: how many leading scalars word `i` shares with word `i + 1` (at most
    /// 255), so a walk of the sorted vocabulary (``TypoWalk``) knows what it shares with the
    /// word before and where the words under a prefix end without comparing strings.
    let sharedPrefix: UnsafeBufferPointer<UInt8>
    /// Word `i`'s postings are `postings[postingStarts[i]..<postingStarts[i + 1]]`.
    let postings: UnsafeBufferPointer<UInt32>
    let postingStarts: UnsafeBufferPointer<UInt32>
    /// Per word: bit 0 (``typoFlag``) set when the word is in the typo index (4+ letters, not
    /// a number, not only two adjacent title words joined); bit 1 (``stopFlag``) when it is a
    /// stopword (``SearchText/stopwords``).
    let flags: UnsafeBufferPointer<UInt8>
    /// Title `r`'s words are `titleWords[titleStarts[r - 1]..<titleStarts[r]]`: its plain
    /// words first (`plainCounts`), then the other forms it is found by.
    let titleWords: UnsafeBufferPointer<UInt32>
    let titleStarts: UnsafeBufferPointer<UInt32>
    let plainCounts: UnsafeBufferPointer<UInt16>
    /// Plain words that are not stopwords, per title.
    let coreCounts: UnsafeBufferPointer<UInt16>
    let votes: UnsafeBufferPointer<UInt32>
    let years: UnsafeBufferPointer<UInt16>
    /// Per title: bit `i` set when plain word `i` (1...31) begins a part (``TitleSegments``).
    let titleParts: UnsafeBufferPointer<UInt32>
    /// The ranks ordered by movie id (then rank): a Detail's id found by binary search.
    let idRanks: UnsafeBufferPointer<UInt32>
    /// The result row of each title.
    let display: MovieRows
    /// The most frequent words of any prefix range (``PrefixTopWords``).
    let topWords: PrefixTopWords
    /// Bit of ``flags``: the word is in the typo index.
    static let typoFlag: UInt8 = 1
    /// Bit of ``flags``: the word is a stopword.
    static let stopFlag: UInt8 = 2

    /// The corpus of `section` (a search section inside `storage`'s bytes). Its frame is
    /// always checked (``CorpusLayout/parts(of:)``); with `checking`, every value too, in one
    /// pass (``SearchCorpusCheck``): a file's section is hostile until proven ours. The
    /// library's own embedded section is read unchecked (it is its own read-only data).
    init(storage: IndexBytes, section: UnsafeRawBufferPointer, checking: Bool) throws(MovieError) {
        let (films, words, parts) = try CorpusLayout.parts(of: section)
        func view<T>(_ part: CorpusLayout.Part, _ type: T.Type) -> UnsafeBufferPointer<T> { IndexBytes.view(parts[part.rawValue], as: T.self) }
        self.storage = storage
        wordCount = words
        count = films
        scalarStarts = view(.scalarStarts, UInt32.self)
        scalarBytes = parts[CorpusLayout.Part.scalars.rawValue]
        let total = Int(scalarStarts.last ?? 0)
        guard scalarBytes.count == total || scalarBytes.count == 4 * total else {
            throw .storage("the index is damaged: its words hold \(scalarBytes.count) bytes for \(total) scalars")
        }
        narrowScalars = scalarBytes.count == total
        scalarCount = total
        sharedPrefix = view(.sharedPrefix, UInt8.self)
        postings = view(.postings, UInt32.self)
        postingStarts = view(.postingStarts, UInt32.self)
        flags = view(.flags, UInt8.self)
        titleWords = view(.titleWords, UInt32.self)
        titleStarts = view(.titleStarts, UInt32.self)
        plainCounts = view(.plainCounts, UInt16.self)
        coreCounts = view(.coreCounts, UInt16.self)
        votes = view(.votes, UInt32.self)
        years = view(.years, UInt16.self)
        titleParts = view(.titleParts, UInt32.self)
        idRanks = view(.idRanks, UInt32.self)
        topWords = PrefixTopWords(tree: view(.topWords, Int32.self), postingStarts: postingStarts)
        let rows = MovieRows(
            titleBytes: view(.displayTitles, UInt8.self), titleStarts: view(.displayStarts, UInt32.self), ids: view(.ids, UInt32.self),
            years: years, runtimes: view(.runtimes, UInt16.self), ratings: view(.ratings, Double.self), votes: votes,
            genreIndexes: view(.genreIndexes, UInt16.self), genreLists: try MovieRows.strings(parts[CorpusLayout.Part.genreLists.rawValue], "genre_lists"),
            mpaaIndexes: view(.mpaaIndexes, UInt16.self), mpaaValues: try MovieRows.strings(parts[CorpusLayout.Part.mpaaValues.rawValue], "mpaa_values"))
        display = rows
        if checking { try SearchCorpusCheck(films: films).check(self) }
    }

    /// True when word `id` is a stopword.
    func isStop(_ id: UInt32) -> Bool { flags[Int(id)] & Self.stopFlag != 0 }

    /// How many titles hold word `id`.
    func frequency(_ id: UInt32) -> Int { Int(postingStarts[Int(id) + 1] - postingStarts[Int(id)]) }

    /// The ranks of the titles holding word `id`, most popular first.
    func postings(of id: UInt32) -> CorpusSlice {
        postings[Int(postingStarts[Int(id)])..<Int(postingStarts[Int(id) + 1])]
    }

    /// Title `rank`'s word ids (plain words first).
    func titleWords(ofRank rank: Int) -> CorpusSlice {
        titleWords[Int(titleStarts[rank - 1])..<Int(titleStarts[rank])]
    }

    /// Word `id`'s scalars.
    func scalars(of id: Int) -> ScalarRun {
        ScalarRun(base: scalarBytes.baseAddress ?? UnsafeRawPointer(scalarStarts.baseAddress!), narrow: narrowScalars,
                  startIndex: Int(scalarStarts[id]), endIndex: Int(scalarStarts[id + 1]))
    }

    /// The scalar at `position` of the vocabulary's scalars.
    @inline(__always) func scalar(at position: Int) -> UInt32 {
        narrowScalars ? UInt32(scalarBytes[position]) : scalarBytes.load(fromByteOffset: 4 * position, as: UInt32.self)
    }

    /// Word `id` as a string (decoded now: nothing holds the vocabulary as strings).
    func word(_ id: Int) -> String {
        var text = String.UnicodeScalarView()
        for value in scalars(of: id) { text.append(Unicode.Scalar(value) ?? "\u{FFFD}") }
        return String(text)
    }

    /// The id of `word`, nil when the vocabulary lacks it: a binary search of the sorted words.
    func id(of word: String) -> UInt32? {
        let key = Array(word.unicodeScalars.lazy.map(\.value))
        var low = 0, high = wordCount
        while low < high {
            let middle = (low + high) / 2
            if Self.precedes(scalars(of: middle), key) { low = middle + 1 } else { high = middle }
        }
        return low < wordCount && scalars(of: low).elementsEqual(key) ? UInt32(low) : nil
    }

    /// The rank of the film with movie id `id` (the most popular one if several), nil when none.
    func rank(ofMovie id: UInt32) -> Int? {
        var low = 0, high = idRanks.count
        while low < high {
            let middle = (low + high) / 2
            if display.ids[Int(idRanks[middle]) - 1] < id { low = middle + 1 } else { high = middle }
        }
        guard low < idRanks.count, display.ids[Int(idRanks[low]) - 1] == id else { return nil }
        return Int(idRanks[low])
    }

    /// The ids of the words that start with `prefix` (`prefix` itself included when it is a
    /// word, first): a contiguous range, found by binary search.
    func range(ofPrefix prefix: [UInt32]) -> Range<Int> {
        var low = 0, high = wordCount
        while low < high {
            let middle = (low + high) / 2
            if Self.precedes(scalars(of: middle), prefix) { low = middle + 1 } else { high = middle }
        }
        return low..<end(ofPrefix: prefix[...], from: low)
    }

    /// The first id at or after `start` whose word does not start with `prefix` (every word
    /// from `start` on that does is contiguous).
    func end(ofPrefix prefix: ArraySlice<UInt32>, from start: Int) -> Int {
        var low = start, high = wordCount
        while low < high {
            let middle = (low + high) / 2
            if scalars(of: middle).starts(with: prefix) { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// True when `a` sorts before `b` (scalar order is UTF-8 byte order).
    static func precedes<A: Collection<UInt32>, B: Collection<UInt32>>(_ a: A, _ b: B) -> Bool {
        a.lexicographicallyPrecedes(b)
    }

    /// True when word `whole` is words `first` and `second` written together.
    func joins(_ first: UInt32, _ second: UInt32, into whole: UInt32) -> Bool {
        let a = scalars(of: Int(first)), b = scalars(of: Int(second)), w = scalars(of: Int(whole))
        guard a.count + b.count == w.count else { return false }
        return w.prefix(a.count).elementsEqual(a) && w.suffix(b.count).elementsEqual(b)
    }
}
