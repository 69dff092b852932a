import CinematicDomain

/// One line of data/ggplot2movies.tsv.gz (see data/README.md for the columns).
struct CatalogRow {
    let id: Int
    let catalogTitle: String
    let year: Int
    let runtime: Int
    let budget: Int?
    let rating: Double
    let votes: Int
    let distribution: [Double]
    let mpaa: String?
    let genres: [String]

    /// The expected header line's columns.
    static let columns = ["id", "title", "year", "length", "budget", "rating", "votes",
                          "r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9", "r10", "mpaa", "genres"]

    /// Parses the whole TSV (header first). Throws `.storage` naming the line and what is
    /// wrong with it rather than guessing (a malformed field, a repeated id); blank lines are
    /// skipped (but counted).
    static func parseAll(_ bytes: [UInt8]) throws(MovieError) -> [CatalogRow] {
        var rows: [CatalogRow] = []
        rows.reserveCapacity(60_000)
        var lineNumber = 0
        var sawHeader = false
        var lines: [Int: Int] = [:]   // id → its line
        for raw in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            lineNumber += 1
            let line = raw.last == UInt8(ascii: "\r") ? raw.dropLast() : raw
            if line.isEmpty { continue }
            let fields = line.split(separator: UInt8(ascii: "\t"), omittingEmptySubsequences: false)
                .map { String(decoding: $0, as: UTF8.self) }
            if !sawHeader {
                guard fields == columns else {
                    throw .storage("line \(lineNumber): the header must be the \(columns.count) tab-separated columns \(columns.joined(separator: " "))")
                }
                sawHeader = true
                continue
            }
            let row = try CatalogRow(fields: fields, line: lineNumber)
            if let first = lines.updateValue(lineNumber, forKey: row.id) {
                throw .storage("line \(lineNumber): id \(row.id) is already the film of line \(first)")
            }
            rows.append(row)
        }
        guard sawHeader else { throw .storage("line 1: no header line (the file is empty)") }
        return rows
    }

    /// A film titled `catalogTitle` with `id`, and every other field of `shape`.
    init(id: Int, catalogTitle: String, like shape: CatalogRow) {
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

    private init(fields: [String], line: Int) throws(MovieError) {
        func fail(_ what: String) -> MovieError { .storage("line \(line): \(what)") }
        guard fields.count == Self.columns.count else {
            throw fail("expected \(Self.columns.count) tab-separated columns, found \(fields.count)")
        }
        guard let id = Int(fields[0]), (0...Int(UInt32.max)).contains(id) else { throw fail("id \"\(fields[0].prefix(40))\" is not an integer in 0...4294967295") }
        guard !fields[1].isEmpty else { throw fail("the title is empty") }
        guard let year = Int(fields[2]), (0...9999).contains(year) else { throw fail("year \"\(fields[2].prefix(40))\" is not a year") }
        guard let runtime = Int(fields[3]), (0...65535).contains(runtime) else { throw fail("length \"\(fields[3].prefix(40))\" is not a number of minutes") }
        guard fields[4].isEmpty || fields[4] == "NA" || Int(fields[4]) != nil else { throw fail("budget \"\(fields[4].prefix(40))\" is not an integer (or empty, or NA)") }
        guard let rating = Double(fields[5]), rating.isFinite else { throw fail("rating \"\(fields[5].prefix(40))\" is not a number") }
        guard let votes = Int(fields[6]), votes >= 0 else { throw fail("votes \"\(fields[6].prefix(40))\" is not a count") }
        let distribution = fields[7...16].compactMap { Double($0) }
        guard distribution.count == 10 else { throw fail("r1..r10 must be 10 numbers") }
        self.id = id
        self.catalogTitle = fields[1]
        self.year = year
        self.runtime = runtime
        self.budget = Int(fields[4])
        self.rating = rating
        self.votes = votes
        self.distribution = distribution
        self.mpaa = fields[17].isEmpty ? nil : fields[17]
        self.genres = fields[18].split(separator: ",").map(String.init)
    }
}
