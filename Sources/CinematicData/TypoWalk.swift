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
    static func words(near query: [UInt32], limit: Int, in corpus: SearchCorpus) -> [(id: Int, distance: Int)] {
        let width = query.count + 1
        var rows: [Int] = Array(0...query.count)
        var path: [UInt32] = []
        var found: [(id: Int, distance: Int)] = []
        var id = 0
        let count = corpus.words.count
        while id < count {
            let word = corpus.scalars(of: id)
            var depth = 0
            while depth < path.count, depth < word.count, path[depth] == word[word.startIndex + depth] { depth += 1 }
            path.removeLast(path.count - depth)
            var skipped = false
            while depth < word.count {
                let letter = word[word.startIndex + depth]
                depth += 1
                if rows.count < (depth + 1) * width { rows.append(contentsOf: repeatElement(0, count: width)) }
                let row = depth * width, above = row - width, above2 = row - 2 * width
                rows[row] = depth
                var minimum = depth
                for column in 1..<width {
                    let cost = letter == query[column - 1] ? 0 : 1
                    var value = min(rows[above + column] + 1, rows[row + column - 1] + 1, rows[above + column - 1] + cost)
                    if depth > 1, column > 1, letter == query[column - 2], path[depth - 2] == query[column - 1] {
                        value = min(value, rows[above2 + column - 2] + 1)
                    }
                    rows[row + column] = value
                    minimum = min(minimum, value)
                }
                path.append(letter)
                if minimum > limit {
                    id = corpus.end(ofPrefix: path[...], from: id + 1)
                    skipped = true
                    break
                }
            }
            if skipped { continue }
            let distance = rows[depth * width + query.count]
            if distance <= limit && distance >= 1 { found.append((id, distance)) }
            id += 1
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
