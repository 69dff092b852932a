@testable import CinematicData
import CinematicTestSupport
import Testing

/// ``SearchText/queryWords(_:)`` reads ASCII text byte by byte and other text Character by
/// Character: the two readings give the same words for every ASCII text.
@Suite("Search words of ASCII text", .offThePool)
struct SearchTextASCIITests {
    /// The Character reading of `text`, as the byte reading returns it.
    private func byCharacter(_ text: String) -> [String] { SearchText.characterWords(text).map(\.word) }

    @Test func everyASCIICharacterAloneAndBetweenLetters() {
        for byte in UInt8(0)..<0x80 {
            let character = String(decoding: [byte], as: UTF8.self)
            for text in [character, "a\(character)b", "ab\(character)cd", "\(character)x", "X\(character)"] {
                #expect(SearchText.asciiWords(text) == byCharacter(text), "\(Array(text.utf8))")
            }
        }
    }

    @Test func everyTitleOfTheShippedCatalogAndTextPeopleType() throws {
        let titles = try EmbeddedCatalog.rows().map(\.catalogTitle).filter { $0.utf8.allSatisfy { $0 < 0x80 } }
        #expect(titles.count > 50_000)
        let typed = ["d'une", "L'Homme", "rock 'n' roll", "O'Brien's", "Spider-Man 2", "E.T.", "a\r\nb",
                     "NEAR(\"Star\" -Wars*)", "  THE   godfather  ", "x`y", "'''", "9 1/2 Weeks", ""]
        for text in titles + typed {
            #expect(SearchText.asciiWords(text) == byCharacter(text), "\(text)")
        }
        #expect(SearchText.queryWords("Amélie").map(\.word) == ["amelie"])  // not ASCII: the Character reading
    }
}
