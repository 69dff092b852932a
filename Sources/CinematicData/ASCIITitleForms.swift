#if canImport(Glibc)
import Glibc
#endif

/// The search words of an ASCII title, read from its bytes: the same words in the same order as
/// the string reading (``TitleForms/read(catalogTitle:parts:)``: ``SearchText`` and
/// ``TitleText``), without a string, array or set per word. An index build reads one title per
/// film, and most titles are ASCII; `TitleFormsReadingTests` holds the two readings equal.
///
/// A title with a byte over 0x7F, or with more than ``maximumWords`` plain words, is left to the
/// string reading (``read(catalog:display:articleMoved:)`` returns false): membership here is a
/// scan of the title's few words, so the work per title stays bounded.
struct ASCIITitleForms {
    /// The most plain words a title read here has.
    static let maximumWords = 16

    /// Every word's bytes (lowercased), one after another; the lists below are ranges of it.
    private(set) var bytes: [UInt8] = []
    /// The display title's words, in order (repeats kept).
    private(set) var plain: [Range<Int>] = []
    /// Its other forms, each once and none a plain word: numerals, joined words, the catalog
    /// form's words, initials, then adjacent words joined.
    private(set) var variants: [Range<Int>] = []
    /// Where the adjacent words joined begin in ``variants`` (they end it).
    private(set) var firstJoined = 0
    /// How many plain words are not stopwords.
    private(set) var coreCount = 0
    private var forms: [Range<Int>] = [], catalogPlain: [Range<Int>] = []

    /// Reads the forms of a title whose catalog spelling is `catalog` and display spelling
    /// `display` (the article moved back in front when `articleMoved`); false, with nothing
    /// read, when either is not ASCII or has too many words.
    mutating func read(catalog: UnsafeBufferPointer<UInt8>, display: UnsafeBufferPointer<UInt8>, articleMoved: Bool) -> Bool {
        guard display.isASCII, !articleMoved || catalog.isASCII else { return false }
        bytes.removeAll(keepingCapacity: true)
        plain.removeAll(keepingCapacity: true)
        variants.removeAll(keepingCapacity: true)
        forms.removeAll(keepingCapacity: true)
        catalogPlain.removeAll(keepingCapacity: true)
        guard Self.words(of: display, into: &plain, bytes: &bytes) else { return false }
        Self.indexWords(of: display, plain: plain, into: &forms, bytes: &bytes)
        if articleMoved {
            guard Self.words(of: catalog, into: &catalogPlain, bytes: &bytes) else { return false }
            Self.indexWords(of: catalog, plain: catalogPlain, into: &forms, bytes: &bytes)
        }
        for word in forms where !Self.contains(word, in: plain, bytes) && !Self.contains(word, in: variants, bytes) {
            variants.append(word)
        }
        // Adjacent words joined ("Ghost Busters" is also "ghostbusters"), neither a stopword
        // nor one letter.
        firstJoined = variants.count
        for index in plain.indices.dropLast() {
            let first = plain[index], second = plain[index + 1]
            guard first.count > 1, second.count > 1, !isStopword(first), !isStopword(second) else { continue }
            let start = bytes.count
            for index in first { bytes.append(bytes[index]) }
            for index in second { bytes.append(bytes[index]) }
            let word = start..<bytes.count
            if Self.contains(word, in: plain, bytes) || Self.contains(word, in: variants, bytes) {
                bytes.removeSubrange(word)
            } else {
                variants.append(word)
            }
        }
        coreCount = plain.reduce(0) { $0 + (isStopword($1) ? 0 : 1) }
        return true
    }

    /// Word `range` as text (for tests).
    func text(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }

    /// Whether word `range` is one of ``SearchText/stopwords``.
    func isStopword(_ range: Range<Int>) -> Bool {
        bytes.withUnsafeBufferPointer { Self.isStopword(UnsafeBufferPointer(rebasing: $0[range])) }
    }

    /// Whether the bytes of a word are one of ``SearchText/stopwords`` (all of 1 to 3 letters).
    static func isStopword(_ word: some Collection<UInt8>) -> Bool {
        guard word.count <= 3 else { return false }
        var key: UInt32 = 0
        for byte in word { key = key << 8 | UInt32(byte) }
        return stopwordKeys.contains(key)
    }

    /// Each stopword's bytes as one number (big-endian): 22 numbers, searched in a scan.
    private static let stopwordKeys: [UInt32] = SearchText.stopwords.map { word in
        word.utf8.reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    }

