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
    /// A search page and where it came from; a decorator (an offline cache, a recorder)
    /// must forward it. Defaults to ``searchMovies(matching:page:)`` marked `.local`.
    func sourcedSearch(matching query: String, page: Int) async throws(MovieError) -> Sourced<[Movie]>
    /// A Discover page and where it came from (default: `.local`).
    func sourcedMovies(in section: DiscoverSection, page: Int) async throws(MovieError) -> Sourced<[Movie]>
    /// A movie's detail and where it came from (default: `.local`).
    func sourcedMovieDetail(id: Int) async throws(MovieError) -> Sourced<MovieDetail>
}

extension MovieCatalogRepository {
    /// ``searchMovies(matching:page:)`` with where the answer came from. A remote catalog
    /// (or its offline cache) says `.live` or `.cache`; this default says `.local`.
    public func sourcedSearch(matching query: String, page: Int) async throws(MovieError) -> Sourced<[Movie]> {
        Sourced(try await searchMovies(matching: query, page: page), source: .local)
    }

    /// ``movies(in:page:)`` with where the answer came from (default: `.local`).
    public func sourcedMovies(in section: DiscoverSection, page: Int) async throws(MovieError) -> Sourced<[Movie]> {
        Sourced(try await movies(in: section, page: page), source: .local)
    }

    /// ``movieDetail(id:)`` with where the answer came from (default: `.local`).
    public func sourcedMovieDetail(id: Int) async throws(MovieError) -> Sourced<MovieDetail> {
        Sourced(try await movieDetail(id: id), source: .local)
    }

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

/// A catalog that answers with where its answers came from (a decorator such as an offline
/// cache or a recorder, which must keep the source): it implements the three `sourced`
/// requests, and its plain requests are their values. A conforming type must implement the
/// sourced requests (the defaults of ``MovieCatalogRepository`` would call back here).
///
/// ```swift
/// struct Logging: SourcedMovieCatalogRepository {
///     let inner: any MovieCatalogRepository
///     func sourcedSearch(matching q: String, page: Int) async throws(MovieError) -> Sourced<[Movie]> {
///         try await inner.sourcedSearch(matching: q, page: page)
///     }
///     // sourcedMovies(in:page:), sourcedMovieDetail(id:) likewise
/// }
/// ```
public protocol SourcedMovieCatalogRepository: MovieCatalogRepository {}

extension SourcedMovieCatalogRepository {
    /// The value of ``MovieCatalogRepository/sourcedSearch(matching:page:)``.
    public func searchMovies(matching query: String, page: Int) async throws(MovieError) -> [Movie] {
        try await sourcedSearch(matching: query, page: page).value
    }

    /// The value of ``MovieCatalogRepository/sourcedMovies(in:page:)``.
    public func movies(in section: DiscoverSection, page: Int) async throws(MovieError) -> [Movie] {
        try await sourcedMovies(in: section, page: page).value
    }

    /// The value of ``MovieCatalogRepository/sourcedMovieDetail(id:)``.
    public func movieDetail(id: Int) async throws(MovieError) -> MovieDetail {
        try await sourcedMovieDetail(id: id).value
    }
}
