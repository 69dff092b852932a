import CinematicDomain

/// The catalog database's tables and their bulk load.
///
/// `movies.rank` (the primary key) is the film's popularity rank, 1 = most votes; the search
/// index (``SearchIndex``) posts ranks, so postings read in rank order are most popular
/// first. `search_words` holds a title's index words, `core_count` how many plain words
/// (stopwords aside) the title has.
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
                search_words TEXT NOT NULL,
                core_count INTEGER NOT NULL
            );
            """)
        try SearchIndex.createTables(in: connection)
    }

    static func insert(_ rows: [CatalogRow], into connection: SQLiteConnection, fingerprint: String) throws(MovieError) {
        let ranked = rows.sorted { ($0.votes, $1.id) > ($1.votes, $0.id) }
        // Words that are only adjacent words joined: indexed, but not for typos (they are long
        // and many; a typo in a joined word is rare).
        var pairs: Set<String> = [], plainWords: Set<String> = []
        try connection.transaction { () throws(MovieError) in
            let movie = try connection.prepare("""
                INSERT INTO movies (rank, id, title, year, runtime, budget, rating, votes, distribution,
                                    mpaa, genres, genre_mask, search_words, core_count)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
            let posting = try connection.prepare("INSERT OR IGNORE INTO title_words (word, rank) VALUES (?, ?)")
            for (offset, row) in ranked.enumerated() {
                let rank = offset + 1
                let parts = TitleText.parts(ofCatalogTitle: row.catalogTitle)
                let display = parts.display
                // The display title's plain words, then "|" and the other forms it is found by:
                // numerals, joined words, the catalog form's ("Godfather, The"), and adjacent
                // words joined ("Ghost Busters" is also "ghostbusters"; not a one-letter word such
                // as an elided "d'" of "d'une": that is no "dune").
                let plain = SearchText.words(display)
                var variants: [String] = []
                for word in SearchText.indexWords(ofTitle: display) + SearchText.indexWords(ofTitle: row.catalogTitle)
                where !plain.contains(word) && !variants.contains(word) { variants.append(word) }
                for (first, second) in zip(plain, plain.dropFirst())
                where first.count > 1 && second.count > 1
                    && !SearchText.stopwords.contains(first) && !SearchText.stopwords.contains(second) {
                    let joined = first + second
                    if !plain.contains(joined) && !variants.contains(joined) {
                        variants.append(joined)
                        pairs.insert(joined)
                    }
                }
                for word in plain { plainWords.insert(word) }
                let words = plain + ["|"] + variants
                try movie.run([
                    .int(rank), .int(row.id), .text(display), .int(row.year), .int(row.runtime),
                    row.budget.map { .int($0) } ?? .null, .double(row.rating), .int(row.votes),
                    .text(row.distribution.map { "\($0)" }.joined(separator: ",")),
                    row.mpaa.map { .text($0) } ?? .null, .text(row.genres.joined(separator: ",")),
                    .int(GenreMask.mask(of: row.genres)),
                    .text(words.joined(separator: " ")),
                    .int(SearchText.words(display).filter { !SearchText.stopwords.contains($0) }.count),
                ])
                for word in words where word != "|" { try posting.run([.text(word), .int(rank)]) }
            }
            try connection.prepare("INSERT INTO meta (key, value) VALUES ('fingerprint', ?)").run([.text(fingerprint)])
            try connection.prepare("INSERT INTO meta (key, value) VALUES ('films', ?)").run([.text("\(rows.count)")])
        }
        let pairOnly = pairs.subtracting(plainWords)
        try connection.transaction { () throws(MovieError) in try SearchIndex.finish(in: connection, withoutTypos: pairOnly) }
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
