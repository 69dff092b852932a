/// A list the Discover screen shows.
public enum DiscoverSection: Hashable, Sendable {
    /// Most votes first.
    case popular
    /// Highest rating among films with at least ``DiscoverSection/topRatedMinimumVotes`` votes.
    case topRated
    /// One genre, most votes first.
    case genre(String)

    /// The vote floor of the top-rated list.
    public static let topRatedMinimumVotes = 1_000

    /// Every section: popular, top rated, then one per genre.
    public static let all: [DiscoverSection] = [.popular, .topRated] + Genre.all.map { .genre($0) }
}

/// Where movies come from: the embedded SQLite catalog or a host-provided one.
///
/// Pages are 1-based and hold at most ``MovieCatalog/pageSize`` movies.
public protocol MovieCatalogRepository: Sendable {
    /// Movies matching free user text: exact and prefix title matches first, then popular
    /// films. Text is never interpreted as query syntax.
    func searchMovies(matching query: String, page: Int) async throws(MovieError) -> [Movie]
    /// One page of a Discover section.
    func movies(in section: DiscoverSection, page: Int) async throws(MovieError) -> [Movie]
    /// Everything known about one film; throws `.notFound` for an unknown id.
    func movieDetail(id: Int) async throws(MovieError) -> MovieDetail
}

extension MovieCatalogRepository {
    /// The first page of a search.
    public func searchMovies(matching query: String) async throws(MovieError) -> [Movie] {
        try await searchMovies(matching: query, page: 1)
    }
}

/// Catalog-wide constants.
public enum MovieCatalog {
    /// Movies per page, for every list.
    public static let pageSize = 20
}
