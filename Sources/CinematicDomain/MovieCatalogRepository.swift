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

    /// The section's id on the wire: "popular", "topRated", or the genre in lower case ("comedy").
    public var id: String {
        switch self {
        case .popular: "popular"
        case .topRated: "topRated"
        case let .genre(genre): genre.lowercased()
        }
    }

    /// The section's title as people read it: "Popular", "Top rated", or the genre ("Comedy").
    public var title: String {
        switch self {
        case .popular: "Popular"
        case .topRated: "Top rated"
        case let .genre(genre): genre
        }
    }
}

/// Where movies come from: the embedded SQLite catalog or a host-provided one.
///
/// One requirement per request, each answering with where the answer came from (a local
/// catalog says `.local`; a remote one `.live`, or `.cache` when its offline copy answered).
/// The plain accessors (``searchMovies(matching:page:)``, ``movies(in:page:)``,
/// ``movieDetail(id:)``) are derived from them and are not requirements: no requirement has
/// a default implementation, so a conforming type that forgets one fails to compile.
/// Pages are 1-based and hold at most ``MovieCatalog/pageSize`` movies.
///
/// ```swift
/// struct Logging: MovieCatalogRepository {
///     let inner: any MovieCatalogRepository
///     func search(matching q: String, page: Int) async throws(MovieError) -> Sourced<[Movie]> {
///         try await inner.search(matching: q, page: page)   // a decorator keeps the source
///     }
///     // discover(section:page:), detail(id:) likewise
/// }
/// ```
public protocol MovieCatalogRepository: Sendable {
    /// Movies matching free user text: exact and prefix title matches first, then popular
    /// films. Text is never interpreted as query syntax.
    func search(matching query: String, page: Int) async throws(MovieError) -> Sourced<[Movie]>
    /// One page of a Discover section.
    func discover(section: DiscoverSection, page: Int) async throws(MovieError) -> Sourced<[Movie]>
    /// Everything known about one film; throws `.notFound` for an unknown id.
    func detail(id: Int) async throws(MovieError) -> Sourced<MovieDetail>
}

extension MovieCatalogRepository {
    /// The movies of ``search(matching:page:)``, without where they came from.
    public func searchMovies(matching query: String, page: Int) async throws(MovieError) -> [Movie] {
        try await search(matching: query, page: page).value
    }

    /// The first page of a search.
    public func searchMovies(matching query: String) async throws(MovieError) -> [Movie] {
        try await search(matching: query, page: 1).value
    }

    /// The movies of ``discover(section:page:)``, without where they came from.
    public func movies(in section: DiscoverSection, page: Int) async throws(MovieError) -> [Movie] {
        try await discover(section: section, page: page).value
    }

    /// The detail of ``detail(id:)``, without where it came from.
    public func movieDetail(id: Int) async throws(MovieError) -> MovieDetail {
        try await detail(id: id).value
    }
}

/// Catalog-wide constants.
public enum MovieCatalog {
    /// Movies per page, for every list.
    public static let pageSize = 20
}
