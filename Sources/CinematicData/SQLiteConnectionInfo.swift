import CSQLite
import CinematicDomain

extension SQLiteConnection {
    /// Rows changed by the most recent INSERT, UPDATE or DELETE on this connection.
    var changes: Int { Int(sqlite3_changes(handle)) }

    /// True when the main database is open read-only (for instance a write-protected file
    /// opened with `SQLITE_OPEN_READWRITE`).
    var isReadOnly: Bool { sqlite3_db_readonly(handle, "main") == 1 }

    /// The database's `PRAGMA user_version` (0 for a new database).
    func userVersion() throws(MovieError) -> Int { try pragmaInteger("user_version") }

    /// The integer value of `PRAGMA name` (0 when it returns no row). `name` is one of ours,
    /// never user text.
    func pragmaInteger(_ name: StaticString) throws(MovieError) -> Int {
        let statement = try prepare("PRAGMA \(name)", persistent: false)
        defer { statement.finalize() }
        try statement.bind([])
        guard try statement.step() else { return 0 }
        return statement.int(0)
    }
}
