/// Series: "die hard 3", "harry potter part 2", "star trek ii", "shrek two".
///
/// A query that ends with a sequel number (1...20 as digits, a roman numeral or a number word,
/// maybe after "part", "chapter", "episode" or "vol") names a series with its other words.
/// The series is the titles starting with those words (a leading article aside; a remake of the same title counts once, as its most voted film) that have at least
/// a tenth of the votes of its most voted one. A title carrying a number right after the
/// name ("Die Hard 2", "Rocky III", "Part II", "Episode V", "Ocean's Eleven") is that
/// number; the others take the numbers left, in year order (ties: most votes first). So "die
/// hard 3" is Die Hard: With a Vengeance (Die Hard 1988, Die Hard 2, then 1995), "star wars
/// 4" is Star Wars (Episodes I, II, III, V and VI carry theirs), "harry potter 3" the
/// Prisoner of Azkaban; a number the title does carry wins ("rocky 3" is Rocky III).
extension SearchEngine {
    /// The film numbered as the query's last word in the series its other words name, among
    /// `candidates` (the titles matching all of them), or nil (no sequel number, no such film).
    func nthFilm(_ query: SearchQuery, in candidates: [Int]) -> Int? {
        guard let numeral = query.terms.last, numeral.index >= 1 else { return nil }
        let before = query.terms[numeral.index - 1]
        guard let wanted = SearchWordForms.number(numeral.text, after: before.text, isLast: true) else { return nil }
        let name = Array(query.terms.prefix(before.isMarker ? numeral.index - 1 : numeral.index))
        guard name.contains(where: { !$0.isStop }) else { return nil }
        var members: [(rank: Int, year: Int, number: Int?)] = []
        var titles: Set<[UInt32]> = []
        var top = 0
        for rank in candidates.sorted() {   // most votes first
            let index = rank - 1
            let plain = corpus.titleWords(ofRank: rank).prefix(Int(corpus.plainCounts[index]))
            guard let after = end(of: name, in: plain), titles.insert(Array(plain)).inserted else { continue }
            let votes = Int(corpus.votes[index])
            top = max(top, votes)
            guard votes * 10 >= top else { continue }
            members.append((rank, Int(corpus.years[index]), carriedNumber(plain, from: after)))
        }
        guard members.count >= 2 || members.first?.number == wanted else { return nil }
        var carried: [Int: Int] = [:]
        for member in members { if let number = member.number, carried[number] == nil { carried[number] = member.rank } }
        if let rank = carried[wanted] { return rank }
        var next = 1
        for member in members.filter({ $0.number == nil }).sorted(by: { ($0.year, $0.rank) < ($1.year, $1.rank) }) {
            while carried[next] != nil { next += 1 }
            if next == wanted { return member.rank }
            next += 1
        }
        return nil
    }

    /// Where the series name `name` ends in a title's plain words, when the title starts with
    /// it: word for word, or, when their first words differ, past a leading article of the
    /// title ("lord of the rings" starts "The Lord of the Rings: ...") and a leading "the",
    /// "a" or "an" of the name. Nil otherwise ("die hard" is no start of "A Hard Day's Night").
    private func end(of name: [SearchQuery.Term], in plain: CorpusSlice) -> Int? {
        guard let first = name.first, var position = plain.indices.first else { return nil }
        var words = name[...]
        if !matches(first, plain[position]) {
            if SearchText.stopwords.contains(corpus.word(Int(plain[position]))) { position += 1 }
            if ["the", "a", "an"].contains(first.text) { words = words.dropFirst() }
        }
        for term in words {
            guard position < plain.endIndex, matches(term, plain[position]) else { return nil }
            position += 1
        }
        return position
    }

    private func matches(_ term: SearchQuery.Term, _ word: UInt32) -> Bool {
        term.lookup[word] != nil || term.isPrefix && term.prefixIDs.contains(Int(word))
    }

    /// The number a title carries right after its series name (after "part", "episode", ...
    /// when it says so): "2" of "Die Hard 2", "V" of "Star Trek V: The Final Frontier",
    /// "Eleven" of "Ocean's Eleven".
    private func carriedNumber(_ plain: CorpusSlice, from position: Int) -> Int? {
        guard position < plain.endIndex else { return nil }
        var word = corpus.word(Int(plain[position]))
        var marked = false
        if SearchWordForms.seriesMarkers.contains(word), position + 1 < plain.endIndex {
            word = corpus.word(Int(plain[position + 1]))
            marked = true
        }
        if word == "i" && !marked { return nil }
        return SearchWordForms.number(word, after: "part", isLast: true)
    }
}
