import CinematicDomain

/// A search section's parts before they are laid out (``CorpusLayout``).
struct CorpusParts {
    let films: Int
    let words: Int
    /// One per ``CorpusLayout/Part``, in order.
    let parts: [[UInt8]]

    /// The parts of a vocabulary (`words`: distinct, sorted by bytes, with their postings and
    /// flags) and of `films` titles (`parts`: every other part).
    init(words: [String], postings: [UInt32], postingStarts: [UInt32], flags: [UInt8], films: Int,
         parts other: [CorpusLayout.Part: [UInt8]]) throws(MovieError) {
        var table = WordTable()
        for word in words { _ = try table.id(of: word) }
        self.init(table: table, order: Array(0..<UInt32(table.count)), postings: postings, postingStarts: postingStarts,
                  flags: flags, films: films, parts: other)
    }

    /// The parts of the vocabulary of `table` in the order `order` (ids, sorted by their bytes),
    /// with their postings and flags, and of `films` titles (`parts`: every other part).
    init(table: WordTable, order: [UInt32], postings: [UInt32], postingStarts: [UInt32], flags: [UInt8], films: Int,
         parts other: [CorpusLayout.Part: [UInt8]]) {
        var all = other
        // One byte a scalar when every scalar fits (the shipped vocabulary is folded to ASCII).
        var starts: [UInt32] = [0]
        starts.reserveCapacity(order.count + 1)
        if table.bytes.allSatisfy({ $0 < 0x80 }) {
            var scalars: [UInt8] = []
            scalars.reserveCapacity(table.bytes.count)
            for id in order {
                scalars += table.bytes[Int(table.starts[Int(id)])..<Int(table.starts[Int(id) + 1])]
                starts.append(UInt32(scalars.count))
            }
            Self.vocabulary(scalars, starts, into: &all)
        } else {
            var scalars: [UInt32] = []
            for id in order {
                for scalar in table.text(Int(id)).unicodeScalars { scalars.append(scalar.value) }
                starts.append(UInt32(scalars.count))
            }
            if scalars.allSatisfy({ $0 < 256 }) {
                Self.vocabulary(scalars.map { UInt8($0) }, starts, into: &all)
            } else {
                Self.vocabulary(scalars, starts, into: &all)
            }
        }
        var frequencies = [UInt32](repeating: 0, count: order.count)
        for index in frequencies.indices { frequencies[index] = postingStarts[index + 1] - postingStarts[index] }
        all[.flags] = flags
        all[.postingStarts] = CorpusLayout.bytes(postingStarts)
        all[.postings] = CorpusLayout.bytes(postings)
        all[.topWords] = CorpusLayout.bytes(PrefixTopWords.tree(frequencies: frequencies))
        self.films = films
        self.words = order.count
        parts = CorpusLayout.Part.allCases.map { all[$0] ?? [] }
    }

    /// The scalars part (every word's scalars in order, one element each), their `starts`
    /// and the prefix each word shares with the next (at most 255).
    private static func vocabulary<Scalar: FixedWidthInteger & BitwiseCopyable>(
        _ scalars: [Scalar], _ starts: [UInt32], into all: inout [CorpusLayout.Part: [UInt8]]
    ) {
        let words = starts.count - 1
        var shared = [UInt8](repeating: 0, count: words)
        for index in 0..<max(0, words - 1) {
            let a = Int(starts[index]), b = Int(starts[index + 1]), end = Int(starts[index + 2])
            var length = 0
            while length < 255, a + length < b, b + length < end, scalars[a + length] == scalars[b + length] { length += 1 }
            shared[index] = UInt8(length)
        }
        all[.scalars] = CorpusLayout.bytes(scalars)
        all[.scalarStarts] = CorpusLayout.bytes(starts)
        all[.sharedPrefix] = shared
    }

    /// The section, laid out to start at `offset` of its file, with the file's trailer.
    func section(offset: Int) -> [UInt8] {
        CorpusLayout.section(films: films, words: words, parts: parts, offset: offset)
    }

    /// Writes the section, laid out to start at `offset` of its file, with the file's trailer,
    /// to `descriptor` (open on `path`), part by part.
    func write(to descriptor: Int32, path: String, offset: Int) throws(MovieError) {
        try CorpusLayout.write(films: films, words: words, parts: parts, offset: offset, to: descriptor, path: path)
    }

    /// The corpus over these parts, in a private buffer (an index built in memory).
    func corpus() throws(MovieError) -> SearchCorpus {
        let bytes = section(offset: 0)
        let storage = bytes.withUnsafeBytes { IndexBytes(copying: $0) }
        let section = UnsafeRawBufferPointer(rebasing: storage.bytes[..<(bytes.count - CorpusLayout.trailerBytes)])
        return try SearchCorpus(storage: storage, section: section, checking: false)
    }
}
