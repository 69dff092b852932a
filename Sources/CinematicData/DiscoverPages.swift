import CinematicDomain

/// Discover's pages with keyset pagination: each page continues from the last row of the page
/// before (its rank, or for top rated its rating, votes and rank), so page 100 costs about
/// what page 1 costs, where OFFSET would read and skip the 1,980 rows before it. The cursor
/// of every page served is remembered per section; a page whose predecessor was never served
/// falls back to OFFSET once. Used only inside the catalog's lock.
final class DiscoverPages {
    /// Where a page ended: enough to continue after it.
    private struct Cursor {
        let rank: Int
        let rating: Double
        let votes: Int
    }

    private let firstPopular, nextPopular, offsetPopular: SQLiteStatement
    private let firstGenre, nextGenre, offsetGenre: SQLiteStatement
    private let firstTopRated, nextTopRated, offsetTopRated: SQLiteStatement
    private var cursors: [DiscoverSection: [Int: Cursor]] = [:]
    /// The index of the `rank` column, appended after the caller's columns.
    private let rankColumn: Int32

    /// Pages remembered per section.
    static let rememberedPages = 1_000

    init(_ connection: SQLiteConnection, columns: String) throws(MovieError) {
        rankColumn = Int32(columns.split(separator: ",").count)
        let select = "SELECT \(columns), rank FROM movies"
        firstPopular = try connection.prepare("\(select) ORDER BY rank LIMIT ?1")
        nextPopular = try connection.prepare("\(select) WHERE rank > ?2 ORDER BY rank LIMIT ?1")
        offsetPopular = try connection.prepare("\(select) ORDER BY rank LIMIT ?1 OFFSET ?2")
        firstGenre = try connection.prepare("\(select) WHERE genre_mask & ?2 ORDER BY rank LIMIT ?1")
        nextGenre = try connection.prepare("\(select) WHERE genre_mask & ?2 AND rank > ?3 ORDER BY rank LIMIT ?1")
        offsetGenre = try connection.prepare("\(select) WHERE genre_mask & ?2 ORDER BY rank LIMIT ?1 OFFSET ?3")
        let rated = "\(select) WHERE votes >= \(DiscoverSection.topRatedMinimumVotes)"
        let order = "ORDER BY rating DESC, votes DESC, rank"
        firstTopRated = try connection.prepare("\(rated) \(order) LIMIT ?1")
        nextTopRated = try connection.prepare("""
            \(rated) AND (rating < ?2 OR (rating = ?2 AND (votes < ?3 OR (votes = ?3 AND rank > ?4)))) \(order) LIMIT ?1
            """)
        offsetTopRated = try connection.prepare("\(rated) \(order) LIMIT ?1 OFFSET ?2")
    }

    /// Page `page` (1-based) of `section`, read by `row` (which reads the leading columns;
    /// nil skips a row).
    func page(_ page: Int, of section: DiscoverSection, row: (SQLiteStatement) -> Movie?) throws(MovieError) -> [Movie] {
        guard page >= 1 else { return [] }
        let size = MovieCatalog.pageSize
        let after = page == 1 ? nil : cursors[section]?[page - 1]
        let statement: SQLiteStatement
        var values: [SQLiteStatement.Value] = [.int(size)]
        switch (section, after) {
        case (.popular, nil) where page == 1: statement = firstPopular
        case let (.popular, cursor?): statement = nextPopular; values.append(.int(cursor.rank))
        case (.popular, nil): statement = offsetPopular; values.append(.int((page - 1) * size))
        case let (.genre(name), nil) where page == 1: statement = firstGenre; values.append(.int(GenreMask.bit(name)))
        case let (.genre(name), cursor?): statement = nextGenre; values += [.int(GenreMask.bit(name)), .int(cursor.rank)]
        case let (.genre(name), nil): statement = offsetGenre; values += [.int(GenreMask.bit(name)), .int((page - 1) * size)]
        case (.topRated, nil) where page == 1: statement = firstTopRated
        case let (.topRated, cursor?): statement = nextTopRated; values += [.double(cursor.rating), .int(cursor.votes), .int(cursor.rank)]
        case (.topRated, nil): statement = offsetTopRated; values.append(.int((page - 1) * size))
        }
        try statement.bind(values)
        defer { statement.reset() }
        var movies: [Movie] = []
        var last: Cursor?
        while try statement.step() {
            guard let movie = row(statement) else { continue }
            movies.append(movie)
            last = Cursor(rank: statement.int(rankColumn), rating: movie.rating, votes: movie.votes)
        }
        if let last {
            var pages = cursors[section] ?? [:]
            if pages.count >= Self.rememberedPages { pages.removeAll() }
            pages[page] = last
            cursors[section] = pages
        }
        return movies
    }
}
