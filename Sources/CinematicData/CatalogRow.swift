import CinematicDomain

/// One line of data/ggplot2movies.tsv.gz (see data/README.md for the columns), validated
/// where it enters: every field bounded, every number finite and in range, text valid UTF-8
/// (the bounds are documented in include/cinematic/catalog_index.h, next to cinematic_catalog_build_index).
package struct CatalogRow {
    /// The film's id (the file's `id` column).
    package let id: Int
    /// The title as the movie file spells it ("Matrix Reloaded, The"), which search words come from.
    package let catalogTitle: String
    /// Release year.
    package let year: Int
    /// Minutes (the file's `length` column).
    package let runtime: Int
    /// Budget in dollars, when known.
    package let budget: Int?
    /// Mean rating, 0...10.
    package let rating: Double
    /// Number of votes.
    package let votes: Int
    /// `r1`...`r10`: the share of votes per rating.
    package let distribution: [Double]
    /// MPAA rating, when known.
    package let mpaa: String?
    /// Genre names.
    package let genres: [String]
    /// Other names people use for the film (``AlternateTitles``), searched as forms of its title.
    package var alternateTitles: [String] = []
    /// The one of them shown beside the stored title ("Shichinin no samurai (Seven Samurai)").
    package var shownTitle: String?

    /// The expected header line's columns.
    package static let columns = ["id", "title", "year", "length", "budget", "rating", "votes",
                          "r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9", "r10", "mpaa", "genres"]

    /// The most a line's fields may hold, so the work and memory a line costs is bounded
    /// whatever the file holds (a search query is bounded the same way).
    enum Bounds {
        /// A title: at most 1024 characters and 4096 UTF-8 bytes (the longest shipped title has 121).
        static let titleCharacters = 1024, titleBytes = 4096
        /// Any other field: at most 4096 bytes before it is read further.
        static let fieldBytes = 4096
        /// The MPAA rating ("PG-13"): at most 32 bytes.
        static let mpaaBytes = 32
        /// Genres: at most 32 names of 1 to 64 bytes each.
        static let genres = 32, genreBytes = 64
        /// The title's bounds, as messages say them.
        static let titleText = "at most 1024 characters and 4096 UTF-8 bytes"
    }

    /// Parses the whole TSV (header first): ``scan(_:_:)``'s rows.
    static func parseAll(_ bytes: [UInt8]) throws(MovieError) -> [CatalogRow] {
        var rows: [CatalogRow] = []
        rows.reserveCapacity(60_000)
        try scan(bytes) { row, _ throws(MovieError) in rows.append(row) }
        return rows
    }

    /// Reads the whole TSV (header first), giving each film's row and its line's bytes (no
    /// line ending) to `each`, in file order. Throws `.storage` naming the line and what is
    /// wrong with it rather than guessing (a malformed or out-of-range field, a repeated id);
    /// blank lines are skipped (but counted). Linear in the size of `bytes`.
    static func scan(_ bytes: [UInt8], _ each: (CatalogRow, Range<Int>) throws(MovieError) -> Void) throws(MovieError) {
        try scan(bytes, reading: { (line, alternates, number) throws(MovieError) in
            var row = try read(line, number: number)
            if let alternates { try AlternateTitles.attach(alternates, to: &row, line: number) }
            return row
        }, id: \.id, each)
    }

    /// ``scan(_:_:)`` giving each film's id and votes only (every line checked the same way,
    /// a valid ASCII line without building its row: ``validASCIIKey(_:)``).
    static func scanKeys(_ bytes: [UInt8], _ each: ((id: Int, votes: Int), Range<Int>) throws(MovieError) -> Void) throws(MovieError) {
        try scan(bytes, reading: { (line, alternates, number) throws(MovieError) in
            // The alternate titles are checked now, so a fault names its line.
            if let alternates { _ = try AlternateTitles.names(alternates, line: number) }
            if let key = validASCIIKey(line) { return key }
            let row = try read(line, number: number)
            return (row.id, row.votes)
        }, id: \.id, each)
    }

    private static func scan<Line>(_ bytes: [UInt8], reading: (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>?, Int) throws(MovieError) -> Line,
                                   id: (Line) -> Int,
                                   _ each: (Line, Range<Int>) throws(MovieError) -> Void) throws(MovieError) {
        let header = Array(columns.joined(separator: "\t").utf8)
        let extendedHeader = header + Array("\t\(AlternateTitles.column)".utf8)
        var extended = false
        try bytes.withUnsafeBufferPointer { (text) throws(MovieError) in
            var lineNumber = 0, start = 0
            var sawHeader = false
            var lines: [UInt32: UInt32] = [:]   // id → its line
            while start <= text.count {
                var end = start
                while end < text.count && text[end] != UInt8(ascii: "\n") { end += 1 }
                var line = start..<end
                start = end + 1
                lineNumber += 1
                if line.last.map({ text[$0] }) == UInt8(ascii: "\r") { line = line.dropLast() }
                if line.isEmpty { continue }
                if !sawHeader {
                    extended = text[line].elementsEqual(extendedHeader)
                    guard extended || text[line].elementsEqual(header) else {
                        throw .storage("line \(lineNumber): the header must be the \(columns.count) tab-separated columns \(columns.joined(separator: " ")), "
                                       + "optionally followed by \(AlternateTitles.column)")
                    }
                    sawHeader = true
                    continue
                }
                // A file with alternate titles: the films' fields, then that last column
                // (read by `reading` from the byte after the fields, AlternateTitles.field).
                var alternates: UnsafeBufferPointer<UInt8>?
                if extended {
                    guard let tab = text[line].lastIndex(of: UInt8(ascii: "\t")) else {
                        throw .storage("line \(lineNumber): expected \(columns.count + 1) tab-separated columns, found 1")
                    }
                    alternates = UnsafeBufferPointer(rebasing: text[(tab + 1)..<line.upperBound])
                    line = line.lowerBound..<tab
                }
                let read = try reading(UnsafeBufferPointer(rebasing: text[line]), alternates, lineNumber)
                if let first = lines.updateValue(UInt32(truncatingIfNeeded: lineNumber), forKey: UInt32(id(read))) {
                    throw .storage("line \(lineNumber): id \(id(read)) is already the film of line \(first)")
                }
                try each(read, line)
            }
            guard sawHeader else { throw .storage("line 1: no header line (the file is empty)") }
        }
    }

    /// The row of line `range` of `text`, which ``scan(_:_:)`` read (so valid).
    static func parse(_ text: [UInt8], line range: Range<Int>) throws(MovieError) -> CatalogRow {
        try text.withUnsafeBufferPointer { (text) throws(MovieError) in
            var row = try CatalogRow.read(UnsafeBufferPointer(rebasing: text[range]), number: 0)
            // A line of a file with alternate titles: they follow its fields (``scan``).
            if range.upperBound < text.count, text[range.upperBound] == UInt8(ascii: "\t") {
                var end = range.upperBound + 1
                while end < text.count && text[end] != UInt8(ascii: "\n") { end += 1 }
                if end > range.upperBound + 1 && text[end - 1] == UInt8(ascii: "\r") { end -= 1 }
                try AlternateTitles.attach(UnsafeBufferPointer(rebasing: text[(range.upperBound + 1)..<end]), to: &row, line: 0)
            }
            return row
        }
    }

    /// A film titled `catalogTitle` with `id`, and every other field of `shape` (how the
    /// benchmark's synthetic catalog makes its films).
    package init(id: Int, catalogTitle: String, like shape: CatalogRow) {
        self.id = id
        self.catalogTitle = catalogTitle
        year = shape.year
        runtime = shape.runtime
        budget = shape.budget
        rating = shape.rating
        votes = shape.votes
        distribution = shape.distribution
        mpaa = shape.mpaa
        genres = shape.genres
    }

    /// The row of `line` (no line ending), read where it lies; `.storage` naming line `number`
    /// and its first fault. A valid ASCII line (most are) is read in one pass
    /// (``init(validASCII:)``); any other line, or one with a fault, by ``init(checking:number:)``.
    static func read(_ line: UnsafeBufferPointer<UInt8>, number: Int) throws(MovieError) -> CatalogRow {
        if let row = CatalogRow(validASCII: line) { return row }
        return try CatalogRow(checking: line, number: number)
    }

    /// A row of the fields read (``init(validASCII:)``).
    init(id: Int, catalogTitle: String, year: Int, runtime: Int, budget: Int?, rating: Double, votes: Int,
         distribution: [Double], mpaa: String?, genres: [String]) {
        self.id = id
        self.catalogTitle = catalogTitle
        self.year = year
        self.runtime = runtime
        self.budget = budget
        self.rating = rating
        self.votes = votes
        self.distribution = distribution
        self.mpaa = mpaa
        self.genres = genres
    }

    /// The row of `line`, read where it lies: its 19 tab-separated fields are first each
    /// checked against their byte bound and for valid UTF-8, then read in column order; the
    /// first fault found is thrown, naming line `number`.
    init(checking line: UnsafeBufferPointer<UInt8>, number lineNumber: Int) throws(MovieError) {
        func fail(_ what: String) -> MovieError { .storage("line \(lineNumber): \(what)") }
        // One pass over the line: its tabs found (the ends of its fields) and whether it is ASCII.
        var fields = Fields(line: line)
        guard fields.count == Self.columns.count else { throw fail("expected \(Self.columns.count) tab-separated columns, found \(fields.count)") }
        var title: String?
        for column in Self.columns.indices {
            let raw = fields[column]
            let name = column == 1 ? "the title" : Self.columns[column]
            guard column != 1 || raw.count <= Bounds.titleBytes else { throw fail("the title is \(raw.count) UTF-8 bytes long; \(Bounds.titleText)") }
            guard raw.count <= Bounds.fieldBytes else { throw fail("\(name) is \(raw.count) bytes long; at most \(Bounds.fieldBytes)") }
            if fields.isASCII || raw.isASCII { continue }
            guard let text = String(validating: raw, as: UTF8.self) else { throw fail("\(name) is not valid UTF-8") }
            if column == 1 { title = text }
        }
        func quoted(_ column: Int, _ raw: UnsafeBufferPointer<UInt8>) -> String {
            "\(Self.columns[column]) \"\(String(decoding: raw, as: UTF8.self).prefix(40))\""
        }
        func integer(_ column: Int, _ raw: UnsafeBufferPointer<UInt8>, in range: ClosedRange<Int>, _ what: String) throws(MovieError) -> Int {
            guard let value = DecimalText.integer(raw), range.contains(value) else { throw fail("\(quoted(column, raw)) is not \(what)") }
            return value
        }
        func number(_ column: Int, _ raw: UnsafeBufferPointer<UInt8>, in range: ClosedRange<Double>, _ what: String) throws(MovieError) -> Double {
            guard let value = DecimalText.number(raw), value.isFinite, range.contains(value) else {
                throw fail("\(quoted(column, raw)) is not a number in \(what)")
            }
            return value
        }
        id = try integer(0, fields.next(), in: 0...Int(UInt32.max), "an integer in 0...4294967295")
        let rawTitle = fields.next()
        let text = title ?? String(decoding: rawTitle, as: UTF8.self)
        let characters = title == nil ? rawTitle.count : text.count   // ASCII: a Character per byte ("\r\n" ends a line)
        guard characters > 0 else { throw fail("the title is empty") }
        guard characters <= Bounds.titleCharacters else { throw fail("the title is \(characters) characters long; \(Bounds.titleText)") }
        catalogTitle = text
        year = try integer(2, fields.next(), in: 0...9999, "a year in 0...9999")
        runtime = try integer(3, fields.next(), in: 0...65535, "a number of minutes in 0...65535")
        let rawBudget = fields.next()
        budget = rawBudget.isEmpty || rawBudget.elementsEqual("NA".utf8) ? nil
            : try integer(4, rawBudget, in: 0...Int.max, "an integer in 0...\(Int.max) (or empty, or NA)")
        rating = try number(5, fields.next(), in: 0...10, "0...10")
        votes = try integer(6, fields.next(), in: 0...Int(UInt32.max), "an integer in 0...4294967295")
        var distribution: [Double] = []
        distribution.reserveCapacity(10)
        for column in 7...16 { distribution.append(try number(column, fields.next(), in: 0...100, "0...100")) }
        self.distribution = distribution
        let mpaa = fields.next()
        guard mpaa.count <= Bounds.mpaaBytes else { throw fail("mpaa is \(mpaa.count) bytes long; at most \(Bounds.mpaaBytes)") }
        self.mpaa = mpaa.isEmpty ? nil : String(decoding: mpaa, as: UTF8.self)
        // Split as Characters (a comma with a combining mark is no separator): bytes when ASCII.
        let rawGenres = fields.next()
        let genres = rawGenres.isASCII
            ? rawGenres.split(separator: UInt8(ascii: ",")).map { String(decoding: $0, as: UTF8.self) }
            : String(decoding: rawGenres, as: UTF8.self).split(separator: ",").map(String.init)
        guard genres.count <= Bounds.genres else { throw fail("\(genres.count) genres; at most \(Bounds.genres)") }
        for genre in genres where genre.utf8.count > Bounds.genreBytes {
            throw fail("a genre is \(genre.utf8.count) bytes long; at most \(Bounds.genreBytes)")
        }
        self.genres = genres
    }
}

