import CinematicDomain

/// The prepared statements of one catalog connection and its corpus. Used only inside the
/// catalog's lock. Search reads only the corpus: the connection (for the embedded index, made
/// when first needed), the statements of a detail and Discover's pages are made when first
/// needed, so a first search does not wait for SQLite.
final class CatalogQueries: @unchecked Sendable {
    private var connection: SQLiteConnection?
    /// The index the connection and the corpus read in place (kept alive here).
    private let image: IndexImage
    private let engine: SearchEngine
    private var byRankStatement: SQLiteStatement?
    private var discoverPages: DiscoverPages?
    /// What the catalog holds: its films, their years and where its data comes from (read
    /// as the catalog loads, on its thread: a search pays nothing for it).
    let coverage: CatalogCoverage

    /// Closes the connection, if one was made, and its statements.
    func close() { connection?.close() }

    /// The queries of `image` (whose data comes from `provenance`), on `connection` when one
    /// is open already (a user's index, whose stamp was read through it), else on one made at
    /// the first detail or Discover page.
    init(_ connection: SQLiteConnection? = nil, image: IndexImage, provenance: String) {
        self.connection = connection
        self.image = image
        engine = SearchEngine(image.corpus)
        coverage = CatalogCoverage(films: image.corpus.count, years: image.corpus.years.lazy.map(Int.init), provenance: provenance)
    }

    /// The connection to the index's database, made on first use.
    private func database() throws(MovieError) -> SQLiteConnection {
        if let connection { return connection }
        let made = try image.connect()
        connection = made
        return made
    }

    /// A film's budget and rating distribution by rank (prepared on first use).
    private func byRank() throws(MovieError) -> SQLiteStatement {
        if let byRankStatement { return byRankStatement }
        let statement = try database().prepare("SELECT budget, distribution FROM movies WHERE rank = ?1")
        byRankStatement = statement
        return statement
    }

    /// Discover's pages (prepared on first use).
    private func discover() throws(MovieError) -> DiscoverPages {
        if let discoverPages { return discoverPages }
        let pages = try DiscoverPages(database(), columns: "rank")
        discoverPages = pages
        return pages
    }

    /// One page of the ranked matches of `query` (see ``SearchEngine``): the ranked list is
    /// kept for recent queries, so a later page is a slice, whatever its depth.
    func search(_ query: String, page: Int) throws(MovieError) -> [Movie] {
        try searchNoting(query, page: page).movies
    }

    /// ``search(_:page:)`` with the query's words the first film leaves out when no title
    /// matches every word (``SearchEngine/Ranked/unmatched``).
    func searchNoting(_ query: String, page: Int) throws(MovieError) -> (movies: [Movie], unmatched: [String]) {
        guard page >= 1 else { return ([], []) }
        let ranked = engine.ranked(for: query, needed: page * MovieCatalog.pageSize)
        let ranks = ranked.ranks.dropFirst((page - 1) * MovieCatalog.pageSize).prefix(MovieCatalog.pageSize)
        return (ranks.map { engine.corpus.display.movie(rank: $0) }, ranked.unmatched)
    }

    func movies(in section: DiscoverSection, page: Int) throws(MovieError) -> [Movie] {
        let display = engine.corpus.display
        let count = engine.corpus.count
        return try discover().page(page, of: section) { row in
            let rank = row.int(0)
            return (1...count).contains(rank) ? display.movie(rank: rank) : nil
        }
    }

    func detail(id: Int) throws(MovieError) -> MovieDetail {
        guard let key = UInt32(exactly: id), let rank = engine.corpus.rank(ofMovie: key) else { throw .notFound }
        let statement = try byRank()
        try statement.bind([.int(rank)])
        defer { statement.reset() }
        guard try statement.step() else { throw .notFound }
        let distribution = try RatingDistribution.decode(statement, column: 1)
        return MovieDetail(movie: engine.corpus.display.movie(rank: rank), budget: statement.isNull(0) ? nil : statement.int(0),
                           ratingDistribution: distribution)
    }
}
