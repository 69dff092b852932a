@testable import Cinematic
import CinematicDomain
import CinematicFeatures
import Testing

/// The wire names of domain values live in the codecs: error codes and section ids.
@Suite("Wire names")
struct WireNamesTests {
    @Test(arguments: [
        MovieError.network("connection reset"),
        .notFound,
        .invalidResponse("truncated JSON"),
        .storage("disk full"),
        .network(""),
    ])
    func codeAndMessageRoundTrip(error: MovieError) {
        #expect(WireNames.error(code: WireNames.code(of: error), message: error.message) == error)
    }

    @Test func codesAreTheClosedWireSet() {
        #expect(WireNames.code(of: .network("x")) == "network")
        #expect(WireNames.code(of: .notFound) == "notFound")
        #expect(WireNames.code(of: .invalidResponse("x")) == "invalidResponse")
        #expect(WireNames.code(of: .storage("x")) == "storage")
        #expect(WireNames.code(of: .timeout("x")) == "timeout")
        #expect(WireNames.error(code: "timeout", message: "late") == .timeout("late"))
    }

    @Test func notFoundKeepsTheLibrarysMessage() {
        #expect(WireNames.error(code: "notFound", message: "anything") == .notFound)
        #expect(MovieError.notFound.message == "movie not found")
    }

    @Test(arguments: ["deadline", "", "NETWORK", "not_found"])
    func anUnknownCodeMapsToInvalidResponseNamingTheCode(code: String) {
        let error = WireNames.error(code: code, message: "details")
        #expect(error == .invalidResponse("unknown error code \"\(code)\": details"))
    }

    @Test func sectionIDsAreCamelCaseWithSeparateTitles() {
        #expect(WireNames.sectionIDs == ["popular", "topRated", "action", "animation", "comedy", "drama", "documentary", "romance", "short"])
        #expect(DiscoverSection.all.map(WireNames.title(of:)) == ["Popular", "Top rated", "Action", "Animation", "Comedy", "Drama", "Documentary", "Romance", "Short"])
    }

    @Test(arguments: DiscoverSection.all)
    func sectionIDsRoundTrip(section: DiscoverSection) {
        #expect(WireNames.section(id: WireNames.id(of: section)) == section)
    }

    @Test(arguments: ["", "Popular", "POPULAR", "toprated", "TopRated", "top_rated", "Comedy", "western", " popular", "drama "])
    func unknownSectionIDsParseToNil(id: String) {
        #expect(WireNames.section(id: id) == nil)
    }

    /// Each list's constant state key (a member of the state's `positions`) is its wire name.
    @Test func everyListsStateKeyIsItsWireName() {
        for list in AppList.all { #expect(list.stateKey.description == list.wireName) }
    }

    /// An object whose members came or went is patched member by member while an applier
    /// rebuilds its order (new members after the kept ones), else replaced whole.
    @Test func objectsPatchOnlyTheMembersThatCameOrWent() {
        let one = StateNode.fragment(.object([("selection", .int(1)), ("firstVisible", .int(0))]))
        let two = StateNode.fragment(.object([("selection", .int(2)), ("firstVisible", .int(0))]))
        func text(_ from: [StateMember], _ to: [StateMember]) -> String { StatePatch(from: .object(from), to: .object(to)).json.text }
        #expect(text([("search", one), ("comedy", one)], [("comedy", one)]) == #"[{"op":"remove","path":"/search"}]"#)
        #expect(text([("search", one)], [("search", one), ("comedy", two)])
            == #"[{"op":"add","path":"/comedy","value":{"selection":2,"firstVisible":0}}]"#)
        #expect(text([("comedy", one)], [("search", two), ("comedy", one)])
            == #"[{"op":"replace","path":"","value":{"search":{"selection":2,"firstVisible":0},"comedy":{"selection":1,"firstVisible":0}}}]"#)
    }
}
