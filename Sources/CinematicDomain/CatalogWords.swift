/// The words ``SearchHint`` reads a query by: a query's words, the genres people name and the
/// catalog lacks, the words that introduce a person, and given names.
enum CatalogWords {
    /// `text` lowercased, split into words at anything but letters and digits (an apostrophe
    /// joins: "schindler's" → "schindlers").
    static func words(of text: String) -> [String] {
        var words: [String] = []
        var current = ""
        for character in text {
            if character == "'" || character == "\u{2019}" { continue }
            if character.isLetter || character.isNumber {
                current += character.lowercased()
            } else if !current.isEmpty {
                words.append(current)
                current = ""
            }
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    /// `word` with its first letter uppercased ("hanks" → "Hanks").
    static func capitalized(_ word: String) -> String { word.prefix(1).uppercased() + word.dropFirst() }

    /// Words a query about a genre may hold besides genres: "best 80s horror movies".
    private static let genreFillers: Set<String> = [
        "movie", "movies", "film", "films", "from", "the", "a", "an", "of", "best", "good", "great", "top", "old",
        "classic", "classics", "new", "recent", "genre", "and", "or", "in",
    ]

    /// The catalog's genres as people type them (``Genre/all``, plurals and adjectives).
    private static let catalogGenres: Set<String> = [
        "action", "animation", "animated", "cartoon", "cartoons", "comedy", "comedies", "drama", "dramas",
        "documentary", "documentaries", "romance", "romances", "romantic", "short", "shorts",
    ]

    /// Genres people name that the catalog does not have: phrase (its words joined by a space)
    /// → the genre's name.
    private static let missingGenres: [String: String] = [
        "horror": "horror", "horrors": "horror", "thriller": "thriller", "thrillers": "thriller",
        "western": "western", "westerns": "western", "sci fi": "science fiction", "scifi": "science fiction",
        "science fiction": "science fiction", "sf": "science fiction", "musical": "musical", "musicals": "musical",
        "mystery": "mystery", "mysteries": "mystery", "crime": "crime", "fantasy": "fantasy", "fantasies": "fantasy",
        "adventure": "adventure", "adventures": "adventure", "war": "war", "noir": "film noir", "film noir": "film noir",
        "family": "family", "biography": "biography", "biographies": "biography", "biopic": "biography",
        "biopics": "biography", "history": "history", "historical": "history", "sport": "sport", "sports": "sport",
        "superhero": "superhero", "superheroes": "superhero", "martial arts": "martial arts", "kung fu": "martial arts",
        "anime": "anime", "disaster": "disaster", "spy": "spy", "heist": "heist", "slasher": "slasher",
        "slashers": "slasher", "zombie": "zombie", "zombies": "zombie", "teen": "teen", "gangster": "gangster",
        "gangsters": "gangster", "suspense": "suspense", "erotic": "erotic", "erotica": "erotic", "music": "music",
        "silent": "silent",
    ]

    /// The first genre the catalog lacks that `words` name, when every word is such a genre,
    /// a catalog genre, a filler or a period ("80s", "1990s", "1994", "nineties").
    static func missingGenre(in words: [String]) -> String? {
        var found: String?
        var index = 0
        while index < words.count {
            if index + 1 < words.count, let name = missingGenres[words[index] + " " + words[index + 1]] {
                found = found ?? name
                index += 2
                continue
            }
            let word = words[index]
            if let name = missingGenres[word] {
                found = found ?? name
            } else if !(genreFillers.contains(word) || catalogGenres.contains(word) || isPeriod(word)) {
                return nil
            }
            index += 1
        }
        return found
    }

    /// Decades spelled out.
    private static let spelledDecades: Set<String> = ["twenties", "thirties", "forties", "fifties", "sixties", "seventies", "eighties", "nineties"]

    /// A year (1890...2030) or a decade ("80s", "1980s", "eighties").
    private static func isPeriod(_ word: String) -> Bool {
        if spelledDecades.contains(word) { return true }
        let digits = word.hasSuffix("s") ? String(word.dropLast()) : word
        guard let value = Int(digits), digits.count == 2 || digits.count == 4 else { return false }
        return digits.count == 2 ? word.hasSuffix("s") && value % 10 == 0 : (1890...2030).contains(value)
    }

    /// Words that say a person comes next ("movies with", "directed by").
    private static let personCues: Set<String> = ["with", "starring", "featuring", "by", "directed", "director", "actor", "actress"]
    /// Words that may come before a cue ("movies with").
    private static let cueFillers: Set<String> = ["movie", "movies", "film", "films", "the", "a"]
    /// Words no name holds.
    private static let notNames: Set<String> = [
        "the", "a", "an", "of", "and", "in", "on", "at", "to", "for", "with", "from", "by", "is", "vs", "versus",
        "movie", "movies", "film", "films", "part", "ii", "iii", "iv",
    ]

    /// The name `words` look like, or nil: 2 or 3 words starting with a given name ("tom
    /// hanks"), or 1 to 3 words after a cue ("films by kubrick"); letters only.
    static func personName(in words: [String]) -> [String]? {
        var rest = words[...]
        var cued = false
        while let first = rest.first, cueFillers.contains(first) || personCues.contains(first) {
            if personCues.contains(first) { cued = true }
            rest = rest.dropFirst()
        }
        let name = Array(rest)
        guard (cued ? 1...3 : 2...3).contains(name.count),
              name.allSatisfy({ $0.count >= 2 && $0.allSatisfy(\.isLetter) && !notNames.contains($0) }),
              missingGenre(in: name) == nil, !name.contains(where: catalogGenres.contains) else { return nil }
        return cued || GivenNames.all.contains(name[0]) ? name : nil
    }

    /// True when `title` holds every word of `name`: the word, its possessive ("jones" in
    /// "joness"), or, for a word of 4 letters or more, a word one edit away.
    static func holds(_ title: [String], _ name: [String]) -> Bool {
        name.allSatisfy { word in
            title.contains { $0 == word || $0 == word + "s" || (word.count >= 4 && oneEditApart(Array($0.unicodeScalars), Array(word.unicodeScalars))) }
        }
    }

    /// True when `a` and `b` differ by one letter changed, added, removed, or two swapped.
    private static func oneEditApart(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Bool {
        guard abs(a.count - b.count) <= 1, a != b else { return false }
        var i = 0
        while i < min(a.count, b.count) && a[i] == b[i] { i += 1 }
        if a.count == b.count {
            if a[(i + 1)...] == b[(i + 1)...] { return true }
            return i + 1 < a.count && a[i] == b[i + 1] && a[i + 1] == b[i] && a[(i + 2)...] == b[(i + 2)...]
        }
        return a.count > b.count ? a[(i + 1)...] == b[i...] : a[i...] == b[(i + 1)...]
    }
}
