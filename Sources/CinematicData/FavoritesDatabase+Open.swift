import CinematicDomain

/// Opening a favorites database: read-only without creating anything, the schema check, and
/// the identity, schema and journal mode of a file being created or adopted.
extension FavoritesDatabase {
    /// Read-only without creating anything: a WAL file whose `-wal` is absent is read as
    /// immutable (its content is all in the main file); otherwise plain `mode=ro`.
    static func openReadOnly(_ path: String, kind: FavoritesFile.Kind) throws(MovieError) -> SQLiteConnection {
        let isWAL = kind == .ours(isWAL: true) || kind == .legacy(isWAL: true)
        let query = isWAL && !FileSystem.exists(path + "-wal") ? "mode=ro&immutable=1" : "mode=ro"
        return try SQLiteConnection(path: FavoritesFile.uri(path, query: query), readOnly: true, uri: true)
    }

    /// The schema must be exactly ours: the favorites table with our columns, nothing else.
    static func verifySchema(_ connection: SQLiteConnection, path: String) throws(MovieError) {
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
    static func configure(_ connection: SQLiteConnection, kind: FavoritesFile.Kind, path: String) throws(MovieError) {
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
}
