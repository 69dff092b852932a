import CinematicDomain

/// The favorites connection, its statements and the last state this instance has seen.
/// Used only on the favorites worker thread (``SQLiteFavorites``), which is what orders
/// versions and notifications with commits; ``stopWaiting()`` is the one call from elsewhere.
final class FavoritesDatabase: @unchecked Sendable {
    /// The schema version stored in `PRAGMA user_version`.
    static let schemaVersion: Int32 = 1

    /// The columns of the favorites table, in order (the schema check compares them).
    static let columns = ["position", "movie_id", "title", "year", "runtime", "rating", "votes", "genres", "mpaa"]

    private struct Statements {
        let insert: SQLiteStatement
        let delete: SQLiteStatement
        let exists: SQLiteStatement
        let selectAll: SQLiteStatement
        let selectOne: SQLiteStatement
        let dataVersion: SQLiteStatement

        init(_ connection: SQLiteConnection) throws(MovieError) {
            insert = try connection.prepare("""
                INSERT OR IGNORE INTO favorites (movie_id, title, year, runtime, rating, votes, genres, mpaa)
                VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
                """)
            delete = try connection.prepare("DELETE FROM favorites WHERE movie_id = ?1")
            exists = try connection.prepare("SELECT 1 FROM favorites WHERE movie_id = ?1")
            selectAll = try connection.prepare("""
                SELECT position, movie_id, title, year, runtime, rating, votes, genres, mpaa FROM favorites ORDER BY position DESC
                """)
            selectOne = try connection.prepare("""
                SELECT position, movie_id, title, year, runtime, rating, votes, genres, mpaa FROM favorites WHERE movie_id = ?1
                """)
            dataVersion = try connection.prepare("PRAGMA data_version")
        }
    }

    let path: String
    let readOnly: Bool
    /// True for a file (other connections may change it); false for ":memory:".
    let isShared: Bool
    /// nil until opened: a file at once, ":memory:" at its first write (``openIfNeeded()``).
    private var connection: SQLiteConnection!
    private var statements: Statements!
    private var version: UInt64 = 1
    private var list = FavoritesList()
    private var lastDataVersion = 0
    private var lastSignature: [Int] = []
    private var unpublished: FavoritesSnapshot?

    /// The state found at open: version 1.
    var snapshot: FavoritesSnapshot { FavoritesSnapshot(version: version, movies: list.movies) }

    init(path: String, readOnly: Bool) throws(MovieError) {
        self.path = path
        self.readOnly = readOnly
        isShared = path != ":memory:"
        // ":memory:" favorites start empty and no other connection can see them: they are
        // opened on the worker when first written (or asked for SQLite's settings), so
        // opening a runtime runs no SQL for them.
        guard isShared || readOnly else { return }
        let kind = try FavoritesFile.inspect(path)
        if readOnly {
            guard kind != .new else { throw .storage("\(path) holds no favorites database to open read-only") }
            lastSignature = FavoritesFile.signature(path)
            connection = try Self.openReadOnly(path, kind: kind)
            try Self.verifySchema(connection, path: path)
        } else {
            connection = try SQLiteConnection(path: path)
            if case .legacy = kind { try Self.verifySchema(connection, path: path) }
            try Self.configure(connection, kind: kind, path: path)
        }
        statements = try Statements(connection)
        list = try readList()
        lastDataVersion = try readDataVersion()
    }

    /// Opens ":memory:" favorites on first use: a new database, empty, as the list already is.
    private func openIfNeeded() throws(MovieError) {
        guard connection == nil else { return }
        let opened = try SQLiteConnection(path: path)
        do throws(MovieError) {
            try Self.configure(opened, kind: .new, path: path)
            statements = try Statements(opened)
        } catch {
            opened.close()
            throw error
        }
        connection = opened
        lastDataVersion = try readDataVersion()
    }

    /// From any thread: a write waiting for another connection's lock gives up now (only a
    /// file's connection waits for another's; ":memory:" ones are never waited on).
    func stopWaiting() {
        guard isShared else { return }
        connection.stopWaiting()
    }

    /// Closes the connection and its statements: the file is closed when this returns.
    func close() { connection?.close() }

    func add(_ movie: Movie) throws(MovieError) -> FavoriteToggle {
        try write(movie.id) { () throws(MovieError) in try self.insert(movie) }
    }

    func remove(id: Int) throws(MovieError) -> FavoriteToggle {
        try write(id) { () throws(MovieError) in try self.delete(id) }
    }

    /// Removes `movie` when it is stored, adds it otherwise: one transaction, so the flip
    /// applies to what is stored even when another connection changed it a moment ago.
    func toggle(_ movie: Movie) throws(MovieError) -> FavoriteToggle {
        try write(movie.id) { () throws(MovieError) in
            try self.statements.exists.bind([.int(movie.id)])
            let stored = try self.statements.exists.step()
            try self.statements.exists.bind([])
            return try stored ? self.delete(movie.id) : self.insert(movie)
        }
    }

    /// What one write changed in the table.
    private enum Change {
        case none
        case inserted(movieID: Int)
        case removed(movieID: Int)
    }

    /// Inserts `movie` unless stored (INSERT OR IGNORE keeps its original position).
    private func insert(_ movie: Movie) throws(MovieError) -> Change {
        try statements.insert.run([
            .int(movie.id), .text(movie.title), .int(movie.year), .int(movie.runtime),
            .double(movie.rating), .int(movie.votes), .text(Self.encode(movie.genres)),
            movie.mpaa.map { .text($0) } ?? .null,
        ])
        return connection.changes > 0 ? .inserted(movieID: movie.id) : .none
    }

    private func delete(_ id: Int) throws(MovieError) -> Change {
        try statements.delete.run([.int(id)])
        return connection.changes > 0 ? .removed(movieID: id) : .none
    }

