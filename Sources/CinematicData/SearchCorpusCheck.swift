import CinematicDomain

/// The checks a search section's contents pass before a search may read them (a file we read
/// is hostile until proven ours), in one pass over its arrays read in place: offsets are in
/// range and ascending, the vocabulary is sorted and made of unicode scalars, its shared
/// prefixes and frequency tree are what they say, postings ascend, numbers are finite and in
/// range. (Every part's place and length is checked before: ``CorpusLayout/parts(of:)``.)
/// Values any of whose settings is safe to read (the words' flags, years, votes, title parts)
/// are not checked: a crafted one changes a ranking, never where a search reads.
/// The first failure throws `.storage` naming the field ("the index is damaged: its words
/// are not sorted at word 12"). Linear in the section's size.
struct SearchCorpusCheck {
    /// The number of titles (the length of every per-title array).
    let films: Int

    /// Checks every array of `corpus` (see the type's description).
    func check(_ corpus: SearchCorpus) throws(MovieError) {
        try require(films > 0, "votes", "holds no film")
        let words = corpus.wordCount
        try checkOffsets(corpus.scalarStarts, name: "word_starts", total: corpus.scalarCount)
        try checkWords(corpus)
        try checkOffsets(corpus.postingStarts, name: "posting_starts", total: corpus.postings.count)
        for word in 0..<words {
            var previous: UInt32 = 0
            for rank in corpus.postings(of: UInt32(word)) {
                try require(rank > previous && Int(rank) <= films, "postings", "of word \(word) are not ascending ranks in 1...\(films)")
                previous = rank
            }
        }
        try require(corpus.topWords.isValid(words: words), "top_words", "do not rank the words by their postings")
        try checkOffsets(corpus.titleStarts, name: "title_starts", total: corpus.titleWords.count)
        try require(corpus.titleWords.allSatisfy { Int($0) < words }, "title_words", "names a word past the vocabulary")
        for index in 0..<films {
            let count = Int(corpus.titleStarts[index + 1] - corpus.titleStarts[index])
            try require(Int(corpus.plainCounts[index]) <= count && Int(corpus.coreCounts[index]) <= Int(corpus.plainCounts[index]),
                        "plain_counts", "of title \(index + 1) exceed its words")
        }
        let display = corpus.display
        try checkOffsets(display.titleStarts, name: "display_starts", total: display.titleBytes.count)
        try require(display.ratings.allSatisfy { $0.isFinite && (0...10).contains($0) }, "ratings", "holds a value that is not a number in 0...10")
        try require(display.genreIndexes.allSatisfy { Int($0) < display.genreLists.count }, "genre_indexes", "names a genre list past genre_lists")
        try require(display.mpaaIndexes.allSatisfy { Int($0) < display.mpaaValues.count }, "mpaa_indexes", "names a rating past mpaa_values")
        var previous: UInt32 = 0
        for (position, rank) in corpus.idRanks.enumerated() {
            try require(rank >= 1 && Int(rank) <= films, "id_ranks", "names a rank past the films")
            let id = display.ids[Int(rank) - 1]
            try require(position == 0 || id >= previous, "id_ranks", "are not in movie id order at \(position)")
            previous = id
        }
    }

    /// The vocabulary: non-empty words of unicode scalars, strictly ascending (a prefix's words
    /// are one range, and the typo walk shares rows between neighbours), each sharing with the
    /// next exactly the prefix its shared-prefix count says (at most 255).
    private func checkWords(_ corpus: SearchCorpus) throws(MovieError) {
        try require((0..<corpus.scalarCount).allSatisfy { Unicode.Scalar(corpus.scalar(at: $0)) != nil }, "words", "hold a value that is no unicode scalar")
        for index in 0..<corpus.wordCount {
            let word = corpus.scalars(of: index)
            try require(!word.isEmpty, "words", "hold an empty word at \(index)")
            guard index + 1 < corpus.wordCount else { continue }
            let next = corpus.scalars(of: index + 1)
            try require(SearchCorpus.precedes(word, next), "words", "are not sorted at word \(index + 1)")
            var shared = 0
            while shared < 255, shared < word.count, shared < next.count,
                  word[word.startIndex + shared] == next[next.startIndex + shared] { shared += 1 }
            try require(Int(corpus.sharedPrefix[index]) == shared, "shared_prefixes", "are wrong at word \(index)")
        }
    }

    /// `starts` ascends from 0 to `total` (its count is checked by the layout).
    private func checkOffsets(_ starts: UnsafeBufferPointer<UInt32>, name: StaticString, total: Int) throws(MovieError) {
        try require(starts.first == 0 && starts.last.map(Int.init) == total, name, "does not cover its entries")
        try require(zip(starts, starts.dropFirst()).allSatisfy { $0 <= $1 }, name, "is not ascending")
    }

    /// Throws `.storage` naming `field` when `condition` fails; the message is made only then
    /// (a check that passes, once per posting, word and film, builds no text).
    @inline(__always)
    private func require(_ condition: Bool, _ field: StaticString, _ what: @autoclosure () -> String) throws(MovieError) {
        guard condition else { throw .storage("the index is damaged: its \(field) \(what())") }
    }
}
