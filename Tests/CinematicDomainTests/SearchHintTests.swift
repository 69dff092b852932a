import CinematicDomain
import Testing

/// What the catalog cannot answer (issue 33): a person's name, a genre it lacks.
@Suite("SearchHint: what the catalog is")
struct SearchHintTests {
    static func movie(_ title: String) -> Movie {
        Movie(id: 1, title: title, year: 2000, runtime: 90, rating: 7, votes: 100, genres: [], mpaa: nil)
    }

    @Test("a person's name", arguments: ["tom hanks", "Meryl Streep", "steven spielberg", "movies with kubrick",
                                           "films by Orson Welles", "directed by ridley scott"])
    func aPersonsName(query: String) throws {
        // The titles that only share a word are still listed: they do not make it a title.
        let hint = try #require(SearchHint.of(query: query, results: [Self.movie("Tom Jones"), Self.movie("Big")]))
        #expect(hint.kind == .person)
        #expect(hint.text.contains("looks like a person"))
    }

    @Test func theNameIsShownCapitalized() {
        #expect(SearchHint.of(query: "tom hanks", results: [])?.text
            == "“Tom Hanks” looks like a person: the catalog knows films by title, year and genre, not who is in them or made them. These titles hold the words you typed.")
    }

    /// A title holding the name's words (or its possessive, or a typo of it) is what was meant.
    @Test("a title that looks like a name", arguments: [
        ("annie hall", "Annie Hall"), ("harry potter", "Harry Potter and the Sorcerer's Stone"),
        ("jerry maguire", "Jerry Maguire"), ("bridget jones", "Bridget Jones's Diary"), ("jery maguire", "Jerry Maguire"),
    ])
    func aTitleIsNoPerson(query: String, title: String) {
        #expect(SearchHint.of(query: query, results: [Self.movie("Something Else"), Self.movie(title)]) == nil)
    }

    @Test("a genre the catalog lacks", arguments: [
        ("horror", "horror"), ("80s horror movies", "horror"), ("sci-fi", "science fiction"), ("Westerns", "western"),
        ("best thrillers of the 90s", "thriller"), ("film noir", "film noir"), ("horror comedy", "horror"),
        ("kung fu movies", "martial arts"), ("science fiction", "science fiction"),
    ])
    func aGenreTheCatalogLacks(query: String, genre: String) throws {
        let hint = try #require(SearchHint.of(query: query, results: [Self.movie("The Horror")]))
        #expect(hint.kind == .genre)
        #expect(hint.text == "The catalog has no \(genre) genre: its genres are Action, Animation, Comedy, Drama, Documentary, Romance and Short. These titles hold the words you typed.")
    }

    @Test("nothing to say", arguments: ["dune", "90s comedy", "romantic comedies", "the horror of frankenstein",
                                        "star wars", "tom", "t hanks", "godfather part ii", "jack and the beanstalk", ""])
    func ordinaryQueriesHaveNoHint(query: String) {
        #expect(SearchHint.of(query: query, results: []) == nil)
    }
}
