/// What a catalog holds, as its answers say it: how many films, the years they span, and
/// where its data comes from. A search whose query looks past it says so (``SearchHint``):
/// "casino royale 2006" in a catalog that ends in 2005, or a query nothing matches.
///
/// The embedded catalog and a user's index both say theirs (read from the index as it
/// opens); a host's catalog says nothing (nil), and no such hint is given.
///
/// ```swift
/// let coverage = CatalogCoverage(films: 58_788, firstYear: 1893, lastYear: 2005,
///                                provenance: "IMDb's titles and figures as of 2005")
/// coverage.range    // "58,788 films from 1893 to 2005 (IMDb's titles and figures as of 2005)"
/// ```
public struct CatalogCoverage: Equatable, Hashable, Sendable {
    /// Films in the catalog.
    public let films: Int
    /// The earliest year of a film (films without a year aside).
    public let firstYear: Int
    /// The latest year of a film.
    public let lastYear: Int
    /// Where the data comes from, in words ("IMDb's titles and figures as of 2005", "the
    /// catalog file movies.idx").
    public let provenance: String

    /// A catalog's coverage (`firstYear` ≤ `lastYear`; both 0 when no film has a year).
    public init(films: Int, firstYear: Int, lastYear: Int, provenance: String) {
        self.films = films
        self.firstYear = firstYear
        self.lastYear = lastYear
        self.provenance = provenance
    }

    /// The coverage of films whose `years` are these (0: unknown, left out).
    public init(films: Int, years: some Sequence<Int>, provenance: String) {
        var first = Int.max, last = 0
        for year in years where year > 0 {
            first = min(first, year)
            last = max(last, year)
        }
        self.init(films: films, firstYear: last == 0 ? 0 : first, lastYear: last, provenance: provenance)
    }

    /// "58,788 films from 1893 to 2005 (provenance)", as a hint says it.
    public var range: String {
        let span = lastYear == 0 ? "" : firstYear == lastYear ? " from \(lastYear)" : " from \(firstYear) to \(lastYear)"
        return "\(NumberText.grouped(films)) film\(films == 1 ? "" : "s")\(span) (\(provenance))"
    }
}
