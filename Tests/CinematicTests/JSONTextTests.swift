@testable import Cinematic
import CinematicDomain
import CinematicFeatures
import Testing

/// The text the library writes without jansson (plain strings quoted as they are, patches
/// laid out in one writer) is the text jansson writes, byte for byte.
@Suite("JSON text written without jansson")
struct JSONTextTests {
    /// What jansson writes for `text` at the library's flags.
    func jansson(_ text: String) -> String { JSONFragment(consuming: JSONBuilder.string(text)).text }

    static let strings = [
        "", "a", "dune", "Amélie", "東京物語", "🎬 Star Wars", "a/b", "~0", "back\\slash", "say \"hi\"",
        "tab\there", "new\nline", "nul\u{0}byte", "\u{1F}", "\u{7F}del", "\u{2028}line separator", " spaced ",
        String(repeating: "long title ", count: 200), "e\u{301}", "\r\n",
    ]

    @Test("a string is the text jansson writes, with or without something to escape", arguments: strings)
    func stringMatchesJansson(_ text: String) {
        #expect(JSONFragment.string(text).text == jansson(text))
    }

    @Test("a patch's text: its operations in order, paths and values as jansson writes them")
    func patchText() {
        let old = StateNode.object([("query", .string("lov")), ("count", .int(20)), ("a/b", .string("x"))])
        let new = StateNode.object([("query", .string("love \"now\"")), ("count", .int(20)), ("a/b", .string("y"))])
        #expect(StatePatch(from: old, to: new).json.text
                == #"[{"op":"replace","path":"/query","value":"love \"now\""},{"op":"replace","path":"/a~1b","value":"y"}]"#)
        #expect(StatePatch(from: old, to: old).json.text == "[]")
    }
}

/// The app codec's caches (rows worded once, each row's node kept, the view's parts kept)
/// never show a stale part: after every change, the state text is a fresh codec's.
@Suite("App view caches")
struct AppViewCacheTests {
    func movies(_ ids: ClosedRange<Int>, rating: Double = 7) -> [Movie] {
        ids.map { Movie(id: $0, title: "Film \($0)", year: 1990 + $0 % 30, runtime: 100, rating: rating, votes: 10, genres: ["Drama"], mpaa: nil) }
    }

    @Test("moving, scrolling, typing, re-rated films, another sort: the cached text is a fresh codec's")
    func cachedTextIsFresh() {
        var state = AppState()
        state.search = SearchState(query: "film", results: .loaded(movies(1...40)), resultsQuery: "film", pagesLoaded: 2)
        state.visibleRows = 5
        let codec = AppCodec()
        var steps: [(String, (inout AppState) -> Void)] = [
            ("typed", { $0.search.query = "films" }),
            ("moved", { $0.positions[.search] = ListPosition(selection: 3, firstVisible: 0) }),
            ("scrolled", { $0.positions[.search] = ListPosition(selection: 7, firstVisible: 3) }),
            ("re-rated, same ids", { $0.search.results = .loaded(movies(1...40, rating: 8.25)) }),
            ("sorted", { $0.sort = .rating }),
            ("the Discover tab", { $0.tab = .discover }),
        ]
        steps.append(("back to Search", { $0.tab = .search }))
        for (name, change) in steps {
            change(&state)
            #expect(codec.encodeState(state).text == AppCodec().encodeState(state).text, "after \(name)")
        }
        #expect(codec.encodeState(state).text.contains(#""rating":"8.3""#))
    }
}
