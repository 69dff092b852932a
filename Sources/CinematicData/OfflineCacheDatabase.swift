import CinematicDomain

/// The SQLite file behind ``OfflineCache``: one table of answers by key, each with the time
/// it was stored (for the time to live) and a use counter (for least-recently-used eviction).
/// Not thread-safe: used only on the cache's worker thread, inside its lock.
///
/// Files: a cache file is adopted only when it is new, empty or carries our `application_id`
/// ("CNOC"). Our own file that SQLite cannot read (corrupt) is deleted and created anew; any
/// other file is refused with `.storage` and left unchanged, byte for byte.
final class OfflineCacheDatabase: @unchecked Sendable {
    /// Our `PRAGMA application_id`: "CNOC".
    static let applicationID: Int32 = 0x434E_4F43
    /// The schema's `user_version`.
    static let schemaVersion: Int32 = 1

    private let connection: SQLiteConnection
    private let select: SQLiteStatement
    private let touch: SQLiteStatement
    private let upsert: SQLiteStatement
    private let delete: SQLiteStatement
    private let total: SQLiteStatement
    private let oldest: SQLiteStatement
    private var lastUse: Int
    /// Uses recorded by lookups, written with the next store (or at close), so a lookup
    /// only reads: key -> use counter.
    private var pendingUses: [String: Int] = [:]

    /// Opens (creating, or replacing our own corrupt file) the cache at `path`.
    init(path: String) throws(MovieError) {
        if try Self.mustReplace(path) { Self.removeFiles(path) }
        do {
            connection = try Self.connect(path)
        } catch {
            // Ours, but SQLite cannot use it: a cache is disposable, start again once.
            Self.removeFiles(path)
            connection = try Self.connect(path)
        }
        select = try connection.prepare("SELECT body, stored_at FROM answers WHERE key = ?1")
        touch = try connection.prepare("UPDATE answers SET used = ?2 WHERE key = ?1")
        upsert = try connection.prepare(
            "INSERT OR REPLACE INTO answers (key, body, stored_at, used, size) VALUES (?1, ?2, ?3, ?4, ?5)")
        delete = try connection.prepare("DELETE FROM answers WHERE key = ?1")
        total = try connection.prepare("SELECT total(size), coalesce(max(used), 0) FROM answers")
        oldest = try connection.prepare("SELECT key, size FROM answers ORDER BY used LIMIT 64")
        lastUse = try Self.read(total) { $0.int(1) }
    }

    /// Writes the pending uses and closes the connection (idempotent).
    func close() {
        try? connection.transaction { () throws(MovieError) in try flushUses() }
        connection.close()
    }

    /// The answer stored under `key` and when (Unix seconds), counted as a use (kept in
    /// memory until the next write); nil when missing or older than `ttl` seconds at `now`
    /// (an expired answer is deleted).
    func lookup(_ key: String, now: Int64, ttl: Int64) throws(MovieError) -> (body: String, storedAt: Int64)? {
        try select.bind([.text(key)])
        guard try select.step() else {
            select.reset()
            return nil
        }
        let body = select.text(0) ?? ""
        let storedAt = Int64(select.int(1))
        select.reset()
        guard now - storedAt < ttl else {
            try delete.run([.text(key)])
            return nil
        }
        lastUse += 1
        pendingUses[key] = lastUse
        return (body, storedAt)
    }

    /// Stores `body` under `key` at `now`, then evicts the least recently used answers
    /// until the answers fit in `maxBytes`. An answer larger than the bound is not stored.
    func store(_ key: String, body: String, now: Int64, maxBytes: Int) throws(MovieError) {
        let size = key.utf8.count + body.utf8.count
        guard size <= maxBytes else { return }
        try connection.transaction { () throws(MovieError) in
            try flushUses()
            lastUse += 1
            pendingUses[key] = nil
            try upsert.run([.text(key), .text(body), .int(Int(now)), .int(lastUse), .int(size)])
            try evict(toFit: maxBytes)
        }
    }

    /// Writes the uses lookups recorded (inside the caller's transaction).
    private func flushUses() throws(MovieError) {
        for (key, use) in pendingUses { try touch.run([.text(key), .int(use)]) }
        pendingUses = [:]
    }

    /// The answers' size in bytes (keys and bodies) and how many there are.
    func usage() throws(MovieError) -> (bytes: Int, count: Int) {
        let count = try connection.prepare("SELECT count(*) FROM answers", persistent: false)
        defer { count.finalize() }
        let answers = try Self.read(count) { $0.int(0) }
        return (try Self.read(total) { Int($0.double(0)) }, answers)
    }

    private func evict(toFit maxBytes: Int) throws(MovieError) {
        var bytes = try Self.read(total) { Int($0.double(0)) }
        while bytes > maxBytes {
            try oldest.bind([])
            var victims: [(String, Int)] = []
            while try oldest.step() { victims.append((oldest.text(0) ?? "", oldest.int(1))) }
            oldest.reset()
            guard !victims.isEmpty else { return }
            for (key, size) in victims where bytes > maxBytes {
                try delete.run([.text(key)])
                pendingUses[key] = nil
                bytes -= size
            }
        }
    }

    private static func read<T>(_ statement: SQLiteStatement, _ column: (SQLiteStatement) -> T) throws(MovieError) -> T {
        try statement.bind([])
        defer { statement.reset() }
        guard try statement.step() else { throw .storage("no row") }
        return column(statement)
    }

    /// True when the file at `path` is our own cache that is visibly damaged (our header on a
    /// file SQLite will not read is handled by ``init(path:)``); throws for a file not ours.
    private static func mustReplace(_ path: String) throws(MovieError) -> Bool {
        guard path != ":memory:" else { return false }
        switch try SQLiteHeader.read(path) {
        case .missing: return false
        case .empty: return true
        case .notSQLite:
            throw .storage("\(path) is not an offline cache (not a SQLite file); it was left unchanged")
        case let .sqlite(header):
            guard header.applicationID == applicationID else {
                throw .storage("\(path) belongs to another program (application_id \(header.applicationID)); it was left unchanged")
            }
            return header.userVersion > schemaVersion
        }
    }

    private static func connect(_ path: String) throws(MovieError) -> SQLiteConnection {
        let connection = try SQLiteConnection(path: path)
        do {
            // The id is written in rollback-journal mode, before the switch to WAL, so the
            // main file always carries it.
            try connection.execute("""
                PRAGMA application_id = \(applicationID);
                PRAGMA user_version = \(schemaVersion);
                CREATE TABLE IF NOT EXISTS answers (
                    key TEXT PRIMARY KEY, body TEXT NOT NULL, stored_at INTEGER NOT NULL,
                    used INTEGER NOT NULL, size INTEGER NOT NULL);
                CREATE INDEX IF NOT EXISTS answers_by_use ON answers (used);
                """)
            if path != ":memory:" { try connection.execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL") }
            let check = try connection.prepare("SELECT count(*) FROM answers", persistent: false)
            defer { check.finalize() }
            _ = try read(check) { $0.int(0) }
        } catch {
            connection.close()
            throw error
        }
        return connection
    }

    private static func removeFiles(_ path: String) {
        guard path != ":memory:" else { return }
        for file in [path, path + "-wal", path + "-shm", path + "-journal"] { FileSystem.remove(file) }
    }
}
