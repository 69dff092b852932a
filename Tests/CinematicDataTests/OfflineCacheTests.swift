import CinematicData
import CinematicDomain
import Foundation
import Testing

@Suite("Offline cache")
struct OfflineCacheTests {
    @Test("a stored answer is found with the time it was stored; another key is not")
    func storeThenLookup() async throws {
        let cache = try OfflineCache.open(path: ":memory:")
        defer { cache.close() }
        cache.store("search:dune:1", body: "answer", now: 1_000)
        let hit = await cache.lookup("search:dune:1", now: 1_005)
        #expect(hit?.body == "answer")
        #expect(hit?.storedAt == 1_000)
        #expect(await cache.lookup("search:dune:2", now: 1_005) == nil)
    }

    @Test("an answer is served until its time to live has passed, then never again")
    func timeToLive() async throws {
        let cache = try OfflineCache.open(path: ":memory:", ttlSeconds: 60)
        defer { cache.close() }
        cache.store("movie:1", body: "old", now: 1_000)
        #expect(await cache.lookup("movie:1", now: 1_059)?.body == "old")
        #expect(await cache.lookup("movie:1", now: 1_060) == nil, "60 s old: expired")
        #expect(await cache.usage().count == 0, "the expired answer was deleted")
        #expect(await cache.lookup("movie:1", now: 1_000) == nil, "deleted for good")
    }

    @Test("the answers stay within maxBytes, evicting the least recently used first")
    func leastRecentlyUsedEviction() async throws {
        // Each entry: a 7-byte key and a 93-byte body = 100 bytes; room for three.
        let cache = try OfflineCache.open(path: ":memory:", maxBytes: 300)
        defer { cache.close() }
        let body = String(repeating: "x", count: 93)
        cache.store("movie:1", body: body, now: 1)
        cache.store("movie:2", body: body, now: 2)
        cache.store("movie:3", body: body, now: 3)
        #expect(await cache.usage() == (300, 3))
        _ = await cache.lookup("movie:1", now: 4)     // 1 is now more recent than 2
        cache.store("movie:4", body: body, now: 5)
        #expect(await cache.usage() == (300, 3))
        #expect(await cache.lookup("movie:2", now: 6) == nil, "the least recently used answer went")
        #expect(await cache.lookup("movie:1", now: 6) != nil)
        #expect(await cache.lookup("movie:3", now: 6) != nil)
        #expect(await cache.lookup("movie:4", now: 6) != nil)
    }

    @Test("an answer larger than the bound is not stored and evicts nothing")
    func oversizedAnswer() async throws {
        let cache = try OfflineCache.open(path: ":memory:", maxBytes: 100)
        defer { cache.close() }
        cache.store("movie:1", body: "small", now: 1)
        cache.store("movie:2", body: String(repeating: "x", count: 200), now: 2)
        #expect(await cache.lookup("movie:2", now: 3) == nil)
        #expect(await cache.lookup("movie:1", now: 3)?.body == "small")
    }

    @Test("answers survive closing and reopening the file")
    func persists() async throws {
        let path = try temporaryCachePath()
        let first = try OfflineCache.open(path: path)
        first.store("movie:7", body: "seven", now: 70)
        first.close()
        let second = try OfflineCache.open(path: path)
        defer { second.close() }
        #expect(await second.lookup("movie:7", now: 71)?.body == "seven")
    }

    @Test("an empty file is adopted as a new cache")
    func emptyFile() async throws {
        let path = try temporaryCachePath()
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        let cache = try OfflineCache.open(path: path)
        defer { cache.close() }
        cache.store("movie:1", body: "one", now: 1)
        #expect(await cache.lookup("movie:1", now: 2)?.body == "one")
    }

    @Test("our own cache file, corrupted, is replaced by a working one")
    func corruptOwnFileIsReplaced() async throws {
        let path = try temporaryCachePath()
        let cache = try OfflineCache.open(path: path)
        cache.store("movie:1", body: "one", now: 1)
        cache.close()
        // Keep our header (first 100 bytes), scribble over every page after it.
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        for index in 100..<bytes.count { bytes[index] = 0xA5 }
        try bytes.write(to: URL(fileURLWithPath: path))
        try? FileManager.default.removeItem(atPath: path + "-wal")
        let reopened = try OfflineCache.open(path: path)
        defer { reopened.close() }
        #expect(await reopened.lookup("movie:1", now: 2) == nil)
        reopened.store("movie:2", body: "two", now: 2)
        #expect(await reopened.lookup("movie:2", now: 3)?.body == "two")
    }

    @Test("a file that is not ours is refused with a clear error and left unchanged",
          arguments: ["text", "sqlite"])
    func foreignFileIsRefused(kind: String) throws {
        let path = try temporaryCachePath()
        if kind == "text" {
            try "my notes, not a cache\n".write(toFile: path, atomically: true, encoding: .utf8)
        } else {
            // Another program's SQLite database: no application id of ours.
            let other = try OfflineCache.open(path: ":memory:")
            other.close()
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["python3", "-c", "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute('PRAGMA application_id=1234'); c.execute('CREATE TABLE t(x)'); c.commit()", path]
            try process.run()
            process.waitUntilExit()
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        do {
            _ = try OfflineCache.open(path: path)
            Issue.record("a foreign file was opened")
        } catch {
            #expect(error.message.contains(path))
            #expect(error.message.contains("left unchanged"))
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }
}

func temporaryCachePath() throws -> String {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("offline-cache-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory.appendingPathComponent("cache.sqlite").path
}
