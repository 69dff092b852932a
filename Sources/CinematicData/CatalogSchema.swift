import CinematicDomain

/// The catalog database's tables and their bulk load.
///
/// `movies.rank` (the primary key) is the film's popularity rank, 1 = most votes, and the
/// FTS5 `titles` table uses the same rowid. Ordering by rowid is therefore ordering by
/// popularity, which lets FTS5 stop after the first page of matches.
enum CatalogSchema {
    static func create(in connection: SQLiteConnection) throws(MovieError) {
        try connection.execute("""
            PRAGMA journal_mode = OFF;
            PRAGMA synchronous = OFF;
            CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
            CREATE TABLE movies (
                rank INTEGER PRIMARY KEY,
                id INTEGER NOT NULL UNIQUE,
                title TEXT NOT NULL,
                year INTEGER NOT NULL,
                runtime INTEGER NOT NULL,
                budget INTEGER,
                rating REAL NOT NULL,
                votes INTEGER NOT NULL,
                distribution TEXT NOT NULL,
                mpaa TEXT,
                genres TEXT NOT NULL,
                genre_mask INTEGER NOT NULL,
                core_norm TEXT NOT NULL,
                full_norm TEXT NOT NULL,
                alt_norm TEXT NOT NULL
            );
            CREATE VIRTUAL TABLE titles USING fts5(title, content = '', tokenize = 'unicode61 remove_diacritics 2');
            """)
    }

    static func insert(_ rows: [CatalogRow], into connection: SQLiteConnection, fingerprint: String) throws(MovieError) {
        let ranked = rows.sorted { ($0.votes, $1.id) > ($1.votes, $0.id) }
        try connection.transaction { () throws(MovieError) in
            let movie = try connection.prepare("""
                INSERT INTO movies (rank, id, title, year, runtime, budget, rating, votes, distribution,
                                    mpaa, genres, genre_mask, core_norm, full_norm, alt_norm)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
            let title = try connection.prepare("INSERT INTO titles (rowid, title) VALUES (?, ?)")
            for (offset, row) in ranked.enumerated() {
                let rank = offset + 1
                let parts = TitleText.parts(ofCatalogTitle: row.catalogTitle)
                let display = parts.display
                try movie.run([
                    .int(rank), .int(row.id), .text(display), .int(row.year), .int(row.runtime),
                    row.budget.map { .int($0) } ?? .null, .double(row.rating), .int(row.votes),
                    .text(row.distribution.map { "\($0)" }.joined(separator: ",")),
                    row.mpaa.map { .text($0) } ?? .null, .text(row.genres.joined(separator: ",")),
                    .int(GenreMask.mask(of: row.genres)),
                    .text(TitleText.normalized(parts.core)), .text(TitleText.normalized(display)),
                    .text(TitleText.normalized(row.catalogTitle)),
                ])
                try title.run([.int(rank), .text(display)])
            }
            try connection.prepare("INSERT INTO meta (key, value) VALUES ('fingerprint', ?)").run([.text(fingerprint)])
            try connection.prepare("INSERT INTO meta (key, value) VALUES ('films', ?)").run([.text("\(rows.count)")])
        }
        try connection.execute("""
            CREATE INDEX movies_core ON movies (core_norm, rank);
            CREATE INDEX movies_full ON movies (full_norm, rank);
            CREATE INDEX movies_alt ON movies (alt_norm, rank);
            CREATE INDEX movies_top_rated ON movies (rating DESC, votes DESC) WHERE votes >= \(DiscoverSection.topRatedMinimumVotes);
            INSERT INTO titles (titles) VALUES ('optimize');
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
