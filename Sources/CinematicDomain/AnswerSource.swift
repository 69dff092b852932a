/// Where a catalog answer came from: the screen says so when it is not fresh.
///
/// A local catalog (the embedded one) answers `.local` and the wire says nothing; a remote
/// catalog (a host provider) answers `.live`, or `.cache(cachedAt:)` when the network failed
/// and an offline copy was shown instead.
///
/// ```swift
/// if case let .cache(cachedAt) = answer.source { showOfflineNote(since: cachedAt) }
/// ```
public enum AnswerSource: Equatable, Hashable, Sendable {
    /// A local catalog: always current, nothing to report.
    case local
    /// A remote catalog answered just now.
    case live
    /// A remote catalog failed; this copy was stored at `cachedAt` (Unix seconds).
    case cache(cachedAt: Int64)

    /// What a view of several pages says: fresh only while every page is. Two cached
    /// sources keep the older time.
    ///
    /// ```swift
    /// AnswerSource.live.combined(with: .cache(cachedAt: 10))   // .cache(cachedAt: 10)
    /// ```
    public func combined(with other: AnswerSource) -> AnswerSource {
        switch (self, other) {
        case let (.cache(first), .cache(second)): .cache(cachedAt: min(first, second))
        case (.cache, _): self
        case (_, .cache): other
        case (.live, _), (_, .live): .live
        case (.local, .local): .local
        }
    }
}

/// A value and where it came from: what a catalog's requests return.
///
/// ```swift
/// let answer = try await catalog.search(matching: "dune", page: 1)
/// render(answer.value, offline: answer.source != .live)
/// ```
public struct Sourced<Value> {
    /// The answer itself.
    public var value: Value
    /// Where it came from.
    public var source: AnswerSource
    /// What the catalog that answered holds, when it says (the embedded catalog and a user's
    /// index do, with each search's answer; a host's catalog does not): a search's hint
    /// words the catalog's limits from it (``SearchHint``).
    public var coverage: CatalogCoverage?
    /// For a search that no title matches whole: the query's words the first film listed
    /// leaves out, as the catalog read them ("dark" for "the dark knight" → First Knight);
    /// empty otherwise. The search's hint names them (``SearchHint``).
    public var unmatched: [String]

    /// Pairs a value with its source (and, for a search, the answering catalog's coverage
    /// and the words its films leave out).
    public init(_ value: Value, source: AnswerSource, coverage: CatalogCoverage? = nil, unmatched: [String] = []) {
        self.value = value
        self.source = source
        self.coverage = coverage
        self.unmatched = unmatched
    }
}

extension Sourced: Equatable where Value: Equatable {}
extension Sourced: Sendable where Value: Sendable {}
