import CinematicData
import CinematicDomain
import Foundation
import Testing

/// A write updates the observed favorites by what it changed (one row in, one row out)
/// instead of reading the table back: these tests hold that list to exactly what a full read
/// of the table gives after every write, ordering, repeated adds, absent removals, values that
/// change on their way into SQLite and other writers on the same file included.
@Suite("Favorites changed by what changed")
struct FavoritesIncrementalTests {
    @Test("after each write the observed list is the full read: order, repeated adds, absent removals, re-adds",
          arguments: [false, true])
    func scriptedWritesMatchAFullRead(onFile: Bool) async throws {
        let favorites = try SQLiteFavorites.open(path: onFile ? try temporaryPath() : ":memory:")
        defer { favorites.close() }
        let steps: [(String, (SQLiteFavorites) async throws -> Void)] = [
            ("add 1", { try await $0.add(movie(1)) }),
            ("add 2", { try await $0.add(movie(2)) }),
            ("add 3", { try await $0.add(movie(3)) }),
            ("add 2 again, renamed: kept where it was, as it was", { try await $0.add(movie(2, title: "Renamed")) }),
            ("remove 2 (the middle)", { try await $0.remove(id: 2) }),
            ("remove 2 again (absent)", { try await $0.remove(id: 2) }),
            ("remove 99 (never there)", { try await $0.remove(id: 99) }),
            ("re-add 2: first now", { try await $0.add(movie(2)) }),
            ("toggle 1 off (the last)", { _ = try await $0.toggle(movie(1)) }),
            ("toggle 4 on", { _ = try await $0.toggle(movie(4)) }),
            ("remove 4 (the first)", { try await $0.remove(id: 4) }),
            ("remove everything", { for id in [2, 3] { try await $0.remove(id: id) } }),
            ("add into the empty list", { try await $0.add(movie(5)) }),
        ]
        var version = favorites.observedSnapshot.version
        for (name, step) in steps {
            try await step(favorites)
            let observed = favorites.observedSnapshot
            #expect(observed.movies == (try await favorites.list()), "after \(name)")
            #expect(observed.version >= version, "after \(name)")
            version = observed.version
        }
        #expect(favorites.observedSnapshot.movies.map(\.id) == [5])
    }

    @Test("a row is listed as stored, not as passed: genres and titles SQLite gives back otherwise")
    func rowsAreListedAsStored() async throws {
        let favorites = try SQLiteFavorites.open(path: ":memory:")
        defer { favorites.close() }
        // [""] is stored as "" and read back as []; text is bound up to its first NUL.
        let odd = Movie(id: 7, title: "Before\u{0}after", year: 2001, runtime: 1, rating: 0.1 + 0.2, votes: 3,
                        genres: [""], mpaa: "")
        try await favorites.add(odd)
        let stored = try await favorites.list()
        #expect(stored.first?.genres == [] && stored.first?.title == "Before")
        #expect(favorites.observedSnapshot.movies == stored)
    }

    @Test("another writer's changes are in the next write's list, whether or not a poll saw them first")
    func foreignWritesAreReadBack() async throws {
        let path = try temporaryPath()
        let ours = try SQLiteFavorites.open(path: path)
        let theirs = try SQLiteFavorites.open(path: path)
        defer { ours.close(); theirs.close() }
        try await ours.add(movie(1))
        try await ours.add(movie(2))
        // They remove our newest (its position is free again: SQLite gives it to the next
        // insert) and add two; we add right after, before a poll is due.
        try await theirs.remove(id: 2)
        try await theirs.add(movie(10))
        try await theirs.add(movie(11))
        try await ours.add(movie(3))
        #expect(ours.observedSnapshot.movies.map(\.id) == [3, 11, 10, 1])
        #expect(ours.observedSnapshot.movies == (try await ours.list()))
        _ = try await theirs.toggle(movie(1))
        try await ours.remove(id: 11)
        #expect(ours.observedSnapshot.movies.map(\.id) == [3, 10])
        #expect(ours.observedSnapshot.movies == (try await theirs.list()))
    }

    @Test("a seeded mix of our writes and another writer's always leaves the full read's list", arguments: [1, 2, 3])
    func randomWritesMatchAFullRead(seed: UInt64) async throws {
        let path = try temporaryPath()
        let ours = try SQLiteFavorites.open(path: path)
        let theirs = try SQLiteFavorites.open(path: path)
        defer { ours.close(); theirs.close() }
        var random = SplitMix(seed: seed)
        for round in 0..<150 {
            let writer = random.next(6) == 0 ? theirs : ours
            let id = 1 + random.next(12)
            let before = ours.observedSnapshot.version
            switch random.next(3) {
            case 0: try await writer.add(movie(id))
            case 1: try await writer.remove(id: id)
            default: _ = try await writer.toggle(movie(id))
            }
            guard writer === ours else { continue }
            let observed = ours.observedSnapshot
            #expect(observed.movies == (try await ours.list()), "round \(round), seed \(seed)")
            #expect(observed.version >= before, "round \(round), seed \(seed)")
        }
    }
}

/// A film with every field derived from `id`.
private func movie(_ id: Int, title: String? = nil) -> Movie {
    Movie(id: id, title: title ?? "Film \(id)", year: 1_950 + id, runtime: 80 + id, rating: Double(id % 10) + 0.25,
          votes: id * 7, genres: id.isMultiple(of: 2) ? ["Drama"] : ["Comedy", "Short"], mpaa: id.isMultiple(of: 3) ? nil : "R")
}

private func temporaryPath() throws -> String {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("favorites-incremental-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory.appendingPathComponent("favorites.sqlite").path
}

/// A small deterministic generator (SplitMix64), so a failing seed replays.
private struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next(_ bound: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((z ^ (z >> 31)) % UInt64(bound))
    }
}
