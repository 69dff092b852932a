import CSQLite
import CinematicDomain

extension SQLiteConnection {
    /// Replaces every page of this connection's main database with `source`'s, in one write
    /// transaction under SQLite's own locks (the online backup API): other connections and
    /// processes see either the old file or the new one, and the file keeps its inode (no
    /// unlink, no rename, nothing deleted under anyone). Only the 100-byte header of page 1
    /// must be readable: damaged pages are overwritten, not read. Waits for other
    /// connections' locks with the busy handler; throws `.storage` (``failureCode`` tells
    /// busy from anything else). The two page sizes must match when this file is in WAL mode.
    ///
    /// ```swift
    /// let fresh = try SQLiteConnection(path: ":memory:")
    /// try fresh.execute("CREATE TABLE t (x)")
    /// try damaged.replaceContents(with: fresh)
    /// ```
    func replaceContents(with source: SQLiteConnection) throws(MovieError) {
        guard let backup = sqlite3_backup_init(handle, "main", source.handle, "main") else {
            noteFailure(sqlite3_errcode(handle))
            throw .storage("cannot replace the database: \(lastError)")
        }
        var status = sqlite3_backup_step(backup, -1)
        let finish = sqlite3_backup_finish(backup)
        if status == SQLITE_DONE { status = finish }
        guard status == SQLITE_OK || status == SQLITE_DONE else {
            noteFailure(status)
            throw .storage("cannot replace the database: \(String(cString: sqlite3_errstr(status)))")
        }
    }
}
