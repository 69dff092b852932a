import CinematicDomain
#if canImport(Glibc)
import Glibc
#endif

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
    /// Open addressing (ASCII words only): per slot, the high half of the word's hash
    /// (``tagMask``) above its id + 1, so a probe compares bytes only when the halves match;
    /// 0 for empty.
    private var slots: [UInt64]
    private static let tagMask: UInt64 = 0xFFFF_FFFF_0000_0000
    private var nonASCII: [String: UInt32] = [:]

    /// An empty table sized for about `expected` words (it grows past them).
    init(expected: Int = 2048) {
        var count = 1 << 12
        while count < 2 * expected { count <<= 1 }
        slots = [UInt64](repeating: 0, count: count)
    }

    /// The number of distinct words.
    var count: Int { starts.count - 1 }

    /// The id of `word`, interned if new.
    mutating func id(of word: String) throws(MovieError) -> UInt32 {
        var word = word
        let ascii = word.withUTF8 { utf8 -> Result<UInt32, MovieError>? in
            utf8.isASCII ? Result { () throws(MovieError) in try id(ofASCII: utf8) } : nil
        }
        if let ascii { return try ascii.get() }
        if let known = nonASCII[word] { return known }
        let new = try append(word.utf8)
        nonASCII[word] = new
        return new
    }

    /// The id of the ASCII word `utf8`, interned if new.
    mutating func id(ofASCII utf8: UnsafeBufferPointer<UInt8>) throws(MovieError) -> UInt32 {
        let hash = Self.hash(utf8)
        let (known, slot) = find(utf8, hash: hash)
        if let known { return known }
        let new = try append(utf8)
        slots[slot] = hash & Self.tagMask | UInt64(new + 1)
        if count * 2 > slots.count { grow() }
        return new
    }

    /// Word `id` as text.
    func text(_ id: Int) -> String {
        String(decoding: bytes[Int(starts[id])..<Int(starts[id + 1])], as: UTF8.self)
    }

    /// `body` given word `id`'s bytes.
    func withBytes<Result>(_ id: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        bytes.withUnsafeBufferPointer { all in body(UnsafeBufferPointer(rebasing: all[Int(starts[id])..<Int(starts[id + 1])])) }
    }

    /// The ids in the order of their bytes (the index's vocabulary order: ``SearchCorpus``):
    /// sorted as numbers made of their first 12 bytes (no word holds a 0 byte, so a shorter
    /// word padded with zeros sorts first) above their id, then each run of words sharing those
    /// 12 bytes by all their bytes.
    func sortedOrder() -> [UInt32] {
        bytes.withUnsafeBufferPointer { all in
            starts.withUnsafeBufferPointer { starts in
                func word(_ id: UInt32) -> UnsafeBufferPointer<UInt8> {
                    UnsafeBufferPointer(rebasing: all[Int(starts[Int(id)])..<Int(starts[Int(id) + 1])])
                }
                func prefix(_ key: UInt128) -> UInt128 { key >> 32 }
                var keys = (0..<UInt32(count)).map { id -> UInt128 in
                    var key: UInt128 = 0
                    for (index, byte) in word(id).prefix(12).enumerated() { key |= UInt128(byte) << (120 - 8 * index) }
                    return key | UInt128(id)
                }
                keys.sort()
                var order = keys.map { UInt32(truncatingIfNeeded: $0) }
                var start = 0
                while start < keys.count {
                    var end = start + 1
                    while end < keys.count && prefix(keys[end]) == prefix(keys[start]) { end += 1 }
                    if end - start > 1 { order[start..<end].sort { word($0).lexicographicallyPrecedes(word($1)) } }
                    start = end
                }
                return order
            }
        }
    }

    /// Frees the lookup structures (only ``bytes`` and ``starts`` are read after interning).
    mutating func finishInterning() {
        slots = []
        nonASCII = [:]
    }

    /// The id of the ASCII word `utf8` (whose hash is `hash`) if known, and its slot (where
    /// it is or goes).
    private func find(_ utf8: UnsafeBufferPointer<UInt8>, hash: UInt64) -> (id: UInt32?, slot: Int) {
        let mask = slots.count - 1, tag = hash & Self.tagMask
        var slot = Self.home(of: hash, mask: mask)
        return bytes.withUnsafeBufferPointer { all in
            while slots[slot] != 0 {
                let entry = slots[slot]
                if entry & Self.tagMask == tag {
                    let id = Int(entry & 0xFFFF_FFFF) - 1
                    let start = Int(starts[id]), end = Int(starts[id + 1])
                    if end - start == utf8.count, utf8.isEmpty || memcmp(all.baseAddress! + start, utf8.baseAddress!, utf8.count) == 0 {
                        return (UInt32(id), slot)
                    }
                }
                slot = (slot + 1) & mask
            }
            return (nil, slot)
        }
    }

    /// FNV-1a of `bytes`.
    private static func hash(_ bytes: some Sequence<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
        return hash
    }

    /// The slot a word of `hash` is looked for from (its low half, folded), in a table of
    /// `mask + 1` slots.
    private static func home(of hash: UInt64, mask: Int) -> Int { Int(truncatingIfNeeded: hash ^ (hash >> 29)) & mask }

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
        slots = [UInt64](repeating: 0, count: old.count * 2)
        let mask = slots.count - 1
        for entry in old where entry != 0 {
            let id = Int(entry & 0xFFFF_FFFF) - 1
            var slot = Self.home(of: Self.hash(bytes[Int(starts[id])..<Int(starts[id + 1])]), mask: mask)
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = entry
        }
    }
}
