@testable import Cinematic
import CinematicDomain
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
}
