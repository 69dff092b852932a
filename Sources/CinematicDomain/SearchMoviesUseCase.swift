/// Searches the catalog for what the user typed: trims whitespace and refuses queries shorter
/// than ``minimumQueryLength`` (they return no movies and touch no repository).
public struct SearchMoviesUseCase: Sendable {
    /// Shorter (trimmed) queries are not searched.
    public static let minimumQueryLength = 2

    private let repository: any MovieCatalogRepository

    /// Creates the use case over a repository.
    public init(repository: any MovieCatalogRepository) { self.repository = repository }

    /// True when `query`, trimmed, is long enough to search.
    public static func isSearchable(_ query: String) -> Bool {
        trimmed(query).count >= minimumQueryLength
    }

    /// `query` without leading and trailing whitespace.
    public static func trimmed(_ query: String) -> String {
        let characters = Substring(query)
        guard let first = characters.firstIndex(where: { !$0.isWhitespace }),
              let last = characters.lastIndex(where: { !$0.isWhitespace }) else { return "" }
        return String(characters[first...last])
    }

    /// The first page of matches for `query`, or no movies for a short query.
    public func execute(query: String) async throws(MovieError) -> [Movie] {
        guard Self.isSearchable(query) else { return [] }
        return try await repository.searchMovies(matching: Self.trimmed(query))
    }
}
