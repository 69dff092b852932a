import CSQLite
import CinematicDomain
#if canImport(Glibc)
import Glibc
#endif

/// How a file becomes, or is proven to be, an ``OfflineCacheDatabase``: its schema, the
/// header check before SQLite touches it, adopting a new or existing file, and replacing our
/// own damaged file in place (the files rule: ours or untouched; busy is not damaged).
extension OfflineCacheDatabase {
    /// The identity and schema of a new cache, written in rollback-journal mode (before the
    /// switch to WAL) so the main file always carries them.
    static let schema = """
        PRAGMA application_id = \(applicationID);
        PRAGMA user_version = \(schemaVersion);
        CREATE TABLE answers (
            key TEXT PRIMARY KEY, body TEXT NOT NULL, stored_at INTEGER NOT NULL,
            used INTEGER NOT NULL, size INTEGER NOT NULL);
        CREATE INDEX answers_by_use ON answers (used);
        """

    /// SQLITE_BUSY or SQLITE_LOCKED (any extended code): another connection holds a lock.
    static func isBusy(_ code: Int32) -> Bool { code & 0xFF == SQLITE_BUSY || code & 0xFF == SQLITE_LOCKED }

    /// SQLITE_CORRUPT or SQLITE_NOTADB (any extended code): the file is damaged.
    static func isDamage(_ code: Int32) -> Bool { code & 0xFF == SQLITE_CORRUPT || code & 0xFF == SQLITE_NOTADB }

    /// Refuses, before SQLite touches it, a file that is not ours: not SQLite, another
    /// program's, or ours from a newer schema. Missing and empty files pass.
    static func checkHeader(_ path: String) throws(MovieError) {
        guard path != ":memory:" else { return }
        switch try SQLiteHeader.read(path, what: "offline cache") {
        case .missing, .empty: return
        case .notSQLite:
            throw .storage("\(path) is not an offline cache (not a SQLite file); it was left unchanged")
        case let .sqlite(header):
            guard header.applicationID == applicationID else {
                throw .storage("\(path) belongs to another program (application_id \(header.applicationID)); it was left unchanged")
            }
            guard header.userVersion <= schemaVersion else {
                throw .storage("\(path) is an offline cache of a newer schema (\(header.userVersion)); it was left unchanged")
            }
        }
    }

    /// Makes the open file a working cache: a new (empty) database gets our schema inside a
    /// write transaction (so concurrent creators take turns and the second finds it done);
    /// then WAL, and a read of every answer, which fails on a damaged page: the answers'
    /// count (an index) and their sizes and uses (every row, overflow pages included).
    /// Returns the highest use counter stored.
    static func adopt(_ connection: SQLiteConnection, path: String) throws(MovieError) -> Int {
        connection.clearFailure()
        if try connection.pragmaInteger("application_id") == 0 {
            try connection.transaction { () throws(MovieError) in
                let application = try connection.pragmaInteger("application_id")
                let version = try connection.pragmaInteger("user_version")
                let objects = try connection.prepare("SELECT count(*) FROM sqlite_master", persistent: false)
                defer { objects.finalize() }
                let count = try read(objects) { $0.int(0) }
                if application == 0 && version == 0 && count == 0 {
                    try connection.execute(schema)
                } else if application != Int(applicationID) {
                    throw .storage("\(path) belongs to another program (application_id \(application)); it was left unchanged")
                }
            }
        }
        let application = try connection.pragmaInteger("application_id")
        guard application == Int(applicationID) else {
            throw .storage("\(path) belongs to another program (application_id \(application)); it was left unchanged")
        }
        guard try connection.userVersion() <= Int(schemaVersion) else {
            throw .storage("\(path) is an offline cache of a newer schema; it was left unchanged")
        }
        if path != ":memory:" { try connection.execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL") }
        let count = try connection.prepare("SELECT count(*) FROM answers", persistent: false)
        defer { count.finalize() }
        _ = try read(count) { $0.int(0) }
        let uses = try connection.prepare("SELECT total(size), coalesce(max(used), 0) FROM answers", persistent: false)
        defer { uses.finalize() }
        return try read(uses) { $0.int(1) }
    }

    /// ``adopt(_:path:)``, tried again while it fails busy within the busy timeout: SQLite
    /// skips the busy handler when waiting could deadlock (a connection upgrading its read
    /// lock, as the switch to WAL does, while another waits to write), so a creator racing
    /// others can be told "busy" at once; the next try, a moment later, goes through.
    static func adoptWaiting(_ connection: SQLiteConnection, path: String) throws(MovieError) -> Int {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: .milliseconds(busyTimeoutMilliseconds))
        while true {
            do {
                return try adopt(connection, path: path)
            } catch where isBusy(connection.failureCode) && clock.now < deadline {
                usleep(5_000)
            }
        }
    }

    /// Replaces the damaged file's contents by an empty cache of the same page size, in one
    /// transaction (nothing is unlinked or renamed).
    static func replace(_ connection: SQLiteConnection, path: String) throws(MovieError) {
        var pageSize = 4_096
        if case let .sqlite(header)? = try? SQLiteHeader.read(path, what: "offline cache") { pageSize = header.pageSize }
        let fresh = try SQLiteConnection(path: ":memory:")
        defer { fresh.close() }
        try fresh.execute("PRAGMA page_size = \(pageSize);" + schema)
        connection.clearFailure()
        try connection.replaceContents(with: fresh)
    }
}

/// Why ``OfflineCacheDatabase`` could not open a cache.
enum OfflineCacheOpenError: Error {
    /// Another connection kept the file locked past the busy timeout: run without the cache
    /// this time (nothing was changed).
    case busy(MovieError)
    /// Anything else: the file is not ours, cannot be opened or read, or could not be fixed.
    case failed(MovieError)
}
