@testable import Cinematic
import CinematicDomain
import Testing

/// A host provider's movies (schema `hostMovie`): `alternateTitles` shows the first name beside
/// the title, as the embedded catalog shows a foreign-language film's English name.
@Suite("Host movies")
struct HostMovieTests {
    func movie(_ text: String) throws(APIError) -> Movie {
        let document = try parse(text)
        return try DomainJSON.decodeMovie(JSONValueReader(document.root, path: "$.movies[0]"))
    }

    @Test("the first alternate title is shown beside the title; none leaves it as it is")
    func theFirstNameIsShown() throws {
        #expect(try movie(#"{"id":1,"title":"Shichinin no samurai","alternateTitles":["Seven Samurai","The Seven Samurai"]}"#).title
                == "Shichinin no samurai (Seven Samurai)")
        #expect(try movie(#"{"id":1,"title":"Dune","alternateTitles":[]}"#).title == "Dune")
        #expect(try movie(#"{"id":1,"title":"Dune"}"#).title == "Dune")
    }

    @Test("alternate titles past their bounds are invalid, the member named", arguments: [
        (#"{"id":1,"title":"A","alternateTitles":"Seven Samurai"}"#, "$.movies[0].alternateTitles"),
        (#"{"id":1,"title":"A","alternateTitles":[1]}"#, "$.movies[0].alternateTitles[0]"),
        (#"{"id":1,"title":"A","alternateTitles":[""]}"#, "$.movies[0].alternateTitles[0]"),
        (#"{"id":1,"title":"A","alternateTitles":["a","b","c","d","e","f","g","h","i"]}"#, "$.movies[0].alternateTitles"),
        ("{\"id\":1,\"title\":\"A\",\"alternateTitles\":[\"\(String(repeating: "x", count: 201))\"]}", "$.movies[0].alternateTitles[0]"),
    ])
    func boundsAreChecked(text: String, path: String) {
        let error = #expect(throws: APIError.self) { try movie(text) }
        #expect(error?.status == .invalid && error?.path == path, "\(String(describing: error))")
    }
}
