import CinematicData
import CinematicDomain
import Foundation
import Synchronization
import Testing

/// What the SQLite favorites suite (SQLiteFavorites*Tests.swift) shares: a movie to favorite,
/// temporary paths, bounded polling, and recorders of what an observation yields.

/// A movie to favorite, its fields varied by id.
func favoriteMovie(_ id: Int) -> Movie {
    Movie(id: id, title: "Favorite \(id)", year: 1_990 + id % 30, runtime: 90 + id, rating: Double(id % 10) + 0.5,
          votes: id * 100, genres: id.isMultiple(of: 2) ? ["Drama"] : ["Comedy", "Romance"], mpaa: id.isMultiple(of: 3) ? nil : "PG")
}

/// Path helpers for the tests.
enum FileSystemPath {
    static func directory(of path: String) -> String { (path as NSString).deletingLastPathComponent }
}

/// A fresh path in a new temporary directory.
func temporaryFavoritesPath() throws -> String {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("favorites-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory.appendingPathComponent("favorites.sqlite").path
}

/// Polls `condition` every few milliseconds; fails the test if it is not true within `timeout`.
func pollUntil(timeout: Duration = .seconds(5), _ condition: () -> Bool,
                       sourceLocation: SourceLocation = #_sourceLocation) async throws {
    let deadline = ContinuousClock.now + timeout
    while !condition() {
        guard ContinuousClock.now < deadline else {
            Issue.record("condition still false after \(timeout)", sourceLocation: sourceLocation)
            return
        }
        try await Task.sleep(for: .milliseconds(2))
    }
}

/// Records every snapshot a stream delivers, from a task that is always waiting for the next
/// one (so no delivery is coalesced away).
final class ListRecorder: Sendable {
    private let recorded = Mutex<[FavoritesSnapshot]>([])
    private let task = Mutex<Task<Void, Never>?>(nil)

    init(_ stream: AsyncStream<FavoritesSnapshot>) {
        let consumer = Task { for await snapshot in stream { self.record(snapshot) } }
        task.withLock { $0 = consumer }
    }

    var snapshots: [FavoritesSnapshot] { recorded.withLock { $0 } }
    var lists: [[Movie]] { snapshots.map(\.movies) }
    var versions: [UInt64] { snapshots.map(\.version) }

    private func record(_ snapshot: FavoritesSnapshot) { recorded.withLock { $0.append(snapshot) } }

    func stop() { task.withLock { $0?.cancel() } }
}

/// The last list an observer saw.
final class LastList: Sendable {
    private let value = Mutex<[Movie]?>(nil)
    func set(_ list: [Movie]) { value.withLock { $0 = list } }
    func get() -> [Movie]? { value.withLock { $0 } }
}

/// True for a `.storage` error.
func isStorage(_ error: MovieError?) -> Bool {
    if case .storage = error { return true }
    return false
}
