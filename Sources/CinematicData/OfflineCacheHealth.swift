import CinematicDomain
import Synchronization

/// The live ``OfflineCacheStatus`` of one cache, shared by its worker (which records
/// failures) and any thread that reads it; calls the cache's problem handler after each
/// change, on the thread that recorded it.
final class OfflineCacheHealth: Sendable {
    private let current: Mutex<OfflineCacheStatus>
    private let onProblem: (@Sendable (OfflineCacheStatus) -> Void)?

    init(_ initial: OfflineCacheStatus, onProblem: (@Sendable (OfflineCacheStatus) -> Void)?) {
        current = Mutex(initial)
        self.onProblem = onProblem
    }

    /// The status now.
    var status: OfflineCacheStatus { current.withLock { $0 } }

    /// Runs one operation of the cache's database, recording its failure (and any
    /// replacement of the damaged file it caused); nil when it failed.
    func run<T>(_ database: OfflineCacheDatabase, _ body: (OfflineCacheDatabase) throws(MovieError) -> T) -> T? {
        let replacements = database.replacements
        do {
            let result = try body(database)
            if database.replacements != replacements { note(replacements: database.replacements, error: nil) }
            return result
        } catch {
            note(replacements: database.replacements, error: error)
            return nil
        }
    }

    /// Records `error` (when given) and the replacement count.
    func note(replacements: Int, error: MovieError?) {
        let status = current.withLock { status -> OfflineCacheStatus in
            if let error { status = status.failed(error, usable: true) }
            status.replacements = replacements
            return status
        }
        onProblem?(status)
    }
}
