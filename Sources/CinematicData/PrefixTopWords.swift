/// The most frequent words of a range of word ids (the words that start with a prefix), most
/// frequent first, ties in word order: a segment tree of the vocabulary's frequencies, built
/// with the index and read where it lies (``CorpusLayout/Part/topWords``: one `Int32` per
/// node, leaves at ``leaves(forWords:)``), so expanding the word being typed costs
/// O(k log n) for its k most frequent continuations however many words share its letters.
struct PrefixTopWords: @unchecked Sendable {
    /// Node → the id of its range's most frequent word, -1 for none (leaves at `size...`).
    private let tree: UnsafeBufferPointer<Int32>
    /// The postings' starts: word `i` is held by `starts[i + 1] - starts[i]` titles.
    private let starts: UnsafeBufferPointer<UInt32>
    private let size: Int

    /// The tree read in place (its shape checked by ``CorpusLayout``, its nodes by ``isValid``).
    init(tree: UnsafeBufferPointer<Int32>, postingStarts: UnsafeBufferPointer<UInt32>) {
        self.tree = tree
        starts = postingStarts
        size = tree.count / 2
    }

    /// The number of leaves of the tree of `words` words: the least power of 2 holding them.
    static func leaves(forWords words: Int) -> Int {
        var size = 1
        while size < max(1, words) { size *= 2 }
        return size
    }

    /// The tree of the words of `frequencies` (index building).
    static func tree(frequencies: [UInt32]) -> [Int32] {
        let size = leaves(forWords: frequencies.count)
        var tree = [Int32](repeating: -1, count: 2 * size)
        for index in frequencies.indices { tree[size + index] = Int32(index) }
        if size > 1 {
            for node in stride(from: size - 1, through: 1, by: -1) {
                tree[node] = better(tree[2 * node], tree[2 * node + 1]) { Int(frequencies[$0]) }
            }
        }
        return tree
    }

    /// True when every leaf names its own word (or none past the vocabulary) and every node
    /// its children's most frequent word: what ``top(_:in:)`` needs to stay inside its ranges.
    func isValid(words: Int) -> Bool {
        guard size >= max(1, words) else { return false }
        for index in 0..<size where tree[size + index] != (index < words ? Int32(index) : -1) { return false }
        if size > 1 {
            for node in 1..<size where tree[node] != Self.better(tree[2 * node], tree[2 * node + 1], frequency) { return false }
        }
        return true
    }

    private func frequency(_ id: Int) -> Int { Int(starts[id + 1] - starts[id]) }

    /// Up to `count` ids of `range`, most frequent first (ties: smaller id first).
    func top(_ count: Int, in range: Range<Int>) -> [Int] {
        var result: [Int] = []
        var pending: [(range: Range<Int>, best: Int)] = []
        if let best = best(in: range) { pending.append((range, best)) }
        while result.count < count, !pending.isEmpty {
            var pick = 0
            for index in pending.indices.dropFirst() where Self.beats(pending[index].best, pending[pick].best, frequency) {
                pick = index
            }
            let (range, best) = pending.remove(at: pick)
            result.append(best)
            if let left = self.best(in: range.lowerBound..<best) { pending.append((range.lowerBound..<best, left)) }
            if let right = self.best(in: (best + 1)..<range.upperBound) { pending.append(((best + 1)..<range.upperBound, right)) }
        }
        return result
    }

    /// The most frequent id of `range`, nil when it is empty.
    private func best(in range: Range<Int>) -> Int? {
        guard !range.isEmpty else { return nil }
        var low = range.lowerBound + size, high = range.upperBound + size
        var best: Int32 = -1
        while low < high {
            if low & 1 == 1 { best = Self.better(best, tree[low], frequency); low += 1 }
            if high & 1 == 1 { high -= 1; best = Self.better(best, tree[high], frequency) }
            low /= 2
            high /= 2
        }
        return best < 0 ? nil : Int(best)
    }

    private static func beats(_ a: Int, _ b: Int, _ frequency: (Int) -> Int) -> Bool {
        frequency(a) > frequency(b) || (frequency(a) == frequency(b) && a < b)
    }

    private static func better(_ a: Int32, _ b: Int32, _ frequency: (Int) -> Int) -> Int32 {
        if a < 0 { return b }
        if b < 0 { return a }
        return beats(Int(a), Int(b), frequency) ? a : b
    }
}
