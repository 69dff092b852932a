@testable import CinematicData
import CinematicDomain
import CinematicTestSupport
import Testing

/// An index build reads an ASCII title's search words from its bytes (``ASCIITitleForms``):
/// for every title, the same words in the same order as the string reading (``TitleForms``),
/// one reader reused title after title as the builder reuses it.
@Suite("Title forms read from bytes", .offThePool)
struct TitleFormsReadingTests {
    /// A title's words both ways: the byte reading's (nil when it leaves the title to the
    /// string reading) and the string reading's, each as plain, variants, joined, core count.
    private static func bothWays(_ catalogTitle: String, _ reader: inout ASCIITitleForms) -> (bytes: Forms?, strings: Forms) {
        let parts = TitleText.parts(ofCatalogTitle: catalogTitle)
        let strings = TitleForms.read(catalogTitle: catalogTitle, parts: parts)
        let expected = Forms(plain: strings.plain, variants: strings.variants, joined: strings.joined,
                             core: strings.plain.filter { !SearchText.stopwords.contains($0) }.count)
        var catalog = catalogTitle, display = parts.display
        let read = catalog.withUTF8 { catalog in
            display.withUTF8 { display in reader.read(catalog: catalog, display: display, articleMoved: parts.article != nil) }
        }
        guard read else { return (nil, expected) }
        let forms = reader
        return (Forms(plain: forms.plain.map(forms.text), variants: forms.variants.map(forms.text),
                      joined: forms.variants[forms.firstJoined...].map(forms.text), core: forms.coreCount), expected)
    }

    struct Forms: Equatable {
        let plain: [String], variants: [String], joined: [String], core: Int
    }

