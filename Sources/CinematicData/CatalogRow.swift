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

    /// Parses the whole TSV (header first). Throws on a malformed line rather than guessing.
    static func parseAll(_ bytes: [UInt8]) throws(MovieError) -> [CatalogRow] {
        var rows: [CatalogRow] = []
        rows.reserveCapacity(60_000)
        var lineNumber = 0
        for line in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true) {
            lineNumber += 1
            let fields = line.split(separator: UInt8(ascii: "\t"), omittingEmptySubsequences: false)
                .map { String(decoding: $0, as: UTF8.self) }
            if lineNumber == 1 {
                guard fields == columns else { throw .storage("catalog: unexpected header") }
                continue
            }
            guard let row = CatalogRow(fields: fields) else { throw .storage("catalog: malformed line \(lineNumber)") }
            rows.append(row)
        }
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

    private init?(fields: [String]) {
        guard fields.count == Self.columns.count,
              let id = Int(fields[0]), let year = Int(fields[2]), let runtime = Int(fields[3]),
              let rating = Double(fields[5]), let votes = Int(fields[6]) else { return nil }
        let distribution = fields[7...16].compactMap { Double($0) }
        guard distribution.count == 10 else { return nil }
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
