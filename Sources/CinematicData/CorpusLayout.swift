import CinematicDomain

/// How the search corpus lies in an index (docs/catalog-index.md, "The search section"): one
/// section after the SQLite database, searched where it lies. A header, a table of parts
/// (offset and length of each array, 8-byte aligned), the arrays; integers little endian.
/// The file ends with a 16-byte trailer: the section's offset in the file and ``trailerMagic``.
///
/// Reading checks only the frame here (magic, version, every part's offset and length within
/// the section, aligned, of its element size and expected count); ``SearchCorpusCheck``
/// checks the contents, in one pass.
enum CorpusLayout {
    /// The section's first 8 bytes.
    static let magic: [UInt8] = Array("CIDXSRCH".utf8)
    /// The file's last 8 bytes.
    static let trailerMagic: [UInt8] = Array("CIDXTAIL".utf8)
    /// The section layout's version (the index format version covers it too).
    static let version: UInt32 = 1
    /// Magic, version, part count, films, words, section length: 32 bytes, then the table.
    static let headerBytes = 32
    static let trailerBytes = 16

    /// The section's arrays, in table order, with their element sizes.
    enum Part: Int, CaseIterable {
        case scalars, scalarStarts, sharedPrefix, flags, postingStarts, postings, topWords
        case titleStarts, titleWords, plainCounts, coreCounts, votes, years, runtimes, ratings
        case ids, idRanks, displayStarts, displayTitles, genreIndexes, genreLists, mpaaIndexes, mpaaValues, titleParts

        /// Its name in messages ("the index is damaged: its ratings ...").
        var name: String {
            switch self {
            case .scalars: "words"
            case .scalarStarts: "word_starts"
            case .sharedPrefix: "shared_prefixes"
            case .flags: "flags"
            case .postingStarts: "posting_starts"
            case .postings: "postings"
            case .topWords: "top_words"
            case .titleStarts: "title_starts"
            case .titleWords: "title_words"
            case .plainCounts: "plain_counts"
            case .coreCounts: "core_counts"
            case .votes: "votes"
            case .years: "years"
            case .runtimes: "runtimes"
            case .ratings: "ratings"
            case .ids: "ids"
            case .idRanks: "id_ranks"
            case .displayStarts: "display_starts"
            case .displayTitles: "display_titles"
            case .genreIndexes: "genre_indexes"
            case .genreLists: "genre_lists"
            case .mpaaIndexes: "mpaa_indexes"
            case .mpaaValues: "mpaa_values"
            case .titleParts: "title_parts"
            }
        }

        /// Bytes per element (`scalars`: 1 or 4, as its length says: ``SearchCorpus``).
        var stride: Int {
            switch self {
            case .scalars, .sharedPrefix, .flags, .displayTitles, .genreLists, .mpaaValues: 1
            case .plainCounts, .coreCounts, .years, .runtimes, .genreIndexes, .mpaaIndexes: 2
            case .ratings: 8
            default: 4
            }
        }

        /// The number of elements it must hold, nil when any (checked against its starts).
        func expectedCount(films: Int, words: Int) -> Int? {
            switch self {
            case .scalarStarts, .postingStarts: words + 1
            case .sharedPrefix, .flags: words
            case .topWords: 2 * PrefixTopWords.leaves(forWords: words)
            case .titleStarts, .displayStarts: films + 1
            case .plainCounts, .coreCounts, .votes, .years, .runtimes, .ratings, .ids, .idRanks, .genreIndexes, .mpaaIndexes,
                 .titleParts: films
            case .scalars, .postings, .titleWords, .displayTitles, .genreLists, .mpaaValues: nil
            }
        }
    }

    /// Where the table ends and the first part may begin.
    static var tableEnd: Int { headerBytes + Part.allCases.count * 16 }

    /// The section of `films` titles and `words` words holding `parts` (one per ``Part``, in
    /// order, as bytes), followed by the file's trailer for a section at `offset` in the file.
    static func section(films: Int, words: Int, parts: [[UInt8]], offset: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        pieces(films: films, words: words, parts: parts, offset: offset) { bytes += $0 }
        return bytes
    }

    /// ``section(films:words:parts:offset:)``'s bytes written to `descriptor` (open on `path`)
    /// part by part, never gathered in one buffer.
    static func write(films: Int, words: Int, parts: [[UInt8]], offset: Int, to descriptor: Int32, path: String) throws(MovieError) {
        try pieces(films: films, words: words, parts: parts, offset: offset) { bytes throws(MovieError) in
            if let code = bytes.withUnsafeBytes({ FileIO.writeAll(descriptor, $0, path: path) }) {
                throw .storage("cannot write the catalog index \(path): \(FileIO.message(code))")
            }
        }
    }

    /// The section's bytes in order, handed to `emit` piece by piece: the header, each part
    /// and its padding, the trailer.
    private static func pieces<Failure: Error>(films: Int, words: Int, parts: [[UInt8]], offset: Int,
                                               _ emit: ([UInt8]) throws(Failure) -> Void) throws(Failure) {
        try emit(header(films: films, words: words, lengths: parts.map(\.count)))
        for part in parts {
            try emit(part)
            try emit([UInt8](repeating: 0, count: padding(after: part.count)))
        }
        try emit(trailer(offset: offset))
    }

