import CinematicData
import CinematicDomain
import Foundation

/// One embedded catalog for the whole test process: the test build has no index compiled in,
/// so it is built in memory, once.
enum TestCatalog {
    static let version = "0.0.0-test"

    static let shared: SQLiteMovieCatalog = {
        do throws(MovieError) {
            let catalog = try SQLiteMovieCatalog.open(.embedded(libraryVersion: version))
            catalog.waitUntilLoaded()
            return catalog
        } catch { fatalError("catalog: \(error.message)") }
    }()

    /// A scratch directory of this test process.
    static func directory(_ name: String) -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("cinematic-data-tests-\(getpid())/\(name)-\(UUID())")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
