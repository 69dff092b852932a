import CinematicDomain

/// Everything a keystroke needs, in memory: the vocabulary (sorted by bytes, so the words
/// that start with a prefix are one contiguous range of word ids), each word's postings (the
/// popularity ranks of the titles holding it, ascending, so most popular first), each
/// title's words as ids with the figures the score reads, and the fields of a result row.
/// A search does no SQL; the index file stores these arrays as blobs (``SearchCorpusBlobs``).
///
/// Ranks are 1-based (1 = most votes), like the `movies` table's primary key; title `rank`'s
/// arrays sit at index `rank - 1`.
final class SearchCorpus: Sendable {
    /// The vocabulary, sorted by UTF-8 bytes; a word's id is its index.
    let words: [String]
    /// Every word's unicode scalars, one after another; word `i` is
    /// `scalars[scalarStarts[i]..<scalarStarts[i + 1]]`.
    let scalars: [UInt32]
    let scalarStarts: [UInt32]
    /// Word → id.
    let ids: [String: UInt32]
    /// `sharedPrefix[i]`: how many leading scalars word `i` shares with word `i + 1` (at most
    /// 255), so a walk of the sorted vocabulary (``TypoWalk``) knows what it shares with the
    /// word before and where the words under a prefix end without comparing strings.
    let sharedPrefix: [UInt8]
    /// Word `i`'s postings are `postings[postingStarts[i]..<postingStarts[i + 1]]`.
    let postings: [UInt32]
    let postingStarts: [UInt32]
    /// Per word: bit 0 set when the word is in the typo index (4+ letters, not a number, not
    /// only two adjacent title words joined).
    let flags: [UInt8]
    /// Title `r`'s words are `titleWords[titleStarts[r - 1]..<titleStarts[r]]`: its plain
    /// words first (`plainCounts`), then the other forms it is found by.
    let titleWords: [UInt32]
    let titleStarts: [UInt32]
    let plainCounts: [UInt16]
    /// Plain words that are not stopwords, per title.
    let coreCounts: [UInt16]
    let votes: [UInt32]
    let years: [UInt16]
    /// The result row of each title.
    let display: MovieRows
    /// The most frequent words of any prefix range (``PrefixTopWords``).
    let topWords: PrefixTopWords
    /// The ids of the stopwords (``SearchText/stopwords``) the vocabulary holds.
    private let stopIDs: Set<UInt32>

    /// Bit of ``flags``: the word is in the typo index.
    static let typoFlag: UInt8 = 1

    init(words: [String], postings: [UInt32], postingStarts: [UInt32], flags: [UInt8], titleWords: [UInt32],
         titleStarts: [UInt32], plainCounts: [UInt16], coreCounts: [UInt16], votes: [UInt32], years: [UInt16],
         display: MovieRows) {
        self.words = words
        var scalars: [UInt32] = [], starts: [UInt32] = [0]
        scalars.reserveCapacity(words.count * 8)
        starts.reserveCapacity(words.count + 1)
        var ids: [String: UInt32] = [:]
        ids.reserveCapacity(words.count)
        for (index, word) in words.enumerated() {
            for scalar in word.unicodeScalars { scalars.append(scalar.value) }
            starts.append(UInt32(scalars.count))
            ids[word] = UInt32(index)
        }
        var shared = [UInt8](repeating: 0, count: words.count)
        for index in words.indices.dropLast() {
            let a = Int(starts[index]), b = Int(starts[index + 1]), end = Int(starts[index + 2])
            var length = 0
            while length < 255, a + length < b, b + length < end, scalars[a + length] == scalars[b + length] { length += 1 }
            shared[index] = UInt8(length)
        }
        self.sharedPrefix = shared
        self.scalars = scalars
        self.scalarStarts = starts
        self.ids = ids
        self.postings = postings
        self.postingStarts = postingStarts
        self.flags = flags
        self.titleWords = titleWords
        self.titleStarts = titleStarts
        self.plainCounts = plainCounts
        self.coreCounts = coreCounts
        self.votes = votes
        self.years = years
        self.display = display
        var frequencies = [UInt32](repeating: 0, count: words.count)
        for index in words.indices { frequencies[index] = postingStarts[index + 1] - postingStarts[index] }
        topWords = PrefixTopWords(frequencies: frequencies)
        stopIDs = Set(SearchText.stopwords.compactMap { ids[$0] })
    }

    /// True when word `id` is a stopword.
    func isStop(_ id: UInt32) -> Bool { stopIDs.contains(id) }

    /// Number of titles.
    var count: Int { votes.count }

    /// How many titles hold word `id`.
    func frequency(_ id: UInt32) -> Int { Int(postingStarts[Int(id) + 1] - postingStarts[Int(id)]) }

    /// The ranks of the titles holding word `id`, most popular first.
    func postings(of id: UInt32) -> ArraySlice<UInt32> {
        postings[Int(postingStarts[Int(id)])..<Int(postingStarts[Int(id) + 1])]
    }

    /// Title `rank`'s word ids (plain words first).
    func titleWords(ofRank rank: Int) -> ArraySlice<UInt32> {
        titleWords[Int(titleStarts[rank - 1])..<Int(titleStarts[rank])]
    }

    /// Word `id`'s scalars.
    func scalars(of id: Int) -> ArraySlice<UInt32> { scalars[Int(scalarStarts[id])..<Int(scalarStarts[id + 1])] }

    /// The ids of the words that start with `prefix` (`prefix` itself included when it is a
    /// word, first): a contiguous range, found by binary search.
    func range(ofPrefix prefix: [UInt32]) -> Range<Int> {
        var low = 0, high = words.count
        while low < high {
            let middle = (low + high) / 2
            if Self.precedes(scalars(of: middle), prefix) { low = middle + 1 } else { high = middle }
        }
        return low..<end(ofPrefix: prefix[...], from: low)
    }

    /// The first id at or after `start` whose word does not start with `prefix` (every word
    /// from `start` on that does is contiguous).
    func end(ofPrefix prefix: ArraySlice<UInt32>, from start: Int) -> Int {
        var low = start, high = words.count
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
