import CinematicData
import CinematicDomain
import CinematicTestSupport
import Testing

/// Search that generalizes (issue 33), over the real catalog: each test one behaviour, each
/// expectation the film first (title and year).
@Suite("Search that generalizes", .offThePool)
struct SearchGeneralizesTests {
    let catalog = TestCatalog.shared

    private func first(_ query: String) throws -> String? { try TestCatalog.first(query) }

    /// "name N" is the Nth film of the series (the titles starting with the name, by year),
    /// whether or not its title carries the number; a number a title carries is that title's.
    @Test("the Nth film of a series", arguments: [
        ("die hard 3", "Die Hard: With a Vengeance (1995)"),
        ("die hard part 3", "Die Hard: With a Vengeance (1995)"),
        ("harry potter 3", "Harry Potter and the Prisoner of Azkaban (2004)"),
        ("lord of the rings two", "The Lord of the Rings: The Two Towers (2002)"),
        ("star trek viii", "Star Trek: First Contact (1996)"),
        ("star trek 2", "Star Trek: The Wrath of Khan (1982)"),
        ("star wars 4", "Star Wars (1977)"),
        ("police academy 7", "Police Academy: Mission to Moscow (1994)"),
        ("rocky 3", "Rocky III (1982)"),
        ("shrek two", "Shrek 2 (2004)"),
    ])
    func theNthFilmOfASeries(query: String, expected: String) throws {
        #expect(try first(query) == expected)
    }

    /// Past the end of a series, the series from its start (the catalog has no Die Hard 4).
    @Test func pastTheEndTheSeriesFromItsStart() throws {
        #expect(try first("die hard 4") == "Die Hard (1988)")
        #expect(try first("alien 3") == "Alien (1979)")
    }

    /// Other forms of a word: abbreviations, numbers, ordinals, both ways.
    @Test("other forms of a word", arguments: [
        ("doctor no", "Dr. No (1962)"), ("mister deeds", "Mr. Deeds (2002)"), ("kramer versus kramer", "Kramer vs. Kramer (1979)"),
        ("mr roberts", "Mister Roberts (1955)"), ("the 5th element", "The Fifth Element (1997)"),
        ("1st blood", "First Blood (1982)"), ("death wish three", "Death Wish 3 (1985)"),
        ("the whole 10 yards", "The Whole Ten Yards (2004)"), ("bad boys two", "Bad Boys II (2003)"),
    ])
    func otherFormsOfAWord(query: String, expected: String) throws {
        #expect(try first(query) == expected)
    }

    /// When no title holds every word, the title covering most of the query, rare words
    /// weighing more and words about the medium little; never a title sharing only a common word.
    @Test func theTitleCoveringMostOfTheQuery() throws {
        #expect(try first("waking life full movie") == "Waking Life (2001)")
        #expect(try first("europa full movie") == "Europa (Zentropa) (1991)")
        #expect(try first("the candidate uncut") == "The Candidate (1972)")
        #expect(try first("shawshank redemption prison") == "The Shawshank Redemption (1994)")
        // A query holding a whole title of two words or more needs to cover only a third of it.
        #expect(try first("star wars a new hope") == "Star Wars (1977)")
        #expect(try catalog.search("glorpish away").isEmpty)
        #expect(try catalog.search("xyzzy away").isEmpty)
    }

    /// A genre word may match the film's genre, as a year matches its year.
    @Test func aGenreWordMatchesTheFilmsGenre() throws {
        #expect(try first("akahige drama ") == "Akahige (Red Beard) (1965)")
    }

    /// A whole part of a title ("X: Y") covers it as the whole title would, so the popular
    /// film beats an obscure one whose whole title it is.
    @Test("a part of a title", arguments: [
        ("outfoxed", "Outfoxed: Rupert Murdoch's War on Journalism (2004)"),
        ("geronimo", "Geronimo: An American Legend (1993)"),
        ("back in action", "Looney Tunes: Back in Action (2003)"),
        ("the lord of the rings", "The Lord of the Rings: The Fellowship of the Ring (2001)"),
    ])
    func aPartOfATitle(query: String, expected: String) throws {
        #expect(try first(query) == expected)
    }

    /// Words in the query's order, side by side, rank higher.
    @Test func wordsInOrderRankHigher() throws {
        #expect(try first("the final friday") == "Jason Goes to Hell: The Final Friday (1993)")
    }

    /// Two edits in a word of 5 to 7 letters: with other words to narrow it down, or alone
    /// when the match is unique; one edit wins over two.
    @Test func twoEditsInShorterWords() throws {
        #expect(try first("mirtol thoughts") == "Mortal Thoughts (1991)")
        #expect(try first("anmiil crackers") == "Animal Crackers (1930)")
        #expect(try first("kansoss") == "Kansas City (1996)")
        #expect(try catalog.search("gurrry").isEmpty, "many words are two edits from it: no guess")
        #expect(try first("mobsterrs") == "Mobsters (1991)")
    }

    /// A 3-letter word missing a letter of a title word, when the rest of the query finds it.
    @Test func aShortWordMissingALetter() throws {
        #expect(try first("daw of the dead") == "Dawn of the Dead (2004)")
    }
}
