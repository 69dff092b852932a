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
        let dataVersion: SQLiteStatement

        init(_ connection: SQLiteConnection) throws(MovieError) {
            insert = try connection.prepare("""
                INSERT OR IGNORE INTO favorites (movie_id, title, year, runtime, rating, votes, genres, mpaa)
                VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
                """)
            delete = try connection.prepare("DELETE FROM favorites WHERE movie_id = ?1")
            exists = try connection.prepare("SELECT 1 FROM favorites WHERE movie_id = ?1")
            selectAll = try connection.prepare("""
                SELECT movie_id, title, year, runtime, rating, votes, genres, mpaa FROM favorites ORDER BY position DESC
                """)
            dataVersion = try connection.prepare("PRAGMA data_version")
        }
    }

    let path: String
    let readOnly: Bool
    /// True for a file (other connections may change it); false for ":memory:".
    let isShared: Bool
    private var connection: SQLiteConnection
    private var statements: Statements
    private var version: UInt64 = 1
    private var movies: [Movie] = []
    private var lastDataVersion = 0
    private var lastSignature: [Int] = []
    private var unpublished: FavoritesSnapshot?

    /// The state found at open: version 1.
    var snapshot: FavoritesSnapshot { FavoritesSnapshot(version: version, movies: movies) }

    init(path: String, readOnly: Bool) throws(MovieError) {
        self.path = path
        self.readOnly = readOnly
        isShared = path != ":memory:"
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
        movies = try readAll()
        lastDataVersion = try readDataVersion()
    }

    /// Read-only without creating anything: a WAL file whose `-wal` is absent is read as
    /// immutable (its content is all in the main file); otherwise plain `mode=ro`.
    private static func openReadOnly(_ path: String, kind: FavoritesFile.Kind) throws(MovieError) -> SQLiteConnection {
        let isWAL = kind == .ours(isWAL: true) || kind == .legacy(isWAL: true)
        let query = isWAL && !FileSystem.exists(path + "-wal") ? "mode=ro&immutable=1" : "mode=ro"
        return try SQLiteConnection(path: FavoritesFile.uri(path, query: query), readOnly: true, uri: true)
    }

    /// The schema must be exactly ours: the favorites table with our columns, nothing else.
    private static func verifySchema(_ connection: SQLiteConnection, path: String) throws(MovieError) {
        let version = try connection.pragmaInteger("user_version")
        guard version == Int(schemaVersion) else {
            throw .storage(version > Int(schemaVersion)
                ? "favorites database schema version \(version) is newer than this library's (\(schemaVersion))"
                : "\(path) holds no favorites database of schema version \(schemaVersion)")
        }
        let tables = try connection.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name", persistent: false)
        defer { tables.finalize() }
        var names: [String] = []
        try tables.bind([])
        while try tables.step() { names.append(tables.text(0) ?? "") }
        let info = try connection.prepare("SELECT name FROM pragma_table_info('favorites')", persistent: false)
        defer { info.finalize() }
        var columns: [String] = []
        try info.bind([])
        while try info.step() { columns.append(info.text(0) ?? "") }
        guard names == ["favorites"], columns == Self.columns else {
            throw .storage("\(path) is not a favorites database of this library (tables \(names)); it was left unchanged")
        }
    }

    /// A new file gets its identity and schema in rollback-journal mode, so the header of the
    /// main file carries them for good, then switches to WAL; a 0.1.0 file is stamped with our
    /// application id. Full sync on commit.
    private static func configure(_ connection: SQLiteConnection, kind: FavoritesFile.Kind, path: String) throws(MovieError) {
        if connection.isReadOnly {
            // A write-protected file of ours still opens, read-only.
            guard kind != .new else { throw .storage("cannot create \(path): the file is read-only") }
            try verifySchema(connection, path: path)
            return
        }
        try connection.transaction { () throws(MovieError) in
            let version = try connection.pragmaInteger("user_version")
            let application = try connection.pragmaInteger("application_id")
            if version == 0 && application == 0 {
                // `position` is the rowid: each insert gets max + 1, so it orders by time added.
                try connection.execute("""
                    CREATE TABLE favorites (
                        position INTEGER PRIMARY KEY,
                        movie_id INTEGER NOT NULL UNIQUE,
                        title TEXT NOT NULL,
                        year INTEGER NOT NULL,
                        runtime INTEGER NOT NULL,
                        rating REAL NOT NULL,
                        votes INTEGER NOT NULL,
                        genres TEXT NOT NULL,
                        mpaa TEXT
                    );
                    PRAGMA user_version = \(schemaVersion);
                    """)
            } else if version != Int(schemaVersion) {
                throw .storage(version > Int(schemaVersion)
                    ? "favorites database schema version \(version) is newer than this library's (\(schemaVersion))"
                    : "\(path) is not a favorites database of this library; it was left unchanged")
            }
            if application != Int(FavoritesFile.applicationID) {
                try connection.execute("PRAGMA application_id = \(FavoritesFile.applicationID)")
            }
        }
        if path != ":memory:" {
            try connection.execute("PRAGMA journal_mode = WAL")
            if case .legacy = kind { try connection.execute("PRAGMA wal_checkpoint(TRUNCATE)") }
        }
        try connection.execute("PRAGMA synchronous = FULL")
    }

    /// From any thread: a write waiting for another connection's lock gives up now.
    func stopWaiting() { connection.stopWaiting() }

    /// Closes the connection and its statements: the file is closed when this returns.
    func close() { connection.close() }

    func add(_ movie: Movie) throws(MovieError) -> FavoriteToggle {
        try write(movie.id) { () throws(MovieError) in try self.insert(movie) }
    }

    func remove(id: Int) throws(MovieError) -> FavoriteToggle {
        try write(id) { () throws(MovieError) in try self.statements.delete.run([.int(id)]) }
    }

    /// Removes `movie` when it is stored, adds it otherwise: one transaction, so the flip
    /// applies to what is stored even when another connection changed it a moment ago.
    func toggle(_ movie: Movie) throws(MovieError) -> FavoriteToggle {
        try write(movie.id) { () throws(MovieError) in
            try self.statements.exists.bind([.int(movie.id)])
            let stored = try self.statements.exists.step()
            try self.statements.exists.bind([])
            if stored { try self.statements.delete.run([.int(movie.id)]) } else { try self.insert(movie) }
        }
    }

    private func insert(_ movie: Movie) throws(MovieError) {
        try statements.insert.run([
            .int(movie.id), .text(movie.title), .int(movie.year), .int(movie.runtime),
            .double(movie.rating), .int(movie.votes), .text(Self.encode(movie.genres)),
            movie.mpaa.map { .text($0) } ?? .null,
        ])
    }

    /// Runs `change` in a transaction that also reads back the list; when the list differs
    /// from the last one seen (our change, or another connection's committed just before),
    /// the version moves on and the snapshot waits in ``takeUnpublished()``. Returns whether
    /// `movieID` is stored afterwards, with the version.
    private func write(_ movieID: Int, _ change: () throws(MovieError) -> Void) throws(MovieError) -> FavoriteToggle {
        let (list, dataVersion) = try connection.transaction { () throws(MovieError) -> ([Movie], Int) in
            let dataVersion = try readDataVersion()
            try change()
            return (try readAll(), dataVersion)
        }
        lastDataVersion = dataVersion
        adopt(list)
        return FavoriteToggle(isFavorite: list.contains { $0.id == movieID }, version: version)
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
                let list: [Movie]
                do throws(MovieError) {
                    let freshStatements = try Statements(fresh)
                    let old = (connection, statements)
                    (connection, statements) = (fresh, freshStatements)
                    do throws(MovieError) { list = try readAll() } catch {
                        (connection, statements) = old
                        throw error
                    }
                    old.0.close()
                } catch {
                    fresh.close()
                    throw error
                }
                lastSignature = signature
                adopt(list)
            } else {
                let dataVersion = try readDataVersion()
                guard dataVersion != lastDataVersion else { return nil }
                let list = try readAll()
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

    private func adopt(_ list: [Movie]) {
        guard list != movies else { return }
        movies = list
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

    func readAll() throws(MovieError) -> [Movie] {
        let selectAll = statements.selectAll
        try selectAll.bind([])
        var movies: [Movie] = []
        while try selectAll.step() {
            movies.append(Movie(
                id: selectAll.int(0), title: selectAll.text(1) ?? "", year: selectAll.int(2),
                runtime: selectAll.int(3), rating: selectAll.double(4), votes: selectAll.int(5),
                genres: Self.decode(selectAll.text(6) ?? ""), mpaa: selectAll.text(7)))
        }
        try selectAll.bind([])
        return movies
    }

    func setQueryOnly(_ on: Bool) throws(MovieError) {
        try connection.execute("PRAGMA query_only = \(on ? 1 : 0)")
    }

    func journalMode() throws(MovieError) -> String {
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
