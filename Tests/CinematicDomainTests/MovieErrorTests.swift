import CinematicDomain
import Testing
import CinematicTestSupport

@Suite("MovieError")
struct MovieErrorTests {
    @Test(arguments: [
        MovieError.network("connection reset"),
        .notFound,
        .invalidResponse("truncated JSON"),
        .storage("disk full"),
        .network(""),
    ])
    func codeAndMessageRoundTrip(error: MovieError) {
        #expect(MovieError(code: error.code, message: error.message) == error)
    }

    @Test func codesAreTheClosedWireSet() {
        #expect(MovieError.network("x").code == "network")
        #expect(MovieError.notFound.code == "notFound")
        #expect(MovieError.invalidResponse("x").code == "invalidResponse")
        #expect(MovieError.storage("x").code == "storage")
    }

    @Test func messages() {
        #expect(MovieError.network("timed out").message == "timed out")
        #expect(MovieError.notFound.message == "movie not found")
        #expect(MovieError.invalidResponse("bad").message == "bad")
        #expect(MovieError.storage("locked").message == "locked")
    }

    @Test func notFoundIgnoresTheMessage() {
        #expect(MovieError(code: "notFound", message: "anything") == .notFound)
    }

    @Test(arguments: ["timeout", "", "NETWORK", "not_found"])
    func anUnknownCodeMapsToInvalidResponseNamingTheCode(code: String) {
        let error = MovieError(code: code, message: "details")
        #expect(error == .invalidResponse("unknown error code \"\(code)\": details"))
        #expect(error.code == "invalidResponse")
        #expect(error.message.contains("\"\(code)\""))
        #expect(error.message.contains("details"))
    }
}
