/// Other ways of writing a query word that mean the same title word, and words that say
/// something about the film rather than its title (``SearchEngine`` reads a query with them):
///
/// - abbreviations and their words, both ways: "doctor" finds "Dr. No", "mr" finds "Mister
///   Roberts" (doctor, mister, missus, saint, versus, junior, captain, fort, mount, lieutenant,
///   sergeant, professor, colonel, brothers, volume);
/// - numbers: digits, roman numerals and number words (1 to 20) are one number ("death wish
///   three", "girl six", "the whole 10 yards"); ordinals likewise ("the 5th element", "1st blood");
/// - medium words ("movie", "dvd", "full", "trailer", "soundtrack", "remake", ...): what people add
///   about a film, not its title: a title may lack them when nothing holds every word
///   (``SearchQuery/Term/isMedium``);
/// - series markers ("part", "chapter", "episode", "vol", "volume") before a sequel number:
///   a title of the series may lack them ("die hard part 3").
enum SearchWordForms {
    /// Abbreviation ↔ the word it stands for (both directions are listed).
    static let abbreviations: [String: [String]] = {
        let pairs: [(String, String)] = [
            ("dr", "doctor"), ("mr", "mister"), ("mrs", "missus"), ("st", "saint"), ("vs", "versus"),
            ("jr", "junior"), ("capt", "captain"), ("ft", "fort"), ("mt", "mount"), ("lt", "lieutenant"),
            ("sgt", "sergeant"), ("prof", "professor"), ("col", "colonel"), ("bros", "brothers"), ("vol", "volume"),
        ]
        var table: [String: [String]] = [:]
        for (short, long) in pairs {
            table[short, default: []].append(long)
            table[long, default: []].append(short)
        }
        return table
    }()

    /// Number words, one to twenty (index = value).
    static let cardinals = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
                            "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
                            "nineteen", "twenty"]
    /// Ordinal words, first to twentieth (index = value).
    static let ordinals = ["", "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth",
                           "tenth", "eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth", "sixteenth",
                           "seventeenth", "eighteenth", "nineteenth", "twentieth"]
    private static let cardinalValues = Dictionary(uniqueKeysWithValues: cardinals.enumerated().dropFirst().map { ($1, $0) })
    private static let ordinalValues = Dictionary(uniqueKeysWithValues: ordinals.enumerated().dropFirst().map { ($1, $0) })

    /// Words about the medium, the copy or the search, not the title.
    static let medium: Set<String> = [
        "movie", "movies", "film", "films", "full", "dvd", "bluray", "hd", "trailer", "trailers", "soundtrack", "ost",
        "remake", "original", "uncut", "unrated", "directors", "cut", "extended", "edition", "version", "remastered",
        "imdb", "classic", "watch", "online", "stream", "streaming", "download", "free", "english", "subtitles",
        "subtitled", "dubbed", "review", "official",
    ]

    /// Words that may stand before a sequel number.
    static let seriesMarkers: Set<String> = ["part", "pt", "chapter", "episode", "vol", "volume"]

    /// The number a word stands for as a sequel number: digits 1...20, a roman numeral
    /// (``SearchText/romanValue(_:after:isLast:)``), a number word ("two"); nil otherwise.
    static func number(_ word: String, after previous: String? = nil, isLast: Bool = true) -> Int? {
        if let first = word.utf8.first, first >= 0x30 && first <= 0x39 {
            guard word.utf8.count <= 2, let value = Int(word), (1...20).contains(value) else { return nil }
            return value
        }
        return SearchText.romanValue(word, after: previous, isLast: isLast) ?? cardinalValues[word]
    }

    /// The other forms of `word` a title may hold: its abbreviation or full word, and for a
    /// number its digits and number word ("three" → "3"; "3" → "three"; "iii" → "3", "three"),
    /// for an ordinal the other spelling ("5th" ↔ "fifth").
    static func alternatives(of word: String, after previous: String?, isLast: Bool) -> [String] {
        var forms = abbreviations[word] ?? []
        if let value = number(word, after: previous, isLast: isLast) {
            forms += [String(value), cardinals[value]].filter { $0 != word }
        }
        if let value = ordinalValues[word] {
            forms.append(String(value) + suffix(value))
        } else if let value = ordinalDigits(word) {
            forms.append(ordinals[value])
        }
        return forms
    }

    /// "5th" → 5 (1...20), nil otherwise.
    private static func ordinalDigits(_ word: String) -> Int? {
        let bytes = Array(word.utf8)
        guard bytes.count >= 3, bytes.count <= 4 else { return nil }
        let digits = bytes.prefix { $0 >= 0x30 && $0 <= 0x39 }
        guard digits.count == bytes.count - 2, let value = Int(String(decoding: digits, as: UTF8.self)),
              (1...20).contains(value), String(decoding: bytes.suffix(2), as: UTF8.self) == suffix(value) else { return nil }
        return value
    }

    private static func suffix(_ value: Int) -> String {
        switch value {
        case 1: "st"
        case 2: "nd"
        case 3: "rd"
        default: "th"
        }
    }
}
