/// The most frequent words of a range of word ids (the words that start with a prefix), most
/// frequent first, ties in word order: a segment tree of the vocabulary's frequencies, built
/// when the index is loaded (2 integers a word), so expanding the word being typed costs
/// O(k log n) for its k most frequent continuations however many words share its letters.
struct PrefixTopWords: Sendable {
    private let frequencies: [UInt32]
    /// Node → the id of its range's most frequent word (leaves at `size...`).
    private let tree: [Int32]
    private let size: Int

    init(frequencies: [UInt32]) {
        self.frequencies = frequencies
        var size = 1
        while size < max(1, frequencies.count) { size *= 2 }
        self.size = size
        var tree = [Int32](repeating: -1, count: 2 * size)
        for index in frequencies.indices { tree[size + index] = Int32(index) }
        if size > 1 {
            for node in stride(from: size - 1, through: 1, by: -1) {
                tree[node] = Self.better(tree[2 * node], tree[2 * node + 1], frequencies)
            }
        }
        self.tree = tree
    }

    /// Up to `count` ids of `range`, most frequent first (ties: smaller id first).
    func top(_ count: Int, in range: Range<Int>) -> [Int] {
        var result: [Int] = []
        var pending: [(range: Range<Int>, best: Int)] = []
        if let best = best(in: range) { pending.append((range, best)) }
        while result.count < count, !pending.isEmpty {
            var pick = 0
            for index in pending.indices.dropFirst() where Self.beats(pending[index].best, pending[pick].best, frequencies) {
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
            if low & 1 == 1 { best = Self.better(best, tree[low], frequencies); low += 1 }
            if high & 1 == 1 { high -= 1; best = Self.better(best, tree[high], frequencies) }
            low /= 2
            high /= 2
        }
        return best < 0 ? nil : Int(best)
    }

    private static func beats(_ a: Int, _ b: Int, _ frequencies: [UInt32]) -> Bool {
        frequencies[a] > frequencies[b] || (frequencies[a] == frequencies[b] && a < b)
    }

    private static func better(_ a: Int32, _ b: Int32, _ frequencies: [UInt32]) -> Int32 {
        if a < 0 { return b }
        if b < 0 { return a }
        return beats(Int(a), Int(b), frequencies) ? a : b
    }
}