    /// ``SearchText/asciiWords(_:)`` as ranges; false when there are over ``maximumWords``.
    private static func words(of text: UnsafeBufferPointer<UInt8>, into words: inout [Range<Int>], bytes: inout [UInt8]) -> Bool {
        var start = bytes.count
        for byte in text {
            switch byte {
            case UInt8(ascii: "'"), UInt8(ascii: "`"):
                // Apostrophes join, except after an elided one-letter word ("d'une").
                if bytes.count - start == 1 { words.append(start..<bytes.count); start = bytes.count }
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): bytes.append(byte + 0x20)
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): bytes.append(byte)
            default:
                if bytes.count > start { words.append(start..<bytes.count); start = bytes.count }
            }
        }
        if bytes.count > start { words.append(start..<bytes.count) }
        return words.count <= maximumWords
    }

    /// ``SearchText/indexWords(ofTitle:plain:)`` of `title` (whose words are `plain`), appended
    /// to `out`.
    private static func indexWords(of title: UnsafeBufferPointer<UInt8>, plain: [Range<Int>], into out: inout [Range<Int>],
                                   bytes: inout [UInt8]) {
        let first = out.count
        out.append(contentsOf: plain)
        for (index, word) in plain.enumerated() {
            guard let number = romanValue(word, after: index > 0 ? plain[index - 1] : nil, isLast: index == plain.count - 1, bytes) else { continue }
            let start = bytes.count
            bytes.append(contentsOf: String(number).utf8)
            out.append(start..<bytes.count)
        }
        // Words written with a hyphen or slash between them, joined ("spider-man": "spiderman").
        var start = bytes.count, joinable = false
        func endRun() {
            if joinable, bytes.count > start, !contains(start..<bytes.count, in: plain, bytes) {
                out.append(start..<bytes.count)
            } else {
                bytes.removeSubrange(start...)
            }
            start = bytes.count
            joinable = false
        }
        for byte in title {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): bytes.append(byte + 0x20)
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): bytes.append(byte)
            case UInt8(ascii: "-"), UInt8(ascii: "/"): joinable = true
            case UInt8(ascii: "'"): continue
            default: endRun()
            }
        }
        endRun()
        // Initials joined ("E.T." is also "et"), once.
        var count = 0
        for position in 0...plain.count {
            let word = position < plain.count ? plain[position] : 0..<0
            if word.count == 1 {
                bytes.append(bytes[word.lowerBound])
                count += 1
                continue
            }
            let initials = start..<bytes.count
            if count >= 2, !contains(initials, in: out[first...], bytes) {
                out.append(initials)
            } else {
                bytes.removeSubrange(initials)
            }
            start = bytes.count
            count = 0
        }
    }

    /// ``SearchText/romanValue(_:after:isLast:)`` of word `word`.
    private static func romanValue(_ word: Range<Int>, after previous: Range<Int>?, isLast: Bool, _ bytes: [UInt8]) -> Int? {
        guard word.count <= 5, bytes[word.lowerBound] == UInt8(ascii: "i") || bytes[word.lowerBound] == UInt8(ascii: "v")
                || bytes[word.lowerBound] == UInt8(ascii: "x"),
              let value = romanNumerals.firstIndex(where: { equal($0, word, bytes) }).map({ $0 + 1 }) else { return nil }
        guard word.count == 1, value == 1 || value == 5 || value == 10 else { return value }
        let afterPart = previous.map { previous in partWords.contains { equal($0, previous, bytes) } } ?? false
        if value == 1 { return afterPart ? 1 : nil }
        return isLast || afterPart ? value : nil
    }

    private static let romanNumerals: [[UInt8]] = ["i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x", "xi", "xii",
                                                   "xiii", "xiv", "xv", "xvi", "xvii", "xviii", "xix", "xx"].map { Array($0.utf8) }
    private static let partWords: [[UInt8]] = ["part", "episode", "chapter", "vol", "volume"].map { Array($0.utf8) }

    /// Whether `list` holds a word with the bytes of `word`.
    private static func contains(_ word: Range<Int>, in list: some Collection<Range<Int>>, _ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { all in
            list.contains { $0.count == word.count && (word.isEmpty || memcmp(all.baseAddress! + $0.lowerBound, all.baseAddress! + word.lowerBound, word.count) == 0) }
        }
    }

    /// Whether `word`'s bytes are `text`.
    private static func equal(_ text: [UInt8], _ word: Range<Int>, _ bytes: [UInt8]) -> Bool {
        text.count == word.count && bytes.withUnsafeBufferPointer { all in
            text.withUnsafeBufferPointer { text in word.isEmpty || memcmp(all.baseAddress! + word.lowerBound, text.baseAddress!, word.count) == 0 }
        }
    }
}
