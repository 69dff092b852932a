@testable import CinematicData
import CinematicDomain
import Testing

/// The in-memory structures behind search agree with the brute-force answers they replace.
@Suite("Search structures")
struct SearchStructureTests {
    static let words = ["alien", "aliens", "alone", "amelie", "dune", "dunes", "godfather", "godfathers", "goodfellas",
                        "matrix", "matrox", "star", "stare", "starwars", "stir", "zardoz"]

    /// A corpus of `words`, one title each, word `i` held by `i % 5 + 1` titles.
    static let corpus: SearchCorpus = {
        var postings: [UInt32] = [], starts: [UInt32] = [0]
        for index in words.indices {
            postings += (1...UInt32(index % 5 + 1)).map { $0 }
            starts.append(UInt32(postings.count))
        }
        var parts = MovieRowsBuilder().parts()
        parts[.titleStarts] = CorpusLayout.bytes([UInt32(0)])
        parts[.displayStarts] = CorpusLayout.bytes([UInt32(0)])
        return try! CorpusParts(words: words, postings: postings, postingStarts: starts, flags: words.map { _ in 1 }, films: 0,
                                parts: parts).corpus()
    }()

    @Test("the trie walk finds exactly the words within the distance", arguments: ["star", "stra", "godfahter", "aliem", "xyz", "matrix", "dunez", "a"])
    func typoWalkMatchesBruteForce(query: String) {
        for limit in 1...2 {
            let walked = TypoWalk.words(near: query.unicodeScalars.map(\.value), limit: limit, in: Self.corpus).map { Self.words[$0.id] }
            let brute = Self.words.filter { word in
                let distance = SearchRanking.distance(query, word, limit: limit)
                return distance >= 1 && distance <= limit
            }
            #expect(walked == brute, "\(query) within \(limit)")
        }
    }

    @Test func prefixRangesAndTheirMostFrequentWords() {
        let range = Self.corpus.range(ofPrefix: "star".unicodeScalars.map(\.value))
        #expect(Array(Self.words[range]) == ["star", "stare", "starwars"])
        #expect(Self.corpus.range(ofPrefix: "q".unicodeScalars.map(\.value)).isEmpty)
        let all = 0..<Self.words.count
        let brute = all.sorted { (Self.corpus.frequency(UInt32($0)), -$0) > (Self.corpus.frequency(UInt32($1)), -$1) }
        #expect(Self.corpus.topWords.top(5, in: all) == Array(brute.prefix(5)))
        #expect(Self.corpus.topWords.top(40, in: 3..<7) == brute.filter { (3..<7).contains($0) })
        #expect(Self.corpus.topWords.top(3, in: 4..<4).isEmpty)
    }

    @Test func commonSubsequence() {
        #expect(TypoWalk.commonSubsequence([1, 2, 3, 4], [1, 3, 4, 5]) == 3)
        #expect(TypoWalk.commonSubsequence([UInt32](), [1]) == 0)
    }
}
