import CinematicDomain

/// The SQLite file behind ``OfflineCache``: one table of answers by key, each with the time
/// it was stored (for the time to live) and a use counter (for least-recently-used eviction).
/// Not thread-safe: used only on the cache's worker thread, inside its lock.
///
/// Files (ours or untouched; busy is not damaged):
/// - The header is read with `read(2)` before SQLite touches the file. A file that is not
///   SQLite, or is another program's SQLite file, or ours from a newer schema, is refused
///   with `.storage` and left unchanged, byte for byte (no side files either).
/// - A missing or empty file is initialized by SQLite in place, inside a write transaction
///   (another process may be creating it at the same moment: whoever comes second finds our
///   schema and adopts it). An empty file is never unlinked.
/// - Another connection's lock is waited for (``busyTimeoutMilliseconds``); still busy, the
///   open fails with ``OfflineCacheOpenError/busy(_:)`` and the caller runs without the cache.
///   Nothing is ever deleted.
/// - Only our own file (our `application_id` "CNOC" in its header) that SQLite reports as
///   damaged (SQLITE_CORRUPT, SQLITE_NOTADB), at open or later during a lookup or store, is
///   replaced: the pages of an empty cache are copied over it in one transaction under
///   SQLite's locks (see ``SQLiteConnection/replaceContents(with:)``), so another process
///   using it sees the old file or the new one, never a missing one.
final class OfflineCacheDatabase: @unchecked Sendable {
    /// Our `PRAGMA application_id`: "CNOC".
    static let applicationID: Int32 = 0x434E_4F43
    /// The schema's `user_version`.
    static let schemaVersion: Int32 = 1
    /// How long opening (and each statement) waits for another connection's lock. Shorter
    /// than the favorites' wait: a cache is worth less than the time a host waits to open.
    static let busyTimeoutMilliseconds = 2_000

    let path: String
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
    /// How many times our damaged file was replaced by an empty cache (at open or later).
    private(set) var replacements = 0
    /// Why our file was replaced at open (the damage SQLite reported); nil when it was not.
    private(set) var replacedBecause: MovieError?

    /// Opens (creating in place, or replacing our own damaged file) the cache at `path`
    /// (":memory:" allowed). Throws ``OfflineCacheOpenError/busy(_:)`` when another
    /// connection kept it locked, ``OfflineCacheOpenError/failed(_:)`` otherwise.
    init(path: String) throws(OfflineCacheOpenError) {
        self.path = path
        let connection: SQLiteConnection
        do {
            try Self.checkHeader(path)
            connection = try SQLiteConnection(path: path, busyTimeoutMilliseconds: Self.busyTimeoutMilliseconds)
        } catch {
            throw .failed(error)
        }
        self.connection = connection
        do {
            // Everything opening reads (the schema, an index, every answer's row and
            // overflow pages) is read inside the damage check: one damaged page anywhere in
            // it means our file is replaced here, not refused.
            do {
                lastUse = try Self.adoptWaiting(connection, path: path)
            } catch where Self.isDamage(connection.failureCode) {
                replacedBecause = error
                try Self.replace(connection, path: path)
                replacements = 1
                lastUse = try Self.adopt(connection, path: path)
            }
            select = try connection.prepare("SELECT body, stored_at FROM answers WHERE key = ?1")
            touch = try connection.prepare("UPDATE answers SET used = ?2 WHERE key = ?1")
            upsert = try connection.prepare(
                "INSERT OR REPLACE INTO answers (key, body, stored_at, used, size) VALUES (?1, ?2, ?3, ?4, ?5)")
            delete = try connection.prepare("DELETE FROM answers WHERE key = ?1")
            total = try connection.prepare("SELECT total(size), coalesce(max(used), 0) FROM answers")
            oldest = try connection.prepare("SELECT key, size FROM answers ORDER BY used LIMIT 64")
        } catch {
            let code = connection.failureCode
            connection.close()
            throw Self.isBusy(code)
                ? .busy(.storage("the offline cache at \(path) is locked by another connection (\(error.message)); running without it"))
                : .failed(error)
        }
    }

