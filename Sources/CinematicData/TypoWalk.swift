/// The typo index: the vocabulary words within a few edits of a query word, found by walking
/// the sorted vocabulary as a trie (words sharing a prefix share their rows of the edit
/// distance table, and a prefix whose row exceeds the limit skips every word under it). It
/// needs nothing but the vocabulary, so it grows with the words, not with their deletions
/// (the SymSpell table it replaces held 844,212 rows for 91k words).
///
/// Distances are optimal-string-alignment Damerau–Levenshtein over unicode scalars, like
/// ``SearchRanking/distance(_:_:limit:)``.
enum TypoWalk {
    /// Every word of `corpus` within `limit` edits of `query` and not equal to it, with its
    /// distance, in id order.
    ///
    /// Each row of the table is computed only in its band (columns within `limit` of the
    /// row: outside it the distance already exceeds the limit), as bytes, over the corpus's
    /// arrays read in place: a typo lookup costs a fraction of a millisecond at 58,788 films.
    /// Only the words of `range` are walked (all by default; the words of one first letter
    /// are one range of the sorted vocabulary).
    static func words(near query: [UInt32], limit: Int, in corpus: SearchCorpus, range: Range<Int>? = nil) -> [(id: Int, distance: Int)] {
        guard !query.isEmpty, limit >= 0, limit < 100 else { return [] }
        let m = query.count, width = m + 1
        let infinity = UInt8(limit + 1)
        var found: [(id: Int, distance: Int)] = []
        let starts = corpus.scalarStarts, shared = corpus.sharedPrefix
        query.withUnsafeBufferPointer { q in
            var depthCapacity = 32
            var rows = [UInt8](repeating: infinity, count: (depthCapacity + 1) * width)
            for column in 0...m { rows[column] = UInt8(min(column, Int(infinity))) }
            var path = [UInt32](repeating: 0, count: depthCapacity + 1)
            var pathLength = 0
            let first = range?.lowerBound ?? 0
            var id = first
            let count = min(starts.count - 1, range?.upperBound ?? Int.max)
            while id < count {
                let start = Int(starts[id]), length = Int(starts[id + 1]) - start
                // What this word shares with the path: with the word before it (sorted order),
                // at most the path's length.
                var depth = id == first ? 0 : min(pathLength, Int(shared[id - 1]), length)
                pathLength = depth
                if length > depthCapacity {
                    depthCapacity = length * 2
                    rows += [UInt8](repeating: infinity, count: (depthCapacity + 1) * width - rows.count)
                    path += [UInt32](repeating: 0, count: depthCapacity + 1 - path.count)
                }
                var skipped = false
                rows.withUnsafeMutableBufferPointer { table in
                    while depth < length {
                        let letter = corpus.scalar(at: start + depth)
                        let previousLetter = depth > 0 ? path[depth - 1] : 0
                        depth += 1
                        let row = depth * width, above = row - width, above2 = row - 2 * width
                        let low = max(1, depth - limit), high = min(m, depth + limit)
                        table[row] = depth <= limit ? UInt8(depth) : infinity
                        if low > 1 { table[row + low - 1] = infinity }
                        var minimum = table[row]
                        if low <= high {
                            for column in low...high {
                                let cost: UInt8 = letter == q[column - 1] ? 0 : 1
                                var value = min(table[above + column] &+ 1, table[row + column - 1] &+ 1, table[above + column - 1] &+ cost)
                                if depth > 1, column > 1, letter == q[column - 2], previousLetter == q[column - 1] {
                                    value = min(value, table[above2 + column - 2] &+ 1)
                                }
                                value = min(value, infinity)
                                table[row + column] = value
                                minimum = min(minimum, value)
                            }
                        }
                        if high < m { table[row + high + 1] = infinity }
                        path[depth - 1] = letter
                        pathLength = depth
                        if minimum > UInt8(limit) {
                            skipped = true
                            return
                        }
                    }
                }
                if skipped {
                    // The words under the pruned prefix follow this one, each sharing at
                    // least its length with the one before.
                    while id < count - 1, Int(shared[id]) >= pathLength { id += 1 }
                    id += 1
                    continue
                }
                let distance = Int(rows[depth * width + m])
                if distance <= limit && distance >= 1 { found.append((id, distance)) }
                id += 1
            }
        }
        return found
    }

    /// The length of the longest common subsequence of `a` and `b` (what the deletion index
    /// matched on: two words meet when deleting letters from each reaches the same string).
    static func commonSubsequence<A: Collection<UInt32>, B: Collection<UInt32>>(_ a: A, _ b: B) -> Int {
        let t = Array(b)
        var previous = [Int](repeating: 0, count: t.count + 1), current = previous
        for x in a {
            for (j, y) in t.enumerated() {
                current[j + 1] = x == y ? previous[j] + 1 : max(previous[j + 1], current[j])
            }
            swap(&previous, &current)
        }
        return previous[t.count]
    }
}
