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
        var lineNumber = 0, start = 0
        var sawHeader = false
        var lines: [UInt32: UInt32] = [:]   // id → its line
        while start <= bytes.count {
            let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
            var line = bytes[start..<end]
            start = end + 1
            lineNumber += 1
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            if line.isEmpty { continue }
            if !sawHeader {
                guard (try? fields(of: line, line: lineNumber)) == columns else {
                    throw .storage("line \(lineNumber): the header must be the \(columns.count) tab-separated columns \(columns.joined(separator: " "))")
                }
                sawHeader = true
                continue
            }
            let row = try CatalogRow(fields: fields(of: line, line: lineNumber), line: lineNumber)
            if let first = lines.updateValue(UInt32(truncatingIfNeeded: lineNumber), forKey: UInt32(row.id)) {
                throw .storage("line \(lineNumber): id \(row.id) is already the film of line \(first)")
            }
            try each(row, line.indices)
        }
        guard sawHeader else { throw .storage("line 1: no header line (the file is empty)") }
    }

    /// The row of a film's line that ``scan(_:_:)`` read (so valid).
    static func parse(line: ArraySlice<UInt8>) throws(MovieError) -> CatalogRow {
        try CatalogRow(fields: fields(of: line, line: 0), line: 0)
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

    /// The 19 tab-separated fields of `line` as text: a line with another number of columns,
    /// a field over its byte bound or not valid UTF-8 is refused naming the line.
    private static func fields(of line: ArraySlice<UInt8>, line number: Int) throws(MovieError) -> [String] {
        func fail(_ what: String) -> MovieError { .storage("line \(number): \(what)") }
        // One pass over the line's bytes where they lie: its columns counted, then each field
        // checked and decoded in turn.
        let read: Result<[String], MovieError> = line.withUnsafeBufferPointer { bytes in
            let tab = UInt8(ascii: "\t")
            var count = 1
            for byte in bytes where byte == tab { count += 1 }
            guard count == columns.count else { return .failure(fail("expected \(columns.count) tab-separated columns, found \(count)")) }
            var fields: [String] = []
            fields.reserveCapacity(count)
            var start = 0
            for column in 0..<count {
                var end = start
                while end < bytes.count && bytes[end] != tab { end += 1 }
                let raw = UnsafeBufferPointer(rebasing: bytes[start..<end])
                start = end + 1
                let name = column == 1 ? "the title" : columns[column]
                guard column != 1 || raw.count <= Bounds.titleBytes else {
                    return .failure(fail("the title is \(raw.count) UTF-8 bytes long; \(Bounds.titleText)"))
                }
                guard raw.count <= Bounds.fieldBytes else { return .failure(fail("\(name) is \(raw.count) bytes long; at most \(Bounds.fieldBytes)")) }
                // ASCII is valid UTF-8: decoded directly (most fields), anything else validated.
                if raw.allSatisfy({ $0 < 0x80 }) {
                    fields.append(String(decoding: raw, as: UTF8.self))
                } else if let text = String(validating: raw, as: UTF8.self) {
                    fields.append(text)
                } else {
                    return .failure(fail("\(name) is not valid UTF-8"))
                }
            }
            return .success(fields)
        }
        return try read.get()
    }

    private init(fields: [String], line: Int) throws(MovieError) {
        func fail(_ what: String) -> MovieError { .storage("line \(line): \(what)") }
        func quoted(_ column: Int) -> String { "\(Self.columns[column]) \"\(fields[column].prefix(40))\"" }
        func integer(_ column: Int, in range: ClosedRange<Int>, _ what: String) throws(MovieError) -> Int {
            guard let value = Int(fields[column]), range.contains(value) else { throw fail("\(quoted(column)) is not \(what)") }
            return value
        }
        func number(_ column: Int, in range: ClosedRange<Double>, _ what: String) throws(MovieError) -> Double {
            guard let value = Double(fields[column]), value.isFinite, range.contains(value) else {
                throw fail("\(quoted(column)) is not a number in \(what)")
            }
            return value
        }
        id = try integer(0, in: 0...Int(UInt32.max), "an integer in 0...4294967295")
        let title = fields[1], characters = title.count
        guard characters > 0 else { throw fail("the title is empty") }
        guard characters <= Bounds.titleCharacters else { throw fail("the title is \(characters) characters long; \(Bounds.titleText)") }
        catalogTitle = title
        year = try integer(2, in: 0...9999, "a year in 0...9999")
        runtime = try integer(3, in: 0...65535, "a number of minutes in 0...65535")
        budget = fields[4].isEmpty || fields[4] == "NA" ? nil
            : try integer(4, in: 0...Int.max, "an integer in 0...\(Int.max) (or empty, or NA)")
        rating = try number(5, in: 0...10, "0...10")
        votes = try integer(6, in: 0...Int(UInt32.max), "an integer in 0...4294967295")
        var distribution: [Double] = []
        for column in 7...16 { distribution.append(try number(column, in: 0...100, "0...100")) }
        self.distribution = distribution
        let mpaa = fields[17]
        guard mpaa.utf8.count <= Bounds.mpaaBytes else { throw fail("mpaa is \(mpaa.utf8.count) bytes long; at most \(Bounds.mpaaBytes)") }
        self.mpaa = mpaa.isEmpty ? nil : mpaa
        let genres = fields[18].split(separator: ",")
        guard genres.count <= Bounds.genres else { throw fail("\(genres.count) genres; at most \(Bounds.genres)") }
        for genre in genres where genre.utf8.count > Bounds.genreBytes {
            throw fail("a genre is \(genre.utf8.count) bytes long; at most \(Bounds.genreBytes)")
        }
        self.genres = genres.map(String.init)
    }
}
