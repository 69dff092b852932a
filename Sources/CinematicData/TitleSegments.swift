/// Where each title's parts begin: "Outfoxed: Rupert Murdoch's War on Journalism" and
/// "Star Wars: Episode V - The Empire Strikes Back" are typed by their parts as often as
/// whole ("outfoxed", "the empire strikes back"), so a query covering a whole part covers the
/// title (``SearchRanking``). Read from the display titles when the index is built (one pass
/// over their bytes), stored as 4 bytes a title (``SearchCorpus/titleParts``).
enum TitleSegments {
    /// Per title (rank - 1): bit `i` is set when plain word `i` (1...31) begins a part, after
    /// ": " or " - ".
    /// `shownFrom`: per title, where the English name shown beside it begins in its display
    /// title (the byte offset of " (Seven Samurai)"; 0 for none): that name is a part too.
    static func starts(titleBytes: [UInt8], titleStarts: [UInt32], shownFrom: [UInt32] = []) -> [UInt32] {
        var starts = [UInt32](repeating: 0, count: titleStarts.count - 1)
        titleBytes.withUnsafeBufferPointer { bytes in
            for index in starts.indices {
                let low = Int(titleStarts[index]), high = Int(titleStarts[index + 1])
                let shown = index < shownFrom.count && shownFrom[index] > 0 ? low + Int(shownFrom[index]) : -1
                // Most titles have no ":" nor "-" nor a name shown beside: nothing to read word by word.
                guard shown >= 0 || UnsafeBufferPointer(rebasing: bytes[low..<high]).contains(where: { $0 == 0x3A || $0 == 0x2D }) else { continue }
                var mask: UInt32 = 0
                var word = -1, length = 0
                var separated = false
                var position = low
                while position < high {
                    let byte = bytes[position]
                    if Self.isWordByte(byte) {
                        if length == 0 {
                            word += 1
                            if separated && word > 0 && word < 32 { mask |= 1 << UInt32(word) }
                            separated = false
                        }
                        length += 1
                    } else if (byte == 0x27 || byte == 0x60) && length > 1 {
                        // An apostrophe joins ("Schindler's"), except after one letter ("d'une").
                    } else {
                        length = 0
                        if byte == 0x3A || position == shown { separated = true }
                        if byte == 0x2D, position > low, position + 1 < high, bytes[position - 1] == 0x20, bytes[position + 1] == 0x20 {
                            separated = true
                        }
                    }
                    position += 1
                }
                starts[index] = mask
            }
        }
        return starts
    }

    /// A byte of a word as ``SearchText`` reads titles: ASCII letters and digits, and every
    /// byte of a non-ASCII character.
    private static func isWordByte(_ byte: UInt8) -> Bool {
        byte >= 0x80 || (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
    }
}
