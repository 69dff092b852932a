/// How one query word matches one title, and what a title found by most of the query leaves
/// out (the words a search's hint names: "the dark knight" → First Knight leaves out "dark").
extension SearchRanking {
    /// How well `term` matches `title`: the best quality among the title's words (a word or
    /// another form of it, the word being typed as a prefix), the film's year or genre (exact,
    /// no title word), or two adjacent query words joined (``SearchQuery/joined``); 0 when
    /// nothing matches. Returns the quality, the title word matched, and whether the year did.
    @inline(__always)
    static func match(_ term: UnsafePointer<SearchQuery.Term>, _ title: Title,
                      joined: [(word: String, id: UInt32, first: Int, second: Int)]) -> (Double, UInt32?, Bool) {
        var best = 0.0
        var bestWord: UInt32?
        var isYear = false
        let words = title.words
        for word in words {
            if let quality = term.pointee.lookup[word], quality > best {
                best = quality
                bestWord = word
            } else if term.pointee.isPrefix, best < SearchQuery.prefix, term.pointee.prefixIDs.contains(Int(word)), word != term.pointee.id {
                best = SearchQuery.prefix
                bestWord = word
            }
        }
        if best < SearchQuery.exact, let wanted = term.pointee.years, wanted.contains(title.year) {
            best = SearchQuery.exact
            bestWord = nil
            isYear = true
        }
        if best < SearchQuery.exact, term.pointee.genres & title.genres != 0 {
            best = SearchQuery.exact
            bestWord = nil
        }
        if best < SearchQuery.joinedWords, let pair = joined.first(where: { pair in
            (pair.first == term.pointee.index || pair.second == term.pointee.index) && words.contains(pair.id)
        }) {
            best = SearchQuery.joinedWords
            bestWord = pair.id
        }
        return (best, bestWord, isYear)
    }

    /// The indexes of the query's words (stopwords and words about the medium aside) that
    /// `title` does not match, once a lone missing word's typo is forgiven as ``score(_:_:corpus:missing:)``
    /// forgives it ("forest gump" leaves nothing out of Forrest Gump).
    static func unmatched(_ query: SearchQuery, _ title: Title, corpus: SearchCorpus) -> [Int] {
        let missing = query.terms.withUnsafeBufferPointer { terms in
            terms.indices.filter { index in
                !terms[index].isStop && !terms[index].isMedium && match(terms.baseAddress! + index, title, joined: query.joined).0 == 0
            }
        }
        if missing.count == 1, typo(of: query.terms[missing[0]], in: title.words.prefix(title.plainCount), corpus: corpus) != nil { return [] }
        return missing
    }
}
