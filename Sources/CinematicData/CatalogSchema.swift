import CinematicDomain

/// The index file's tables and their bulk load.
///
/// `movies.rank` (the primary key) is the film's popularity rank, 1 = most votes, the rank
/// the search corpus posts (``SearchCorpus``). `movies` holds only what Discover selects on
/// and what Detail adds (budget, rating distribution); every field of a list row is in the
/// search section that follows the database (``MovieRows``, ``CorpusLayout``), read in place.
/// `meta` holds the stamp (``CatalogIndex``).
enum CatalogSchema {
    static func create(in connection: SQLiteConnection) throws(MovieError) {
        try connection.execute("""
            PRAGMA journal_mode = OFF;
            PRAGMA synchronous = OFF;
            PRAGMA application_id = \(CatalogIndex.applicationID);
            PRAGMA user_version = \(CatalogIndex.formatVersion);
            CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
            CREATE TABLE movies (
                rank INTEGER PRIMARY KEY,
                budget INTEGER,
                rating REAL NOT NULL,
                votes INTEGER NOT NULL,
                distribution NOT NULL,
                genre_mask INTEGER NOT NULL
            );
            """)
    }

    /// Loads `films` films and the stamp, in one transaction: `load` is given the function that
    /// inserts a row (with its rank - 1) and calls it for every film, in rank order (as
    /// ``SearchCorpusBuilder`` reads them).
    static func insert(films: Int, stamp: CatalogIndex.Stamp, into connection: SQLiteConnection,
                       load: ((Int, CatalogRow) throws(MovieError) -> Void) throws(MovieError) -> Void) throws(MovieError) {
        try connection.transaction { () throws(MovieError) in
            let movie = try connection.prepare("""
                INSERT INTO movies (rank, budget, rating, votes, distribution, genre_mask) VALUES (?, ?, ?, ?, ?, ?)
                """, persistent: false)
            defer { movie.finalize() }
            try load { offset, row throws(MovieError) in
                try movie.run([
                    .int(offset + 1), row.budget.map { .int($0) } ?? .null, .double(row.rating), .int(row.votes),
                    RatingDistribution.encode(row.distribution), .int(GenreMask.mask(of: row.genres)),
                ])
            }
            let meta = try connection.prepare("INSERT INTO meta (key, value) VALUES (?1, ?2)", persistent: false)
            defer { meta.finalize() }
            for (key, value) in stamp.entries + [("films", "\(films)")] { try meta.run([.text(key), .text(value)]) }
        }
        try connection.execute("""
            CREATE INDEX movies_top_rated ON movies (rating DESC, votes DESC, rank) WHERE votes >= \(DiscoverSection.topRatedMinimumVotes);
            ANALYZE;
            """)
    }
}

/// Genres as bits, so a genre list is one indexed-free integer test.
enum GenreMask {
    static func mask(of genres: [String]) -> Int {
        genres.reduce(0) { mask, genre in mask | bit(genre) }
    }

    static func bit(_ genre: String) -> Int {
        guard let index = Genre.all.firstIndex(of: genre) else { return 0 }
        return 1 << index
    }
}