    /// Runs `change` in a transaction and updates the list by what it changed: the one row
    /// inserted (read back as stored) or removed, or nothing. When another connection
    /// committed since this instance last looked (`PRAGMA data_version` moved), or the change
    /// does not apply to the list, the whole table is read instead, as a poll would. A change
    /// moves the version on and its snapshot waits in ``takeUnpublished()``. Returns whether
    /// `movieID` is stored afterwards, with the version.
    private func write(_ movieID: Int, _ change: () throws(MovieError) -> Change) throws(MovieError) -> FavoriteToggle {
        try openIfNeeded()
        let current = list
        let (next, dataVersion) = try connection.transaction { () throws(MovieError) -> (FavoritesList?, Int) in
            let dataVersion = try readDataVersion()
            let change = try change()
            guard dataVersion == lastDataVersion else { return (try readList(), dataVersion) }
            var next = current
            switch change {
            case .none:
                return (nil, dataVersion)
            case let .inserted(movieID):
                guard let row = try readRow(movieID), next.insert(row.movie, position: row.position) else { break }
                return (next, dataVersion)
            case let .removed(movieID):
                guard next.remove(id: movieID) else { break }
                return (next, dataVersion)
            }
            return (try readList(), dataVersion)
        }
        lastDataVersion = dataVersion
        if let next { adopt(next) }
        return FavoriteToggle(isFavorite: list.contains(id: movieID), version: version)
    }

    /// Notices a change another connection committed: nil when there is none (or it changed
    /// nothing we list), else the new snapshot.
    func refreshIfChanged() -> FavoritesSnapshot? {
        guard isShared else { return nil }
        do {
            // What was seen (signature, data version) is recorded only once the new content
            // has been read: a passing failure (the file being replaced, a lock, EIO) leaves it
            // unrecorded, so the next poll tries again instead of taking the change as seen.
            if readOnly {
                let signature = FavoritesFile.signature(path)
                guard signature != lastSignature else { return nil }
                // A read-only connection keeps no WAL index: reopen to see the new content.
                let fresh = try Self.openReadOnly(path, kind: try FavoritesFile.inspect(path))
                let list: FavoritesList
                do throws(MovieError) {
                    let freshStatements = try Statements(fresh)
                    let old = (connection, statements)
                    (connection, statements) = (fresh, freshStatements)
                    do throws(MovieError) { list = try readList() } catch {
                        (connection, statements) = old
                        throw error
                    }
                    old.0?.close()
                } catch {
                    fresh.close()
                    throw error
                }
                lastSignature = signature
                adopt(list)
            } else {
                let dataVersion = try readDataVersion()
                guard dataVersion != lastDataVersion else { return nil }
                let list = try readList()
                lastDataVersion = dataVersion
                adopt(list)
            }
        } catch {
            return nil
        }
        return takeUnpublished()
    }

    /// The snapshot committed (or noticed) since the last call, if any.
    func takeUnpublished() -> FavoritesSnapshot? {
        defer { unpublished = nil }
        return unpublished
    }

    private func adopt(_ next: FavoritesList) {
        guard next != list else { return }
        list = next
        version += 1
        unpublished = snapshot
    }

    private func readDataVersion() throws(MovieError) -> Int {
        let statement = statements.dataVersion
        try statement.bind([])
        guard try statement.step() else { return 0 }
        let value = statement.int(0)
        try statement.bind([])
        return value
    }

    /// The favorites as stored, most recently added first.
    func readAll() throws(MovieError) -> [Movie] { connection == nil ? list.movies : try readList().movies }

    /// The whole table, in order.
    private func readList() throws(MovieError) -> FavoritesList {
        let selectAll = statements.selectAll
        try selectAll.bind([])
        var rows: [(position: Int, movie: Movie)] = []
        while try selectAll.step() { rows.append(Self.row(selectAll)) }
        try selectAll.bind([])
        return FavoritesList(rows: rows)
    }

    /// The row of `movieID`, nil when it is not stored.
    private func readRow(_ movieID: Int) throws(MovieError) -> (position: Int, movie: Movie)? {
        let selectOne = statements.selectOne
        try selectOne.bind([.int(movieID)])
        defer { selectOne.reset() }
        return try selectOne.step() ? Self.row(selectOne) : nil
    }

    /// The current row of a `SELECT position, movie_id, title, ...`.
    private static func row(_ statement: SQLiteStatement) -> (position: Int, movie: Movie) {
        (statement.int(0), Movie(
            id: statement.int(1), title: statement.text(2) ?? "", year: statement.int(3),
            runtime: statement.int(4), rating: statement.double(5), votes: statement.int(6),
            genres: decode(statement.text(7) ?? ""), mpaa: statement.text(8)))
    }

    func setQueryOnly(_ on: Bool) throws(MovieError) {
        try openIfNeeded()
        try connection.execute("PRAGMA query_only = \(on ? 1 : 0)")
    }

    func journalMode() throws(MovieError) -> String {
        try openIfNeeded()
        let statement = try connection.prepare("PRAGMA journal_mode", persistent: false)
        defer { statement.finalize() }
        try statement.bind([])
        guard try statement.step() else { throw .storage("PRAGMA journal_mode returned no row") }
        return statement.text(0) ?? ""
    }

    /// Genres are stored joined by U+001F (unit separator), which no genre name contains.
    private static let genreSeparator: Character = "\u{1F}"

    static func encode(_ genres: [String]) -> String { genres.joined(separator: String(genreSeparator)) }

    static func decode(_ text: String) -> [String] {
        text.isEmpty ? [] : text.split(separator: genreSeparator, omittingEmptySubsequences: false).map(String.init)
    }
}
