import CinematicData
import CinematicDomain
import CinematicTestSupport
import Foundation
import Testing

/// One embedded catalog for the whole test process: the test build has no index compiled in,
/// so it is built in memory, once.
enum TestCatalog {
    static let version = "0.0.0-test"

    /// The catalog, built on first use (seconds of synchronous work) and searched
    /// synchronously: only for tests under `.offThePool`, which records an issue otherwise
    /// (on the cooperative pool, such work starves every other test's tasks).
    static var shared: SQLiteMovieCatalog {
        if !isOffThePool {
            Issue.record("TestCatalog.shared used on the cooperative pool: mark the suite or test `.offThePool`")
        }
        return built
    }

    private static let built: SQLiteMovieCatalog = {
        do throws(MovieError) {
            let catalog = try SQLiteMovieCatalog.open(.embedded(libraryVersion: version))
            catalog.waitUntilLoaded()
            return catalog
        } catch { fatalError("catalog: \(error.message)") }
    }()

    /// The first result of `query` as a person reads it: "Title (year)".
    static func first(_ query: String) throws -> String? {
        try shared.search(query).first.map { "\($0.title) (\($0.year))" }
    }

    /// A scratch directory of this test process.
    static func directory(_ name: String) -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("cinematic-data-tests-\(getpid())/\(name)-\(UUID())")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
