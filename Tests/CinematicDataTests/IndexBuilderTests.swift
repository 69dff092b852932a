@testable import CinematicData
import CinematicDomain
import Testing

/// The index builder's compact structures (``WordTable``, the postings' counting sort,
/// ``CatalogFilms``) give what the plain collections they replace would.
@Suite("Index builder")
struct IndexBuilderTests {
    /// Films with repeated words, hyphens, numerals, articles, non-ASCII words (one written
    /// precomposed and decomposed) and tied votes.
    static let titles = ["New York, New York", "Spider-Man 2", "Godfather: Part II, The", "Amélie", "Ame\u{301}lie",
                         "\u{D55C}\u{AD6D}", "\u{1112}\u{1161}\u{11AB}\u{AD6D} Story", "E.T. the Extra-Terrestrial", "Ghost Busters",
                         "Star Wars", "Stars", "d'Une Nuit", "Dune"]

    static func rows() throws -> [CatalogRow] {
        let text = CatalogIndexTests.header + titles.enumerated().map { index, title in
            CatalogIndexTests.film(index + 1, title, votes: [100, 50, 100][index % 3])
        }.joined()
        return try CatalogRow.parseAll(Array(text.utf8))
    }

    @Test func canonicallyEqualWordsAreOneWordKeptAsFirstWritten() throws {
        var table = WordTable()
        let precomposed = try table.id(of: "\u{D55C}"), decomposed = try table.id(of: "\u{1112}\u{1161}\u{11AB}")
        let ascii = try table.id(of: "dune"), again = try table.id(of: "dune")
        #expect(precomposed == decomposed)
        #expect(ascii == again && ascii != precomposed)
        #expect(table.count == 2)
        #expect(Array(table.text(Int(precomposed)).unicodeScalars) == Array("\u{D55C}".unicodeScalars))
    }

    @Test func manyWordsKeepTheirIdsAndSortByTheirBytes() throws {
        var table = WordTable(), words: [String] = []
        var state: UInt64 = 7
        for _ in 0..<20_000 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            words.append(String(state >> 40, radix: 36))
        }
        let ids = try words.map { word throws(MovieError) in try table.id(of: word) }
        let distinct = Array(Set(words))
        #expect(table.count == distinct.count)
        for (word, id) in zip(words, ids) { #expect(table.text(Int(id)) == word) }
        let sorted = table.sortedOrder().map { table.text(Int($0)) }
        #expect(sorted == distinct.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
    }

    @Test func postingsHoldEachTitleOnceInRankOrder() {
        var state: UInt64 = 11, titleWords: [UInt32] = [], titleStarts: [UInt32] = [0]
        for _ in 0..<500 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            for _ in 0..<Int(state >> 60) {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                titleWords.append(UInt32(state >> 58))
            }
            titleStarts.append(UInt32(titleWords.count))
        }
        let (postings, starts) = SearchCorpusBuilder.postings(titleWords: titleWords, titleStarts: titleStarts, words: 64)
        for word in 0..<64 {
            let brute = (0..<500).filter { titleWords[Int(titleStarts[$0])..<Int(titleStarts[$0 + 1])].contains(UInt32(word)) }
            #expect(Array(postings[Int(starts[word])..<Int(starts[word + 1])]) == brute.map { UInt32($0 + 1) })
        }
    }

    /// Every word of every title is in the vocabulary (once, in byte order), and its postings
    /// are exactly the titles whose words hold it.
    @Test func theCorpusAgreesWithItsTitles() throws {
        let corpus = try SearchCorpusBuilder.build(CatalogFilms(rows: Self.rows())).corpus()
        let words = (0..<corpus.wordCount).map { corpus.word($0) }
        #expect(zip(words, words.dropFirst()).allSatisfy { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        #expect(words.contains("spiderman") && words.contains("ghostbusters") && words.contains("2") && words.contains("dune"))
        // Written two ways, one word, kept as first written (rank order), holding both titles.
        let korean = try #require(corpus.id(of: "\u{D55C}\u{AD6D}"))
        #expect(corpus.id(of: "\u{1112}\u{1161}\u{11AB}\u{AD6D}") == nil)
        #expect(corpus.postings(of: korean).count == 2)
        for id in 0..<corpus.wordCount {
            let holders = (1...corpus.count).filter { corpus.titleWords(ofRank: $0).contains(UInt32(id)) }
            #expect(Array(corpus.postings(of: UInt32(id))) == holders.map(UInt32.init), "\(words[id])")
        }
        #expect(corpus.display.movie(rank: 1).title == "New York, New York")   // 100 votes, smallest id
    }

    /// A movie file's films, read line by line, build the section its parsed rows build.
    @Test func aMovieFileBuildsWhatItsRowsBuild() throws {
        let text = CatalogIndexTests.header + "\r\n" + Self.titles.enumerated().map { index, title in
            CatalogIndexTests.film(index + 1, title, votes: [100, 50, 100][index % 3]).replacingOccurrences(of: "\n", with: "\r\n")
        }.joined()
        let fromFile = try SearchCorpusBuilder.build(CatalogFilms(movieText: Array(text.utf8))).section(offset: 4096)
        let fromRows = try SearchCorpusBuilder.build(CatalogFilms(rows: Self.rows())).section(offset: 4096)
        #expect(fromFile == fromRows)
    }

    @Test func asciiLettersAndDigitsAreReadAsUnicodeReadsThem() {
        for value in 0..<0x3000 {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let character = Character(scalar)
            #expect(SearchText.isLetterOrNumber(character) == (character.isLetter || character.isNumber), "U+\(String(value, radix: 16))")
        }
        for text in ["\r\n", "e\u{301}", "1\u{20E3}", "\u{1112}\u{1161}"] {
            let character = Character(text)
            #expect(SearchText.isLetterOrNumber(character) == (character.isLetter || character.isNumber))
        }
    }
}
