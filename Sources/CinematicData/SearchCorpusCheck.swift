import CinematicDomain

/// The checks an index's search arrays pass before a search may read them (a file we read is
/// hostile until proven ours): counts agree, offsets are in range and ascending, the
/// vocabulary is sorted, postings ascend, numbers are finite and in range. The first failure
/// throws `.storage` naming the field ("the index's words are not sorted at word 12").
/// Linear in the arrays' sizes.
struct SearchCorpusCheck {
    /// The number of titles (the length of every per-title array).
    let films: Int

    /// Checks every array (see the type's description).
    func check(words: [String], postings: [UInt32], postingStarts: [UInt32], flags: [UInt8],
               titleWords: [UInt32], titleStarts: [UInt32], plainCounts: [UInt16], coreCounts: [UInt16],
               years: [UInt16], display: MovieRows) throws(MovieError) {
        let counts: [(name: String, count: Int, expected: Int)] = [
            ("flags", flags.count, words.count), ("plain_counts", plainCounts.count, films), ("core_counts", coreCounts.count, films),
            ("years", years.count, films), ("ids", display.ids.count, films), ("runtimes", display.runtimes.count, films),
            ("ratings", display.ratings.count, films), ("genre_indexes", display.genreIndexes.count, films),
            ("mpaa_indexes", display.mpaaIndexes.count, films),
        ]
        for (name, count, expected) in counts {
            try require(count == expected, name, "has \(count) entries for \(expected)")
        }
        try require(films > 0 && films < Int(UInt32.max), "votes", "holds no film")
        try checkWords(words)
        try checkOffsets(postingStarts, name: "posting_starts", entries: words.count, total: postings.count)
        for word in words.indices {
            var previous: UInt32 = 0
            for rank in postings[Int(postingStarts[word])..<Int(postingStarts[word + 1])] {
                try require(rank > previous && Int(rank) <= films, "postings", "of word \(word) are not ascending ranks in 1...\(films)")
                previous = rank
            }
        }
        try checkOffsets(titleStarts, name: "title_starts", entries: films, total: titleWords.count)
        try require(titleWords.allSatisfy { Int($0) < words.count }, "title_words", "names a word past the vocabulary")
        for index in 0..<films {
            let count = Int(titleStarts[index + 1] - titleStarts[index])
            try require(Int(plainCounts[index]) <= count && Int(coreCounts[index]) <= Int(plainCounts[index]),
                        "plain_counts", "of title \(index + 1) exceed its words")
        }
        try checkOffsets(display.titleStarts, name: "display_starts", entries: films, total: display.titleBytes.count)
        try require(display.ratings.allSatisfy { $0.isFinite && (0...10).contains($0) }, "ratings", "holds a value that is not a number in 0...10")
        try require(display.genreIndexes.allSatisfy { Int($0) < display.genreLists.count }, "genre_indexes", "names a genre list past genre_lists")
        try require(display.mpaaIndexes.allSatisfy { Int($0) < display.mpaaValues.count }, "mpaa_indexes", "names a rating past mpaa_values")
    }

    /// The vocabulary: non-empty words, strictly ascending by UTF-8 bytes (a prefix's words
    /// are one range, and the typo walk shares rows between neighbours).
    private func checkWords(_ words: [String]) throws(MovieError) {
        for (index, word) in words.enumerated() {
            try require(!word.isEmpty, "words", "holds an empty word at \(index)")
            if index > 0 {
                try require(words[index - 1].utf8.lexicographicallyPrecedes(word.utf8), "words", "are not sorted at word \(index)")
            }
        }
    }

    /// `starts` has `entries + 1` ascending offsets, from 0 to `total`.
    private func checkOffsets(_ starts: [UInt32], name: String, entries: Int, total: Int) throws(MovieError) {
        try require(starts.count == entries + 1 && starts.first == 0 && starts.last.map(Int.init) == total,
                    name, "does not cover its \(entries) entries")
        try require(zip(starts, starts.dropFirst()).allSatisfy { $0 <= $1 }, name, "is not ascending")
    }

    private func require(_ condition: Bool, _ field: String, _ what: String) throws(MovieError) {
        guard condition else { throw .storage("the index is damaged: its \(field) \(what)") }
    }
}
