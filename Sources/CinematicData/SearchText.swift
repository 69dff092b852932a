/// How titles and queries become search words, the same way on both sides.
///
/// - Letters are lowercased and their diacritics folded ("Amélie" → "amelie", "Æon" → "aeon").
/// - Apostrophes join ("Schindler's" → "schindlers"; but "d'une" → "d", "une"); any other character that is not a
///   letter or digit separates words ("Spider-Man" → "spider", "man"), so no user text ever
///   reaches SQL or FTS syntax.
/// - A hyphenated or slashed title word is also indexed joined ("spiderman"), initials too
///   ("E.T." → "et"), and adjacent
///   query words are also tried joined ("good fellas" → "goodfellas").
/// - Roman numerals 1 to 20 also count as their number ("Part II" is also "part 2"); "v" and
///   "x" only after "part", "episode", "chapter" or at a title's end, "i" only after those.
package enum SearchText {
    /// Words a query may leave out without missing a title ("the matrix" finds "Matrix").
    static let stopwords: Set<String> = [
        "the", "a", "an", "of", "and", "in", "on", "at", "to", "for", "la", "le", "les", "el",
        "il", "de", "der", "die", "das", "l", "du", "des",
    ]

    /// The words of `text`, normalized, in order.
    package static func words(_ text: String) -> [String] { queryWords(text).map(\.word) }

    /// The words of `text`, normalized, in order, each with whether most of its letters lost a
    /// diacritic to folding ("üñí" → "uni": all three did). Such a word says little once
    /// folded, so search matches it only whole: never as a prefix or with typos (see
    /// ``SearchEngine``).
    static func queryWords(_ text: String) -> [(word: String, isMostlyFolded: Bool)] {
        text.utf8.allSatisfy({ $0 < 0x80 }) ? asciiWords(text).map { ($0, false) } : characterWords(text)
    }

    /// ``queryWords(_:)`` of any text, Character by Character.
    static func characterWords(_ text: String) -> [(word: String, isMostlyFolded: Bool)] {
        var words: [(word: String, isMostlyFolded: Bool)] = []
        var current = ""
        var letters = 0, folded = 0
        func finish() {
            words.append((current, folded * 2 > letters))
            current = ""
            letters = 0
            folded = 0
        }
        for character in text {
            if character == "'" || character == "\u{2019}" || character == "\u{2018}" || character == "`" {
                // Apostrophes join ("schindler's" → "schindlers"), except after an elided
                // one-letter word ("d'une", "l'homme"), which stays a word of its own.
                if !current.isEmpty && current.dropFirst().isEmpty { finish() }   // one character: O(1), not count
                continue
            }
            if isLetterOrNumber(character) {
                letters += 1
                var changed = false
                for scalar in character.unicodeScalars { changed = fold(scalar, into: &current) || changed }
                if changed { folded += 1 }
            } else if !current.isEmpty {
                finish()
            }
        }
        if !current.isEmpty { finish() }
        return words
    }

    /// ``queryWords(_:)`` of ASCII text, byte by byte (the same words: an ASCII letter or digit
    /// is a letter or number, nothing folds, "\r\n" separates like "\n"); most queries and
    /// titles are ASCII, and a Character per letter costs ~1,600 instructions.
    static func asciiWords(_ text: String) -> [String] {
        var words: [String] = [], current: [UInt8] = []
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "'"), UInt8(ascii: "`"):
                if current.count == 1 { words.append(String(decoding: current, as: UTF8.self)); current = [] }
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): current.append(byte + 0x20)
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): current.append(byte)
            default:
                if !current.isEmpty { words.append(String(decoding: current, as: UTF8.self)); current = [] }
            }
        }
        if !current.isEmpty { words.append(String(decoding: current, as: UTF8.self)) }
        return words
    }

    /// The index words of a title: its words, the number of each roman numeral, and hyphenated
    /// or slashed words joined ("Spider-Man" → spider, man, spiderman; never across an
    /// elision: "d'une" is not "dune").
    /// Linear in the title's length: membership is checked in sets, never word by word.
    /// `plain`, when given, is `words(title)`, already read.
    static func indexWords(ofTitle title: String, plain given: [String]? = nil) -> [String] {
        let plain = given ?? words(title)
        let plainSet = Set(plain)
        var out = plain
        for (index, word) in plain.enumerated() {
            let before = index > 0 ? plain[index - 1] : nil
            if let number = romanValue(word, after: before, isLast: index == plain.count - 1) { out.append(String(number)) }
        }
        // Joined forms of words written with a hyphen or slash between them.
        var joined = ""
        var previousJoinable = false
        for character in title {
            if isLetterOrNumber(character) {
                for scalar in character.unicodeScalars { fold(scalar, into: &joined) }
            } else if character == "-" || character == "/" {
                previousJoinable = true
                continue
            } else if character == "'" || character == "\u{2019}" {
                // An apostrophe keeps the word together but is no join of its own: "schindlers"
                // is already a word, and an elided "d'une" must not become "dune".
                continue
            } else {
                if previousJoinable, !joined.isEmpty, !plainSet.contains(joined) { out.append(joined) }
                joined = ""
                previousJoinable = false
            }
        }
        if previousJoinable, !joined.isEmpty, !plainSet.contains(joined) { out.append(joined) }
        // Initials joined: "E.T." is also "et", "L.A." also "la".
        var outSet = Set(out)
        var initials = "", initialCount = 0
        for word in plain + [""] {
            if !word.isEmpty && word.dropFirst().isEmpty {
                initials += word
                initialCount += 1
            } else {
                if initialCount >= 2, initials.count >= 2, outSet.insert(initials).inserted { out.append(initials) }
                initials = ""
                initialCount = 0
            }
        }
        return out
    }

    /// `character.isLetter || character.isNumber`, answered without Unicode's tables for an
    /// ASCII character (the only ASCII letters and digits are A-Z, a-z and 0-9).
    static func isLetterOrNumber(_ character: Character) -> Bool {
        let utf8 = character.utf8
        if utf8.count == 1, let byte = utf8.first {
            return (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A) || (byte >= 0x30 && byte <= 0x39)
        }
        return character.isLetter || character.isNumber
    }

    /// The number a roman numeral word stands for (1...20), or nil. "v" and "x" count only
    /// after "part", "episode", "chapter", "vol" or as the last word; "i" only after those.
    static func romanValue(_ word: String, after previous: String? = nil, isLast: Bool = true) -> Int? {
        guard let value = romanNumerals[word] else { return nil }
        if word == "v" || word == "x" || word == "i" {
            // "i" is a word ("I, Robot") unless it follows part/episode: "Episode I".
            if word == "i" { return ["part", "episode", "chapter", "vol", "volume"].contains(previous ?? "") ? 1 : nil }
            guard isLast || ["part", "episode", "chapter", "vol", "volume"].contains(previous ?? "") else { return nil }
        }
        return value
    }

    private static let romanNumerals: [String: Int] = [
        "i": 1, "ii": 2, "iii": 3, "iv": 4, "v": 5, "vi": 6, "vii": 7, "viii": 8, "ix": 9, "x": 10, "xi": 11,
        "xii": 12, "xiii": 13, "xiv": 14, "xv": 15, "xvi": 16, "xvii": 17, "xviii": 18, "xix": 19, "xx": 20,
    ]

    /// Appends `scalar` lowercased, without its diacritics, to `word`; true when a diacritic
    /// was dropped (a combining mark, or a Latin letter with one).
    @discardableResult
    private static func fold(_ scalar: Unicode.Scalar, into word: inout String) -> Bool {
        let value = scalar.value
        if value >= 0x300 && value <= 0x36F { return true } // combining marks
        if value < 0x80 {  // ASCII: lowercased in place (a String per letter cost ~3,000 instructions)
            word.unicodeScalars.append(Unicode.Scalar(UInt8(value >= 0x41 && value <= 0x5A ? value + 0x20 : value)))
            return false
        }
        if let folded = latin[value] {
            word += folded
            return true
        }
        word += String(scalar).lowercased()
        return false
    }

    /// Latin letters with diacritics and ligatures, as plain lowercase letters.
    private static let latin: [UInt32: String] = {
        var table: [UInt32: String] = [:]
        let groups: [(String, String)] = [
            ("ÀÁÂÃÄÅàáâãäåĀāĂăĄą", "a"), ("ÇçĆćĈĉĊċČč", "c"), ("ĎďĐđÐð", "d"),
            ("ÈÉÊËèéêëĒēĔĕĖėĘęĚě", "e"), ("ĜĝĞğĠġĢģ", "g"), ("ĤĥĦħ", "h"),
            ("ÌÍÎÏìíîïĨĩĪīĬĭĮįİı", "i"), ("Ĵĵ", "j"), ("Ķķ", "k"), ("ĹĺĻļĽľĿŀŁł", "l"),
            ("ÑñŃńŅņŇň", "n"), ("ÒÓÔÕÖØòóôõöøŌōŎŏŐő", "o"), ("ŔŕŖŗŘř", "r"),
            ("ŚśŜŝŞşŠš", "s"), ("ŢţŤťŦŧ", "t"), ("ÙÚÛÜùúûüŨũŪūŬŭŮůŰűŲų", "u"), ("Ŵŵ", "w"),
            ("ÝýÿŶŷŸ", "y"), ("ŹźŻżŽž", "z"), ("Ææ", "ae"), ("Œœ", "oe"), ("ß", "ss"), ("Þþ", "th"),
        ]
        for (letters, plain) in groups {
            for scalar in letters.unicodeScalars { table[scalar.value] = plain }
        }
        return table
    }()
}