/// A line's tab-separated fields where they lie, found in one pass.
private struct Fields {
    let line: UnsafeBufferPointer<UInt8>
    /// How many fields the line has (tabs + 1).
    private(set) var count = 1
    /// Whether every byte of the line is ASCII.
    let isASCII: Bool
    /// Where each of the first 19 fields ends (its tab, or the line's end).
    private var ends = InlineArray<19, Int>(repeating: 0)
    /// The next field ``next()`` gives.
    private var column = 0

    init(line: UnsafeBufferPointer<UInt8>) {
        self.line = line
        var any: UInt8 = 0
        for index in line.indices {
            let byte = line[index]
            any |= byte
            if byte == UInt8(ascii: "\t") {
                if count <= 19 { ends[count - 1] = index }
                count += 1
            }
        }
        if count <= 19 { ends[count - 1] = line.count }
        isASCII = any < 0x80
    }

    /// Field `column` (in 0..<19, and the line has that many).
    subscript(column: Int) -> UnsafeBufferPointer<UInt8> {
        let start = column == 0 ? 0 : ends[column - 1] + 1
        return UnsafeBufferPointer(rebasing: line[start..<ends[column]])
    }

    /// The next field, in column order.
    mutating func next() -> UnsafeBufferPointer<UInt8> {
        defer { column += 1 }
        return self[column]
    }
}