    /// Writes the pending uses and closes the connection (idempotent); the error of the
    /// final write, if any (the file is closed either way).
    @discardableResult
    func close() -> MovieError? {
        var failure: MovieError?
        do {
            try connection.transaction { () throws(MovieError) in try flushUses() }
        } catch {
            failure = error
        }
        connection.close()
        return failure
    }

    /// The answer stored under `key` and when (Unix seconds), counted as a use (kept in
    /// memory until the next write); nil when missing or older than `ttl` seconds at `now`
    /// (an expired answer is deleted).
    func lookup(_ key: String, now: Int64, ttl: Int64) throws(MovieError) -> (body: String, storedAt: Int64)? {
        try guarded { () throws(MovieError) -> (body: String, storedAt: Int64)? in
            try select.bind([.text(key)])
            defer { select.reset() }
            guard try select.step() else { return nil }
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
    }

    /// Stores `body` under `key` at `now`, then evicts the least recently used answers
    /// until the answers fit in `maxBytes`. An answer larger than the bound is not stored.
    func store(_ key: String, body: String, now: Int64, maxBytes: Int) throws(MovieError) {
        let size = key.utf8.count + body.utf8.count
        guard size <= maxBytes else { return }
        try guarded { () throws(MovieError) in
            try connection.transaction { () throws(MovieError) in
                try flushUses()
                lastUse += 1
                pendingUses[key] = nil
                try upsert.run([.text(key), .text(body), .int(Int(now)), .int(lastUse), .int(size)])
                try evict(toFit: maxBytes)
            }
        }
    }

    /// The answers' size in bytes (keys and bodies) and how many there are.
    func usage() throws(MovieError) -> (bytes: Int, count: Int) {
        try guarded { () throws(MovieError) -> (bytes: Int, count: Int) in
            let count = try connection.prepare("SELECT count(*) FROM answers", persistent: false)
            defer { count.finalize() }
            let answers = try Self.read(count) { $0.int(0) }
            return (try Self.read(total) { Int($0.double(0)) }, answers)
        }
    }

    /// Runs `body`; when it fails because the file is damaged, replaces the file by an empty
    /// cache and throws an error saying so (what was asked is a miss, the next call works).
    private func guarded<T>(_ body: () throws(MovieError) -> T) throws(MovieError) -> T {
        connection.clearFailure()
        do {
            return try body()
        } catch where Self.isDamage(connection.failureCode) {
            connection.resetAll()
            guard case let .sqlite(header)? = try? SQLiteHeader.read(path, what: "offline cache"), header.applicationID == Self.applicationID else {
                throw .storage("the offline cache at \(path) is damaged (\(error.message)) and no longer ours; it was left unchanged")
            }
            do {
                try Self.replace(connection, path: path)
            } catch let failure {
                throw .storage("the offline cache at \(path) is damaged (\(error.message)) and could not be replaced: \(failure.message)")
            }
            replacements += 1
            pendingUses = [:]
            lastUse = 0
            throw Self.replaced(path, because: error)
        }
    }

    /// What a replacement of our damaged file says (the log shows it).
    static func replaced(_ path: String, because damage: MovieError) -> MovieError {
        .storage("the offline cache at \(path) was damaged (\(damage.message)); it was replaced by an empty one")
    }

    /// Writes the uses lookups recorded (inside the caller's transaction).
    private func flushUses() throws(MovieError) {
        for (key, use) in pendingUses { try touch.run([.text(key), .int(use)]) }
        pendingUses = [:]
    }

    private func evict(toFit maxBytes: Int) throws(MovieError) {
        var bytes = try Self.read(total) { Int($0.double(0)) }
        while bytes > maxBytes {
            try oldest.bind([])
            defer { oldest.reset() }
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

    static func read<T>(_ statement: SQLiteStatement, _ column: (SQLiteStatement) -> T) throws(MovieError) -> T {
        try statement.bind([])
        defer { statement.reset() }
        guard try statement.step() else { throw .storage("no row") }
        return column(statement)
    }
}
