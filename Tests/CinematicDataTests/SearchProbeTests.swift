import CinematicData
import Foundation
import Testing

/// Temporary: prints the first results of the queries in CINEMATIC_PROBE (separated by "|").
@Suite struct SearchProbeTests {
    @Test func probe() throws {
        guard let text = ProcessInfo.processInfo.environment["CINEMATIC_PROBE"] else { return }
        for query in text.split(separator: "|") {
            let results = try TestCatalog.shared.search(String(query))
            print("PROBE \(query) → " + results.prefix(6).map { "\($0.title) (\($0.year), \($0.votes))" }.joined(separator: "; "))
        }
    }
}
