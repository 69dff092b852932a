import CinematicData
import CinematicTestSupport
import CinematicDomain
import MVIKit
import Synchronization
import Testing

@Suite("Host catalog request deadline")
struct HostDeadlineTests {
    @Test("an unanswered request fails with timeout when the deadline passes on the clock, and the host hears cancel")
    func deadlineExpires() async {
        let clock = ManualClock()
        let log = Log()
        let catalog = HostMovieCatalog(deadline: .init(.milliseconds(1_000), on: clock),
                                       onRequest: { id, _ in log.append("request \(id)") },
                                       onCancel: { id in log.append("cancel \(id)") })
        let search = Task { () -> Result<[Movie], MovieError> in
            do throws(MovieError) { return .success(try await catalog.searchMovies(matching: "dune", page: 1)) } catch { return .failure(error) }
        }
        await waitUntil("the request is out and its timer sleeps") { log.entries == ["request 1"] && clock.sleeperCount == 1 }
        clock.advance(by: .milliseconds(999))
        #expect(log.entries == ["request 1"])
        clock.advance(by: .milliseconds(1))
        #expect(await search.value == .failure(.timeout("the catalog did not answer within 1000 ms")))
        #expect(log.entries == ["request 1", "cancel 1"])
        #expect(catalog.respond(to: 1, with: .success(.movies([]))) == .dropped, "the late answer is dropped")
    }

    @Test("an answer in time cancels the timer: no timeout, no cancel")
    func answerInTime() async {
        let clock = ManualClock()
        let log = Log()
        let catalog = HostMovieCatalog(deadline: .init(.milliseconds(1_000), on: clock),
                                       onRequest: { id, _ in log.append("request \(id)") },
                                       onCancel: { id in log.append("cancel \(id)") })
        let search = Task { try? await catalog.search(matching: "dune", page: 1) }
        await waitUntil("the request is out") { log.entries == ["request 1"] }
        #expect(catalog.respond(to: 1, with: .success(.movies([]))) == .delivered)
        #expect(await search.value == Sourced([], source: .live))
        await waitUntil("the timer was cancelled") { clock.sleeperCount == 0 }
        clock.advance(by: .seconds(5))
        #expect(log.entries == ["request 1"])
    }
}

private final class Log: Sendable {
    private let lines = Mutex<[String]>([])
    func append(_ line: String) { lines.withLock { $0.append(line) } }
    var entries: [String] { lines.withLock { $0 } }
}
