/// Searches the catalog for what the user typed: trims whitespace and refuses queries shorter
/// than ``minimumQueryLength`` (they return no movies and touch no repository).
public struct SearchMoviesUseCase: Sendable {
    /// Shorter (trimmed) queries are not searched.
    public static let minimumQueryLength = 2

    /// The longest query searched, in characters: longer text is cut to this before it
    /// reaches the repository (the C API refuses it with `invalid`), so one search costs
    /// bounded time whatever the text.
    public static let maximumQueryLength = 256

    /// The longest query searched, in UTF-8 bytes: 256 characters of combining marks would
    /// otherwise be a megabyte of text, so no legal query costs more than a few plain ones.
    public static let maximumQueryBytes = 1_024

    private let repository: any MovieCatalogRepository

    /// Creates the use case over a repository.
    public init(repository: any MovieCatalogRepository) { self.repository = repository }

    /// True when `query`, trimmed, is long enough to search. Looks at no more of the text
    /// than it needs (a few characters from each end).
    public static func isSearchable(_ query: String) -> Bool {
        // Starting with as many visible ASCII characters as needed (each its own character,
        // none whitespace): long enough, nothing more to look at.
        let head = query.utf8.prefix(minimumQueryLength)
        if head.count == minimumQueryLength, head.allSatisfy(isVisibleASCII) { return true }
        guard let first = query.firstIndex(where: { !$0.isWhitespace }),
              let last = query.lastIndex(where: { !$0.isWhitespace }) else { return false }
        return query[first...last].prefix(minimumQueryLength).count >= minimumQueryLength
    }

    /// True when `query` is longer than ``maximumQueryBytes`` bytes or
    /// ``maximumQueryLength`` characters (counts no further).
    public static func isTooLong(_ query: String) -> Bool {
        query.utf8.count > maximumQueryBytes || query.dropFirst(maximumQueryLength).first != nil
    }

    /// `query` cut to at most ``maximumQueryLength`` characters and ``maximumQueryBytes``
    /// bytes (at a character boundary).
    public static func bounded(_ query: String) -> String {
        var bytes = 0
        let scalars = query.unicodeScalars.prefix { scalar in
            bytes += UTF8.width(scalar)
            return bytes <= maximumQueryBytes
        }
        return String(String(scalars).prefix(maximumQueryLength))
    }

    /// True for a visible ASCII byte (`!` to `~`): it starts a character of its own (no
    /// earlier scalar joins it), and that character is not whitespace.
    private static func isVisibleASCII(_ byte: UInt8) -> Bool { (0x21...0x7E).contains(byte) }

    /// `query` without leading and trailing whitespace.
    public static func trimmed(_ query: String) -> String {
        // Starting and ending with a visible ASCII character (a character whose first scalar
        // is not whitespace): nothing to trim, nothing to look at.
        if let first = query.utf8.first, let last = query.utf8.last, isVisibleASCII(first), isVisibleASCII(last) { return query }
        let characters = Substring(query)
        guard let first = characters.firstIndex(where: { !$0.isWhitespace }),
              let last = characters.lastIndex(where: { !$0.isWhitespace }) else { return "" }
        return String(characters[first...last])
    }

    /// Page `page` (1-based) of the matches for `query` and where they came from; a short
    /// query finds no movies and touches no repository (`.local`).
    public func execute(query: String, page: Int = 1) async throws(MovieError) -> Sourced<[Movie]> {
        guard Self.isSearchable(query) else { return Sourced([], source: .local) }
        return try await repository.search(matching: Self.trimmed(Self.bounded(query)), page: page)
    }

    /// The movies of ``execute(query:page:)``, without where they came from.
    public func movies(matching query: String, page: Int = 1) async throws(MovieError) -> [Movie] {
        try await execute(query: query, page: page).value
    }
}
