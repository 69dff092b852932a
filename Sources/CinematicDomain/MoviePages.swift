extension Array where Element == Movie {
    /// This list with the next page's movies appended, leaving out those already in it: a
    /// catalog whose order shifts between two page requests never duplicates a row.
    ///
    /// ```swift
    /// shown = shown.appendingPage(nextPage)
    /// ```
    ///
    /// Costs one pass over the shown ids and no hashing of them: each is tested against a
    /// filter of the page's ids first (the page is small, the list can be thousands), so a
    /// page costs little more at 2,000 shown than at 20.
    public func appendingPage(_ page: [Movie]) -> [Movie] {
        guard !isEmpty, !page.isEmpty else { return self + page }
        let pageIDs = page.map(\.id)
        let filter = PageFilter(pageIDs)
        var shown: Set<Int> = []
        withUnsafeBufferPointer { movies in
            for index in movies.indices {
                let id = movies[index].id
                if filter.mayContain(id), pageIDs.contains(id) { shown.insert(id) }
            }
        }
        return self + (shown.isEmpty ? page : page.filter { !shown.contains($0.id) })
    }
}

/// A 256-bit filter of a page's ids: an id it does not contain is not on the page (for a
/// page of 20, about 1 shown id in 13 needs a real look).
private struct PageFilter {
    private var bits = SIMD4<UInt64>()  // four words inline: no allocation

    init(_ ids: [Int]) {
        for id in ids {
            let (word, bit) = Self.position(id)
            bits[word] |= bit
        }
    }

    func mayContain(_ id: Int) -> Bool {
        let (word, bit) = Self.position(id)
        return bits[word] & bit != 0
    }

    private static func position(_ id: Int) -> (word: Int, bit: UInt64) {
        let hashed = UInt(bitPattern: id) &* 0x9E37_79B9_7F4A_7C15  // spreads neighbouring ids
        let slot = Int(truncatingIfNeeded: hashed >> 56)             // 0…255
        return (slot >> 6, 1 << UInt64(slot & 63))
    }
}
