// Edits of an index's search section for the index fuzz target, from the layout
// docs/catalog-index.md describes ("The search section"): a 32-byte header (magic, version,
// part count, films, words, section length), a table of (offset, length) per part, the parts
// 8-byte aligned, and the file's 16-byte trailer (the section's offset, "CIDXTAIL").
#if FUZZING
enum IndexSection {
    static let header = 32

    /// The section's offset in `file` (from its trailer).
    static func start(_ file: [UInt8]) -> Int { Int(load(file, at: file.count - 16)) }

    /// `file` with part `part` of its section replaced by `bytes`, the section laid out again
    /// (every offset and length right): what reading must check value by value.
    static func replacing(part: Int, with bytes: [UInt8], in file: [UInt8]) -> [UInt8] {
        let section = start(file), count = Int(load(file, at: section + 12) & 0xFFFF_FFFF)
        var parts: [[UInt8]] = []
        for index in 0..<count {
            let entry = section + header + 16 * index
            let offset = section + Int(load(file, at: entry)), length = Int(load(file, at: entry + 8))
            parts.append(index == part ? bytes : Array(file[offset..<(offset + length)]))
        }
        var out = Array(file[..<(section + header)])
        var position = header + 16 * count
        var table: [UInt8] = []
        for bytes in parts {
            table += le(UInt64(position)) + le(UInt64(bytes.count))
            position = (position + bytes.count + 7) & ~7
        }
        out += table
        for bytes in parts {
            out += bytes
            out += [UInt8](repeating: 0, count: (8 - (out.count - section) % 8) % 8)
        }
        out.replaceSubrange((section + 24)..<(section + 32), with: le(UInt64(out.count - section)))
        return out + le(UInt64(section)) + Array("CIDXTAIL".utf8)
    }

    /// `file` with bytes of part `part` flipped: each 3 bytes of `edits` are an offset (16
    /// bits, modulo the part's length) and a mask.
    static func flipping(part: Int, _ edits: [UInt8], in file: [UInt8]) -> [UInt8] {
        var out = file
        let section = start(file), entry = section + header + 16 * part
        let offset = section + Int(load(file, at: entry)), length = Int(load(file, at: entry + 8))
        guard length > 0 else { return out }
        for index in stride(from: 0, to: edits.count - 2, by: 3) {
            out[offset + (Int(edits[index]) << 8 | Int(edits[index + 1])) % length] ^= edits[index + 2]
        }
        return out
    }

    /// `file` with 64-bit words of its section's frame replaced: each 9 bytes of `edits` are a
    /// position (a word of the header and table, or the trailer's offset) and a value.
    static func reframing(_ edits: [UInt8], in file: [UInt8]) -> [UInt8] {
        var out = file
        let section = start(file), count = Int(load(file, at: section + 12) & 0xFFFF_FFFF)
        let words = (header + 16 * count) / 8
        for index in stride(from: 0, to: edits.count - 8, by: 9) {
            let word = Int(edits[index]) % (words + 1)
            let at = word == words ? file.count - 16 : section + 8 * word
            out.replaceSubrange(at..<(at + 8), with: edits[(index + 1)...(index + 8)])
        }
        return out
    }

    private static func load(_ bytes: [UInt8], at offset: Int) -> UInt64 {
        (0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[offset + $1]) << (8 * UInt64($1)) }
    }

    private static func le(_ value: UInt64) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) } }
}
#endif
