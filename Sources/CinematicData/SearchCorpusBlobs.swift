import CinematicDomain

/// How a ``SearchCorpus`` is stored in an index file: one blob per array in the `blobs`
/// table (name, data), integers in the machine's byte order (x86-64 and arm64: little
/// endian; the format version says so), strings as UTF-8, each ended by a newline (no
/// string holds one: words, genre lists and ratings come from single lines).
enum SearchCorpusBlobs {
    /// Writes every array of `corpus` into `connection`'s `blobs` table.
    static func write(_ corpus: SearchCorpus, into connection: SQLiteConnection) throws(MovieError) {
        try connection.execute("CREATE TABLE blobs (name TEXT PRIMARY KEY, data BLOB NOT NULL) WITHOUT ROWID")
        let insert = try connection.prepare("INSERT INTO blobs (name, data) VALUES (?1, ?2)", persistent: false)
        defer { insert.finalize() }
        let display = corpus.display
        let entries: [(String, [UInt8])] = [
            ("words", joined(corpus.words)), ("postings", bytes(corpus.postings)),
            ("posting_starts", bytes(corpus.postingStarts)), ("flags", corpus.flags),
            ("title_words", bytes(corpus.titleWords)), ("title_starts", bytes(corpus.titleStarts)),
            ("plain_counts", bytes(corpus.plainCounts)), ("core_counts", bytes(corpus.coreCounts)),
            ("votes", bytes(corpus.votes)), ("years", bytes(corpus.years)),
            ("display_titles", display.titleBytes), ("display_starts", bytes(display.titleStarts)),
            ("ids", bytes(display.ids)), ("runtimes", bytes(display.runtimes)), ("ratings", bytes(display.ratings)),
            ("genre_indexes", bytes(display.genreIndexes)), ("genre_lists", joined(display.genreLists)),
            ("mpaa_indexes", bytes(display.mpaaIndexes)), ("mpaa_values", joined(display.mpaaValues)),
        ]
        for (name, data) in entries { try insert.run([.text(name), .blob(data)]) }
    }

    /// Reads the corpus back; throws `.storage` when a blob is missing or inconsistent.
    static func read(from connection: SQLiteConnection) throws(MovieError) -> SearchCorpus {
        let select = try connection.prepare("SELECT data FROM blobs WHERE name = ?1", persistent: false)
        defer { select.finalize() }
        func blob<T: BitwiseCopyable>(_ name: String, as: T.Type) throws(MovieError) -> [T] {
            try select.bind([.text(name)])
            defer { select.reset() }
            guard try select.step() else { throw .storage("the index has no \(name)") }
            return try select.withBlob(0) { raw throws(MovieError) -> [T] in
                guard raw.count % MemoryLayout<T>.stride == 0 else { throw .storage("the index's \(name) is damaged") }
                return [T](unsafeUninitializedCapacity: raw.count / MemoryLayout<T>.stride) { buffer, count in
                    if raw.count > 0 { UnsafeMutableRawBufferPointer(buffer).copyMemory(from: raw) }
                    count = raw.count / MemoryLayout<T>.stride
                }
            }
        }
        func strings(_ name: String) throws(MovieError) -> [String] {
            let data = try blob(name, as: UInt8.self)
            guard data.isEmpty || data.last == UInt8(ascii: "\n") else { throw .storage("the index's \(name) is damaged") }
            return data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).dropLast()
                .map { String(decoding: $0, as: UTF8.self) }
        }
        let words = try strings("words")
        let postingStarts = try blob("posting_starts", as: UInt32.self)
        let postings = try blob("postings", as: UInt32.self)
        let titleStarts = try blob("title_starts", as: UInt32.self)
        let titleWords = try blob("title_words", as: UInt32.self)
        let votes = try blob("votes", as: UInt32.self)
        let display = MovieRows(
            titleBytes: try blob("display_titles", as: UInt8.self), titleStarts: try blob("display_starts", as: UInt32.self),
            ids: try blob("ids", as: UInt32.self), years: try blob("years", as: UInt16.self),
            runtimes: try blob("runtimes", as: UInt16.self), ratings: try blob("ratings", as: Double.self), votes: votes,
            genreIndexes: try blob("genre_indexes", as: UInt16.self), genreLists: try strings("genre_lists"),
            mpaaIndexes: try blob("mpaa_indexes", as: UInt16.self), mpaaValues: try strings("mpaa_values"))
        let flags = try blob("flags", as: UInt8.self), plainCounts = try blob("plain_counts", as: UInt16.self)
        let coreCounts = try blob("core_counts", as: UInt16.self), years = try blob("years", as: UInt16.self)
        // Every value is checked once here, where it enters: a damaged or crafted file fails
        // to open, naming the field, instead of trapping in a search or an encoder.
        try SearchCorpusCheck(films: votes.count).check(
            words: words, postings: postings, postingStarts: postingStarts, flags: flags, titleWords: titleWords,
            titleStarts: titleStarts, plainCounts: plainCounts, coreCounts: coreCounts, years: years, display: display)
        return SearchCorpus(words: words, postings: postings, postingStarts: postingStarts, flags: flags,
                            titleWords: titleWords, titleStarts: titleStarts, plainCounts: plainCounts,
                            coreCounts: coreCounts, votes: votes, years: years, display: display)
    }

    private static func bytes<T: BitwiseCopyable>(_ values: [T]) -> [UInt8] {
        values.withUnsafeBytes { Array($0) }
    }

    private static func joined(_ strings: [String]) -> [UInt8] {
        var bytes: [UInt8] = []
        for string in strings { bytes += string.utf8; bytes.append(UInt8(ascii: "\n")) }
        return bytes
    }
}
