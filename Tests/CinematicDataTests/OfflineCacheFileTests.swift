@testable import CinematicData
import CinematicDomain
import Foundation
import CinematicTestSupport
import Testing

/// The offline cache's file rules: busy is not damage, an empty file is not damage, creation
/// is safe with many openers at once, and only our own damaged file is replaced.
@Suite("Offline cache files")
struct OfflineCacheFileTests {
    @Test("another connection holding the write lock at open: nothing is deleted, all 30 answers stay")
    func writeLockAtOpenDeletesNothing() async throws {
        let path = try cacheWithAnswers(30)
        let holder = try SQLiteConnection(path: path)
        try holder.execute("BEGIN EXCLUSIVE")
        let cache = try OfflineCache.open(path: path)
        #expect(FileManager.default.fileExists(atPath: path))
        try holder.execute("ROLLBACK")
        holder.close()
        #expect(await cache.usage().count == 30, "a reader never waits for a WAL writer")
        cache.close()
        #expect(try await answerCount(path) == 30)
    }

    @Test("another connection locking the file exclusively at open: the cache runs without it, says so, deletes nothing", .offThePool)
    func exclusiveLockAtOpenRunsWithoutTheCache() async throws {
        let path = try cacheWithAnswers(30)
        let held = try HeldFile(path)
        let holder = try SQLiteConnection(path: path)
        try holder.execute("PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE; SELECT count(*) FROM answers;")
        let cache = try OfflineCache.open(path: path)
        let status = cache.status
        if !status.isUsable {
            #expect(status.lastError?.message.contains("locked") == true || status.lastError?.message.contains("busy") == true,
                    "\(String(describing: status.lastError))")
        }
        cache.store("movie:99", body: "dropped or stored", now: 2)
        #expect(await cache.lookup("movie:1", now: 2) == nil || status.isUsable)
        cache.close()
        try holder.execute("ROLLBACK")
        holder.close()
        #expect(held.isStill(at: path), "the file was not replaced")
        #expect(try await answerCount(path) >= 30)
    }

    @Test("an empty file is adopted in place: never unlinked")
    func emptyFileIsAdoptedInPlace() async throws {
        let path = try temporaryCachePath()
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        let held = try HeldFile(path)
        let cache = try OfflineCache.open(path: path)
        cache.store("movie:1", body: "one", now: 1)
        #expect(await cache.lookup("movie:1", now: 2)?.body == "one")
        cache.close()
        #expect(held.isStill(at: path), "same inode: the file was initialized, not replaced")
        #expect(try header(path).applicationID == OfflineCacheDatabase.applicationID)
    }

    @Test("eight threads creating one new cache at once all get a working cache")
    func concurrentCreation() async throws {
        let path = try temporaryCachePath()
        let opened = OpenedCaches()
        let gate = DispatchSemaphore(value: 0)
        let done = DispatchGroup()
        for _ in 0..<8 {
            done.enter()
            Thread.detachNewThread {
                gate.wait()
                opened.append(try? OfflineCache.open(path: path))
                done.leave()
            }
        }
        for _ in 0..<8 { gate.signal() }
        done.wait()
        let caches = opened.all
        #expect(caches.count == 8)
        #expect(caches.allSatisfy { $0 != nil }, "every open succeeded")
        for (index, cache) in caches.enumerated() {
            guard let cache else { continue }
            #expect(cache.status.isUsable, "\(String(describing: cache.status.lastError))")
            cache.store("movie:\(index)", body: "answer \(index)", now: 1)
            #expect(await cache.lookup("movie:\(index)", now: 2) != nil)
        }
        for cache in caches { cache?.close() }
        #expect(try await answerCount(path) == caches.compactMap { $0 }.count)
    }

    @Test("our cache with zeroed pages is replaced at open, in place, and works")
    func zeroedPagesAreReplaced() async throws {
        let path = try cacheWithAnswers(30, bodyBytes: 2_000)
        try zeroPages(path, from: 1)
        let cache = try OfflineCache.open(path: path)
        #expect(await cache.lookup("movie:1", now: 2) == nil)
        cache.store("movie:2", body: "two", now: 2)
        #expect(await cache.lookup("movie:2", now: 3)?.body == "two")
        #expect(cache.status.isUsable)
        #expect(cache.status.replacements == 1)
        cache.close()
        #expect(try header(path).applicationID == OfflineCacheDatabase.applicationID)
        let again = try OfflineCache.open(path: path)
        #expect(await again.lookup("movie:2", now: 3)?.body == "two")
        #expect(again.status.replacements == 0)
        again.close()
    }

    @Test("one damaged page among the answers (header and schema intact) is replaced at open, and the status says why")
    func oneDamagedAnswerPageIsReplacedAtOpen() async throws {
        let path = try cacheWithAnswers(60, bodyBytes: 3_000)
        let pages = try FileManager.default.attributesOfItem(atPath: path)[.size] as! Int / 4_096
        #expect(pages > 40)
        try damagePage(path, pages / 2)
        let cache = try OfflineCache.open(path: path)
        #expect(cache.status.isUsable)
        #expect(cache.status.replacements == 1)
        #expect(cache.status.lastError?.message.contains("was damaged") == true)
        #expect(cache.status.lastError?.message.contains("replaced by an empty one") == true)
        #expect(await cache.lookup("movie:1", now: 2) == nil)
        cache.store("movie:2", body: "two", now: 2)
        #expect(await cache.lookup("movie:2", now: 3)?.body == "two")
        cache.close()
        #expect(try header(path).applicationID == OfflineCacheDatabase.applicationID)
    }

    @Test("damage that surfaces during a lookup is replaced then; the cache keeps working")
    func damageFoundLaterIsReplaced() async throws {
        let path = try cacheWithAnswers(30, bodyBytes: 2_000)
        let cache = try OfflineCache.open(path: path)
        #expect(cache.status.replacements == 0)
        // Damage the file under the open cache: another connection's change makes it reread.
        try zeroPages(path, from: 1)
        let writer = try SQLiteConnection(path: path)
        try? writer.execute("PRAGMA user_version = 1")
        writer.close()
        var found = 0
        for index in 0..<30 where await cache.lookup("movie:\(index)", now: 2) != nil { found += 1 }
        #expect(found < 30)
        #expect(cache.status.replacements == 1, "found by a lookup, replaced then")
        #expect(cache.status.lastError?.message.contains("replaced by an empty one") == true)
        cache.store("movie:new", body: "new", now: 3)
        #expect(await cache.lookup("movie:new", now: 4)?.body == "new")
        #expect(cache.status.isUsable)
        cache.close()
        #expect(try header(path).applicationID == OfflineCacheDatabase.applicationID)
    }

    @Test("a foreign SQLite file and a non-SQLite file are left byte-identical, with no side files",
          arguments: ["text", "sqlite", "sqlite-damaged"])
    func foreignFilesUntouched(kind: String) throws {
        let path = try temporaryCachePath()
        switch kind {
        case "text": try "my notes, not a cache\n".write(toFile: path, atomically: true, encoding: .utf8)
        default:
            let other = try SQLiteConnection(path: path)
            try other.execute("PRAGMA application_id = 1234; CREATE TABLE t(x); INSERT INTO t VALUES (randomblob(9000));")
            other.close()
            if kind == "sqlite-damaged" { try zeroPages(path, from: 1) }
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(throws: MovieError.self) { _ = try OfflineCache.open(path: path) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        for suffix in ["-wal", "-shm", "-journal"] { #expect(!FileManager.default.fileExists(atPath: path + suffix)) }
    }
}

/// Caches opened on several threads.
final class OpenedCaches: @unchecked Sendable {
    private let lock = NSLock()
    private var caches: [OfflineCache?] = []

    func append(_ cache: OfflineCache?) { lock.withLock { caches.append(cache) } }
    var all: [OfflineCache?] { lock.withLock { caches } }
}

/// A new cache file holding `count` answers ("movie:0"…), closed.
func cacheWithAnswers(_ count: Int, bodyBytes: Int = 20) throws -> String {
    let path = try temporaryCachePath()
    let database = try OfflineCacheDatabase(path: path)
    for index in 0..<count {
        try database.store("movie:\(index)", body: String(repeating: "x", count: bodyBytes), now: 1, maxBytes: 1 << 30)
    }
    database.close()
    return path
}

/// How many answers the cache at `path` holds, read through a fresh cache.
func answerCount(_ path: String) async throws -> Int {
    let cache = try OfflineCache.open(path: path)
    defer { cache.close() }
    return await cache.usage().count
}

/// A file kept open, so its inode cannot be reused: tells whether a path still names it.
final class HeldFile {
    private let descriptor: Int32

    init(_ path: String) throws {
        descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw MovieError.storage("cannot open \(path)") }
    }

    deinit { close(descriptor) }

    /// True when `path` is this very file (same device and inode), not a replacement.
    func isStill(at path: String) -> Bool {
        var held = stat(), named = stat()
        guard fstat(descriptor, &held) == 0, stat(path, &named) == 0 else { return false }
        return held.st_dev == named.st_dev && held.st_ino == named.st_ino
    }
}

/// The SQLite header of `path`.
func header(_ path: String) throws -> SQLiteHeader {
    guard case let .sqlite(header) = try SQLiteHeader.read(path) else { throw MovieError.storage("no SQLite header") }
    return header
}

/// Writes 0xA5 over page `number` of `path` (pages of 4096 bytes, numbered from 1 as SQLite does).
func damagePage(_ path: String, _ number: Int) throws {
    let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
    defer { try? handle.close() }
    try handle.seek(toOffset: UInt64((number - 1) * 4_096))
    handle.write(Data(repeating: 0xA5, count: 4_096))
}

/// Writes zeros over every page of `path` after page `from` (pages of 4096 bytes, numbered from 0).
func zeroPages(_ path: String, from: Int) throws {
    let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
    defer { try? handle.close() }
    let size = try handle.seekToEnd()
    let start = UInt64(from * 4_096)
    guard size > start else { throw MovieError.storage("only \(size) bytes") }
    try handle.seek(toOffset: start)
    handle.write(Data(count: Int(size - start)))
}
