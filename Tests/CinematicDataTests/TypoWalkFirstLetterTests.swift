@testable import CinematicData
import CinematicDomain
import CinematicTestSupport
import Testing

/// The typo lookup bounded by one letter's words (issue "Search that knows a film by every
/// name", part 5) finds what walking the whole vocabulary finds: every word one edit away,
/// and every word two edits away that keeps the first letter.
@Suite("Typo lookup by first letter", .offThePool)
struct TypoWalkFirstLetterTests {
    /// Words typed as people type them: catalog words with an edit at the start, in the
    /// middle or at the end, and words no catalog holds.
    static func typed(_ corpus: SearchCorpus) -> [[UInt32]] {
        var generator = SeededGenerator(seed: 48)
        var typed: [[UInt32]] = [[UInt32]("xqzvw".unicodeScalars.map(\.value)), [UInt32]("1".unicodeScalars.map(\.value))]
        for _ in 0..<400 {
            var word = Array(corpus.scalars(of: Int(generator.next() % UInt64(corpus.wordCount))))
            guard word.count >= 3 else { continue }
            let at = [0, 1, word.count / 2, word.count - 1][Int(generator.next() % 4)]
            let letter = UInt32(97 + generator.next() % 26)
            switch generator.next() % 4 {
            case 0: word[at] = letter
            case 1: word.insert(letter, at: at)
            case 2: word.remove(at: at)
            default: if at + 1 < word.count { word.swapAt(at, at + 1) }
            }
            if generator.next() % 3 == 0, word.count > 4 { word[word.count - 2] = letter }   // a second edit
            typed.append(word)
        }
        return typed
    }

    @Test func oneEditIsExactlyTheWholeWalkAndTwoKeepTheFirstLetter() throws {
        let corpus = try SharedCatalog.embedded(version: TestCatalog.version, progress: { _ in }).corpus
        let letters = corpus.firstLetters()
        #expect(letters == letters.sorted() && letters.count == Set(letters).count && letters.count > 26)
        for word in Self.typed(corpus) {
            let whole1 = TypoWalk.words(near: word, limit: 1, in: corpus)
            #expect(TypoWalk.wordsKeepingStart(near: word, limit: 1, in: corpus, letters: letters).map(\.id) == whole1.map(\.id), "\(word)")
            let whole2 = TypoWalk.words(near: word, limit: 2, in: corpus)
            let kept = TypoWalk.wordsKeepingStart(near: word, limit: 2, in: corpus, letters: letters)
            let expected = whole2.filter { $0.distance == 1 || corpus.scalar(at: Int(corpus.scalarStarts[$0.id])) == word.first }
            #expect(kept.map(\.id) == expected.map(\.id), "\(word)")
            #expect(kept.map(\.distance) == expected.map(\.distance))
        }
    }
}
