import CinematicDomain

/// The vocabulary of an index being built, compact: every distinct word's UTF-8 bytes once, in
/// one buffer, interned to a dense id in order of first appearance. ASCII words are found by
/// their bytes in an open-addressing table of ids; a word with other characters by Swift
/// string equality (canonical equivalence: Hangul "한" as one scalar or as its three jamo is
/// one word, as a `Set<String>` counts them), keeping the form seen first (words are folded
/// first: ``SearchText``, so no non-ASCII word equals an ASCII one). Then ``sortedOrder()`` gives the
/// ids in byte order, the vocabulary's order in the index.
struct WordTable {
    /// Every word's bytes, one after another; word `i` is `bytes[starts[i]..<starts[i + 1]]`.
    private(set) var bytes: [UInt8] = []
    private(set) var starts: [UInt32] = [0]
    /// Open addressing: an id + 1 per slot, 0 for empty (ASCII words only).
    private var slots = [UInt32](repeating: 0, count: 1 << 12)
    private var nonASCII: [String: UInt32] = [:]

    /// The number of distinct words.
    var count: Int { starts.count - 1 }

    /// The id of `word`, interned if new.
    mutating func id(of word: String) throws(MovieError) -> UInt32 {
        var word = word
        let found = word.withUTF8 { utf8 -> (id: UInt32?, slot: Int)? in utf8.allSatisfy({ $0 < 0x80 }) ? find(utf8) : nil }
        if let (known, slot) = found {
            if let known { return known }
            let new = try append(word.utf8)
            slots[slot] = new + 1
            if count * 2 > slots.count { grow() }
            return new
        }
        if let known = nonASCII[word] { return known }
        let new = try append(word.utf8)
        nonASCII[word] = new
        return new
    }

    /// Word `id` as text.
    func text(_ id: Int) -> String {
        String(decoding: bytes[Int(starts[id])..<Int(starts[id + 1])], as: UTF8.self)
    }

    /// The ids in the order of their bytes (the index's vocabulary order: ``SearchCorpus``).
    func sortedOrder() -> [UInt32] {
        bytes.withUnsafeBufferPointer { all in
            starts.withUnsafeBufferPointer { starts in
                (0..<UInt32(count)).sorted { a, b in
                    let x = UnsafeBufferPointer(rebasing: all[Int(starts[Int(a)])..<Int(starts[Int(a) + 1])])
                    let y = UnsafeBufferPointer(rebasing: all[Int(starts[Int(b)])..<Int(starts[Int(b) + 1])])
                    return x.lexicographicallyPrecedes(y)
                }
            }
        }
    }

    /// Frees the lookup structures (only ``bytes`` and ``starts`` are read after interning).
    mutating func finishInterning() {
        slots = []
        nonASCII = [:]
    }

    /// The id of the ASCII word `utf8` if known, and its slot (where it is or goes).
    private func find(_ utf8: UnsafeBufferPointer<UInt8>) -> (id: UInt32?, slot: Int) {
        let mask = slots.count - 1
        var slot = Self.hash(utf8) & mask
        while slots[slot] != 0 {
            let id = Int(slots[slot] - 1)
            let start = Int(starts[id]), end = Int(starts[id + 1])
            if end - start == utf8.count, bytes.withUnsafeBufferPointer({ UnsafeBufferPointer(rebasing: $0[start..<end]).elementsEqual(utf8) }) {
                return (UInt32(id), slot)
            }
            slot = (slot + 1) & mask
        }
        return (nil, slot)
    }

    /// FNV-1a of `bytes`, folded.
    private static func hash(_ bytes: some Sequence<UInt8>) -> Int {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
        return Int(truncatingIfNeeded: hash ^ (hash >> 29))
    }

    private mutating func append(_ utf8: some Collection<UInt8>) throws(MovieError) -> UInt32 {
        guard count < Int(UInt32.max) - 1, bytes.count + utf8.count < Int(UInt32.max) else {
            throw .storage("the movie file has more title words than an index holds")
        }
        bytes.append(contentsOf: utf8)
        starts.append(UInt32(bytes.count))
        return UInt32(count - 1)
    }

    /// Twice the slots, every ASCII word placed again.
    private mutating func grow() {
        let old = slots
        slots = [UInt32](repeating: 0, count: old.count * 2)
        let mask = slots.count - 1
        for entry in old where entry != 0 {
            let id = Int(entry - 1)
            var slot = Self.hash(bytes[Int(starts[id])..<Int(starts[id + 1])]) & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = entry
        }
    }
}
