import CinematicData
import CinematicDomain
import Foundation

/// One catalog database for the whole test process, built in a temporary directory.
enum TestCatalog {
    static let path: String = {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cinematic-data-tests-\(getpid())")
        return directory.appendingPathComponent("catalog.sqlite").path
    }()

    static let shared: SQLiteMovieCatalog = {
        do throws(MovieError) { return try SQLiteMovieCatalog.open(path: path) } catch { fatalError("catalog: \(error.message)") }
    }()
}