    /// Titles made of the pieces the readings treat specially: articles moved to the end,
    /// numerals and the words before them, hyphens and slashes, initials, apostrophes and
    /// backquotes, stopwords, repeats, carriage returns, punctuation runs.
    static func madeUpTitles(count: Int) -> [String] {
        let pieces = ["The", "a", "Part", "II", "iii", "v", "x", "i", "XX", "20", "Episode", "vol", "Volume", "chapter", "E.", "T.",
                      "L.A.", "Spider-Man", "AC/DC", "d'Une", "O'Brien's", "rock 'n' roll", "x`y", "9 1/2", "-", "/", "'", "`",
                      "Ghost", "Busters", "of", "and", "Les", "el", "Star", "Wars", "a-b-c", "A.B", "--", "/x", "x/", "\r", "...",
                      "ab", "Ab", "AB", "Zz9", "New", "York", "l'homme", "3-D", "2/3", "I", "V", "X"]
        let separators = [" ", " ", " ", "", "-", ".", ", ", "/", "'", ": "]
        let articles = ["", "", ", The", ", L'", ", Ha-", ", Les", ", A", ", Die", ",The", ", Nope"]
        var state: UInt64 = 0x5EED
        func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int(state >> 33) % bound
        }
        return (0..<count).map { _ in
            var title = pieces[next(pieces.count)]
            for _ in 0..<next(9) { title += separators[next(separators.count)] + pieces[next(pieces.count)] }
            return title + articles[next(articles.count)]
        }
    }

    @Test func everyShippedTitleAndEveryMadeUpOneReadsTheSameWords() throws {
        let shipped = try EmbeddedCatalog.rows().map(\.catalogTitle)
        let typed = ["Godfather: Part II, The", "New York, New York", "E.T. the Extra-Terrestrial", "Ghost Busters", "d'Une Nuit",
                     "Star Wars: Episode V - The Empire Strikes Back", "Rocky V", "V for Vendetta", "I, Robot", "Malcolm X",
                     "L.A. Confidential", "Homme, L'", "9 1/2 Weeks", "Spider-Man/Batman", "a\r\nb", "x`y", "''", "-", ", The", "A"]
        var reader = ASCIITitleForms(), readAsBytes = 0
        for title in typed + shipped + Self.madeUpTitles(count: 20_000) {
            let (bytes, strings) = Self.bothWays(title, &reader)
            let isASCII = title.utf8.allSatisfy { $0 < 0x80 }
            if isASCII && strings.plain.count <= ASCIITitleForms.maximumWords {
                #expect(bytes == strings, "\(title)")
                readAsBytes += 1
            } else {
                #expect(bytes == nil, "\(title)")
            }
        }
        #expect(readAsBytes > 70_000)
    }

    /// A title of more words than the byte reading takes, or not ASCII, is left to the
    /// string reading whole.
    @Test func longAndNonASCIITitlesAreLeftToTheStringReading() {
        var reader = ASCIITitleForms()
        let long = Array(repeating: "word", count: ASCIITitleForms.maximumWords + 1).joined(separator: " ")
        let longCatalogForm = Array(repeating: "w", count: ASCIITitleForms.maximumWords).joined(separator: " ") + " x y, The"
        for title in [long, longCatalogForm, "Amélie", "Ame\u{301}lie, The"] {
            #expect(Self.bothWays(title, &reader).bytes == nil, "\(title)")
        }
        #expect(Self.bothWays("Matrix, The", &reader).bytes?.plain == ["the", "matrix"])
    }

    /// A genre list's search words read from its bytes are the string reading's: every list
    /// of the shipped catalog and made-up ones (case, punctuation, empty names, digits).
    @Test func genreWordsReadFromBytesAreTheStringReadings() throws {
        let shipped = Set(try EmbeddedCatalog.rows().map { $0.genres.joined(separator: ",") })
        let madeUp = ["", ",", ",,Drama,", "Sci-Fi,Film-Noir", "O'Brien", "d'Une", "ROM-COM,rom com", "3-D,Action!", "  Drama ",
                      "a`b", "Comedy,,Comedy", "Ame\u{301}lie", "Drama,\u{301}Comedy", "Écran"]
        for list in shipped.union(madeUp) {
            let strings = list.split(separator: ",").map { SearchText.words(String($0)).joined() }.filter { !$0.isEmpty }
            #expect(SearchFilters.genreWords(of: list) == strings, "\(list)")
        }
        #expect(shipped.count > 50)
    }

    /// Reading each genre name once gives every list the bits reading each list whole gives:
    /// the first 64 words in list order, a name spelled two ways sharing its word's bit (also
    /// past the 64th name).
    @Test func genreBitsReadOncePerNameAreEachListsBits() throws {
        var lists = Array(Set(try EmbeddedCatalog.rows().map { $0.genres.joined(separator: ",") })).sorted()
        lists += ["Sci-Fi,SciFi", "sci fi", "", ",,", "Drama,\u{301}Comedy", "Écran,Ecran"] + (0..<70).map { "G\($0),Drama" } + ["DRAMA", "DRAMA,Comedy"]
        var bits: [String: UInt64] = [:], next = 0
        let expected = lists.map { list in
            SearchFilters.genreWords(of: list).reduce(UInt64(0)) { mask, word in
                if bits[word] == nil, next < 64 { bits[word] = 1 << UInt64(next); next += 1 }
                return mask | (bits[word] ?? 0)
            }
        }
        let filters = SearchFilters(genreLists: lists)
        #expect(filters.listBits == expected)
        #expect(bits.allSatisfy { filters.genreBits[$0.key] == $0.value })
        #expect(next == 64)
    }

    /// The vocabulary's order is its words' byte order, for words sharing the 12 bytes it
    /// sorts by first (or all of a shorter word's) and words of other scripts.
    @Test func theVocabularySortsByBytesPastItsPrefix() throws {
        var table = WordTable(), words: [String] = []
        var state: UInt64 = 3
        for _ in 0..<5_000 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let stem = ["abcdefgh", "abcdefghijkl", "abcdefghijk", "zz", "é", "\u{D55C}", "a"][Int(state >> 61) % 7]
            words.append(stem + String(state >> 50, radix: 7).prefix(Int(state >> 40) % 6))
        }
        for word in words { _ = try table.id(of: word) }
        let sorted = table.sortedOrder().map { table.text(Int($0)) }
        #expect(sorted == Array(Set(words)).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
    }
}

extension SearchFilters {
    /// The search word of each genre named in `list` ("Comedy,Sci-Fi": "comedy", "scifi"), none
    /// empty: each name as ``init(genreLists:)`` reads it, one list at a time.
    static func genreWords(of list: String) -> [String] {
        var words: [String] = []
        forEachGenreName(of: list) { name in
            let word = genreWord(of: name)
            if !word.isEmpty { words.append(word) }
        }
        return words
    }
}
