import CinematicDomain

/// Where a catalog index's data comes from, as its ``CatalogCoverage`` says it.
extension CatalogCoverage {
    /// The embedded catalog's (data/README.md): IMDb's films as R's ggplot2movies keeps them.
    public static let embeddedProvenance = "IMDb's figures as of 2005, via R's ggplot2movies; ASCII titles only"

    /// A user's index at `path`: "the catalog file “movies.idx”" (its name, not its folders).
    public static func file(_ path: String) -> String {
        let name = path.split(separator: "/", omittingEmptySubsequences: true).last.map(String.init) ?? path
        return "the catalog file \u{201C}\(name)\u{201D}"
    }
}
