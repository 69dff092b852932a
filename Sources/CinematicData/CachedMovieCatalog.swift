import CinematicDomain

/// Turns answers into the text an ``OfflineCache`` stores and back. The data layer knows no
/// JSON: the layer that owns the wire format provides this (the C library uses its JSON
/// codecs, so cached answers are the same JSON hosts see).
public protocol AnswerCoder: Sendable {
    /// A list of movies as text.
    func encode(_ movies: [Movie]) -> String
    /// A movie's detail as text.
    func encode(_ detail: MovieDetail) -> String
    /// The movies in `text`; nil when it cannot be read (the entry is ignored).
    func decodeMovies(_ text: String) -> [Movie]?
    /// The detail in `text`; nil when it cannot be read.
    func decodeDetail(_ text: String) -> MovieDetail?
}

/// A remote catalog with an offline cache: every successful answer is stored, and when a
/// later request fails because the catalog is unreachable (`network` or `timeout`, see
/// ``MovieError/isUnreachable``) the cached answer is returned instead, marked
/// `.cache(cachedAt:)`; fresh answers are marked `.live`. Other errors, a cancelled request
/// and a missing or expired entry keep the original error.
///
/// Keys, each behind its source's ``Scope`` prefix: a search by its normalised words (``SearchText``: case, accents and punctuation do
/// not matter) and page; a Discover section by its name and page; a detail by movie id.
///
/// ```swift
/// let catalog = CachedMovieCatalog(remote: hostCatalog, cache: cache, coder: coder, now: { unixTime() })
/// let answer = try await catalog.search(matching: "dune", page: 1)   // .live or .cache
/// ```
public struct CachedMovieCatalog: MovieCatalogRepository {
    /// Whose answers a cache row holds: one catalog source's, never shown for another.
    public enum Scope: Sendable, Equatable {
        /// A source that declared no identity: its rows are its own ("anonymous"), never
        /// shown to a declared source (and a runtime gets no shared default cache without one).
        case anonymous
        /// A declared source (a provider's base URL or a name): its rows only.
        case source(String)

        /// The prefix of every key of this scope: `anonymous ` or `source:<byte count>:<id> `
        /// (the count makes two identities' prefixes differ even when one starts with the other).
        public var prefix: String {
            switch self {
            case .anonymous: "anonymous "
            case let .source(id): "source:\(id.utf8.count):\(id) "
            }
        }
    }

    private let remote: any MovieCatalogRepository
    private let cache: OfflineCache
    private let coder: any AnswerCoder
    private let now: @Sendable () -> Int64
    private let scope: Scope

    /// Wraps `remote`. `now` gives the current Unix time in seconds (stored with each answer,
    /// and compared with the time to live). `scope` keeps this source's rows apart from every
    /// other source's in the same cache file: a lookup only ever finds rows stored under the
    /// same scope.
    public init(remote: any MovieCatalogRepository, cache: OfflineCache, coder: any AnswerCoder,
                scope: Scope = .anonymous, now: @escaping @Sendable () -> Int64) {
        self.remote = remote
        self.cache = cache
        self.coder = coder
        self.scope = scope
        self.now = now
    }

    /// The cache key of a search: `search:<normalised words>:<page>`.
    public static func key(search query: String, page: Int) -> String {
        let words = SearchText.words(query)
        return "search:\(words.isEmpty ? query.lowercased() : words.joined(separator: " ")):\(page)"
    }

    /// The cache key of a Discover page: `discover:<section>:<page>`.
    public static func key(section: DiscoverSection, page: Int) -> String {
        switch section {
        case .popular: "discover:popular:\(page)"
        case .topRated: "discover:topRated:\(page)"
        case let .genre(genre): "discover:genre.\(genre.lowercased()):\(page)"
        }
    }

    /// The cache key of a detail: `movie:<id>`.
    public static func key(movie id: Int) -> String { "movie:\(id)" }

    /// A search: live (and stored), or the stored copy when the remote is unreachable.
    public func search(matching query: String, page: Int) async throws(MovieError) -> Sourced<[Movie]> {
        try await cached(Self.key(search: query, page: page), encode: coder.encode, decode: coder.decodeMovies) { () throws(MovieError) in
            try await remote.searchMovies(matching: query, page: page)
        }
    }

    /// A Discover page: live (and stored), or the stored copy when the remote is unreachable.
    public func discover(section: DiscoverSection, page: Int) async throws(MovieError) -> Sourced<[Movie]> {
        try await cached(Self.key(section: section, page: page), encode: coder.encode, decode: coder.decodeMovies) { () throws(MovieError) in
            try await remote.movies(in: section, page: page)
        }
    }

    /// A movie's detail: live (and stored), or the stored copy when the remote is unreachable.
    public func detail(id: Int) async throws(MovieError) -> Sourced<MovieDetail> {
        try await cached(Self.key(movie: id), encode: coder.encode, decode: coder.decodeDetail) { () throws(MovieError) in
            try await remote.movieDetail(id: id)
        }
    }

    /// Live first; the cached copy when the remote is unreachable.
    private func cached<Value>(
        _ unscoped: String, encode: (Value) -> String, decode: (String) -> Value?,
        live: () async throws(MovieError) -> Value
    ) async throws(MovieError) -> Sourced<Value> {
        let key = scope.prefix + unscoped
        do {
            let value = try await live()
            cache.store(key, body: encode(value), now: now())
            return Sourced(value, source: .live)
        } catch {
            // A cancelled request's answer is dropped anyway: no lookup for nobody.
            guard error.isUnreachable, !Task.isCancelled,
                  let hit = await cache.lookup(key, now: now()), let value = decode(hit.body) else { throw error }
            return Sourced(value, source: .cache(cachedAt: hit.storedAt))
        }
    }
}
