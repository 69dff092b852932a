extension Array where Element == Movie {
    /// This list with the next page's movies appended, leaving out those already in it: a
    /// catalog whose order shifts between two page requests never duplicates a row.
    ///
    /// ```swift
    /// shown = shown.appendingPage(nextPage)
    /// ```
    public func appendingPage(_ page: [Movie]) -> [Movie] {
        let ids = Set(map(\.id))
        return self + page.filter { !ids.contains($0.id) }
    }
}
