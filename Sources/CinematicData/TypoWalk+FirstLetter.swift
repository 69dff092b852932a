/// A typo lookup whose cost is bounded by one letter's words, not the vocabulary's (issue
/// "Search that knows a film by every name", part 5: at 1,000,000 films a walk of the whole
/// vocabulary cost 1.5 ms for one edit and 5 ms for two).
extension TypoWalk {
    /// The words within `limit` edits of `query` and not equal to it, with their distance:
    /// those of `query`'s first letter by walking that letter's words only
    /// (``words(near:limit:in:range:)``), and those one edit away whose first letter differs
    /// by lookup, not by walking: an edit at the start is a first letter replaced, one added
    /// or one dropped, or the first two letters swapped, so each is one word to look up per
    /// first letter of the vocabulary, `letters` (``SearchCorpus/firstLetters()``, read once
    /// by the caller: a few dozen for the shipped catalog, so a few dozen binary searches).
    ///
    /// With `limit` 1 this is exactly what walking the whole vocabulary finds. With `limit`
    /// 2, the words two edits away are those of the same first letter: a word whose first
    /// letter is wrong and that holds a second typo is not found (people rarely miss a first
    /// letter; a title's other words still find the film).
    static func wordsKeepingStart(near query: [UInt32], limit: Int, in corpus: SearchCorpus,
                                  letters: [UInt32]) -> [(id: Int, distance: Int)] {
        guard let first = query.first, limit >= 1, corpus.wordCount > 0 else { return words(near: query, limit: limit, in: corpus) }
        var found = words(near: query, limit: limit, in: corpus, range: corpus.range(ofPrefix: [first]))
        var seen = Set(found.map(\.id))
        func note(_ candidate: [UInt32]) {
            guard !candidate.isEmpty, candidate != query, let id = corpus.id(ofScalars: candidate), seen.insert(id).inserted else { return }
            found.append((id, 1))
        }
        let rest = Array(query.dropFirst())
        note(rest)                                                              // the first letter dropped
        if query.count >= 2 { note([query[1], query[0]] + query.dropFirst(2)) } // the first two swapped
        for letter in letters where letter != first {
            note([letter] + rest)                                               // the first letter replaced
            note([letter] + query)                                              // a letter added before
        }
        return found.sorted { $0.id < $1.id }
    }
}

extension SearchCorpus {
    /// The id of the word made of `scalars`, nil when the vocabulary lacks it.
    func id(ofScalars key: [UInt32]) -> Int? {
        let range = range(ofPrefix: key)
        return !range.isEmpty && scalars(of: range.lowerBound).elementsEqual(key) ? range.lowerBound : nil
    }

    /// The first scalars of the vocabulary's words, in order: one binary search per letter.
    func firstLetters() -> [UInt32] {
        var letters: [UInt32] = []
        var id = 0
        while id < wordCount {
            let letter = scalar(at: Int(scalarStarts[id]))
            letters.append(letter)
            id = end(ofPrefix: [letter], from: id)
        }
        return letters
    }
}