    /// The zeros after a part of `count` bytes, up to the next 8-byte boundary.
    private static func padding(after count: Int) -> Int { (8 - count % 8) % 8 }

    /// The header and table of parts of the given byte `lengths`, each placed 8-byte aligned
    /// after the table (which ends 8-byte aligned: ``tableEnd``).
    private static func header(films: Int, words: Int, lengths: [Int]) -> [UInt8] {
        var table: [(Int, Int)] = []
        var position = tableEnd
        for length in lengths {
            table.append((position, length))
            position += length + padding(after: length)
        }
        var bytes = magic
        append(UInt32(version), to: &bytes)
        append(UInt32(lengths.count), to: &bytes)
        append(UInt32(films), to: &bytes)
        append(UInt32(words), to: &bytes)
        append(UInt64(position), to: &bytes)
        for (start, count) in table { append(UInt64(start), to: &bytes); append(UInt64(count), to: &bytes) }
        return bytes
    }

    /// The file's trailer for a section at `offset`.
    private static func trailer(offset: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        append(UInt64(offset), to: &bytes)
        return bytes + trailerMagic
    }

    /// Where the section lies in a whole index file's bytes (from its trailer): the SQLite
    /// database before it, the section itself. `.storage` when the trailer is missing or
    /// points outside the file.
    static func split(_ file: UnsafeRawBufferPointer) throws(MovieError) -> (database: UnsafeRawBufferPointer, section: UnsafeRawBufferPointer) {
        guard file.count >= trailerBytes + headerBytes,
              file[(file.count - 8)...].elementsEqual(trailerMagic) else {
            throw .storage("the index is damaged: it has no search section (its end is not an index's)")
        }
        let offset = load(UInt64.self, file, at: file.count - trailerBytes)
        guard offset >= 512, offset <= UInt64(file.count - trailerBytes - headerBytes), offset % 8 == 0 else {
            throw .storage("the index is damaged: its search section's offset \(offset) is outside the file")
        }
        let start = Int(offset)
        return (UnsafeRawBufferPointer(rebasing: file[..<start]),
                UnsafeRawBufferPointer(rebasing: file[start..<(file.count - trailerBytes)]))
    }

    /// The section's films, words and parts, each bound-checked (see the type's description).
    static func parts(of section: UnsafeRawBufferPointer) throws(MovieError) -> (films: Int, words: Int, parts: [UnsafeRawBufferPointer]) {
        func fail(_ what: String) -> MovieError { .storage("the index is damaged: its search section \(what)") }
        guard section.count >= tableEnd, section[..<8].elementsEqual(magic) else { throw fail("does not start as one") }
        guard let base = section.baseAddress, Int(bitPattern: base) % 8 == 0 else { throw fail("is not aligned") }
        let version = load(UInt32.self, section, at: 8), count = load(UInt32.self, section, at: 12)
        guard version == Self.version, count == UInt32(Part.allCases.count) else {
            throw fail("has layout \(version) with \(count) parts; this library reads layout \(Self.version) with \(Part.allCases.count)")
        }
        let films = Int(load(UInt32.self, section, at: 16)), words = Int(load(UInt32.self, section, at: 20))
        guard load(UInt64.self, section, at: 24) == UInt64(section.count) else { throw fail("is not as long as it says") }
        guard films < Int(UInt32.max), words < Int(UInt32.max) else { throw fail("holds too many films or words") }
        var parts: [UnsafeRawBufferPointer] = []
        for part in Part.allCases {
            let entry = headerBytes + part.rawValue * 16
            let start = load(UInt64.self, section, at: entry), length = load(UInt64.self, section, at: entry + 8)
            guard start >= UInt64(tableEnd), start % 8 == 0, start <= UInt64(section.count),
                  length <= UInt64(section.count) - start else { throw fail("places its \(part.name) outside it") }
            guard length % UInt64(part.stride) == 0 else { throw fail("holds a partial element of its \(part.name)") }
            let elements = Int(length) / part.stride
            if let expected = part.expectedCount(films: films, words: words), elements != expected {
                throw .storage("the index is damaged: its \(part.name) has \(elements) entries for \(expected)")
            }
            parts.append(UnsafeRawBufferPointer(rebasing: section[Int(start)..<Int(start + length)]))
        }
        return (films, words, parts)
    }

    /// A little-endian integer at `offset` of `bytes` (in range: checked by the caller).
    static func load<T: FixedWidthInteger>(_ type: T.Type, _ bytes: UnsafeRawBufferPointer, at offset: Int) -> T {
        T(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: T.self))
    }

    private static func append<T: FixedWidthInteger>(_ value: T, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
    }

    /// An array's bytes as stored (the machine's order: little endian on every supported host).
    static func bytes<T: BitwiseCopyable>(_ values: [T]) -> [UInt8] {
        values.withUnsafeBytes { Array($0) }
    }
}
