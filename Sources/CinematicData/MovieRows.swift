import CinematicDomain

/// The result rows of a catalog, in memory and in popularity order, so that a page of search
/// results is built without SQL: titles as one UTF-8 buffer, figures as arrays, genre lists
/// and MPAA ratings as indexes into their few distinct values.
struct MovieRows: Sendable {
    /// Every display title's bytes, one after another; title `r` (1-based rank) is
    /// `titleBytes[titleStarts[r - 1]..<titleStarts[r]]`.
    let titleBytes: [UInt8]
    let titleStarts: [UInt32]
    let ids: [UInt32]
    let years: [UInt16]
    let runtimes: [UInt16]
    let ratings: [Double]
    let votes: [UInt32]
    /// Index into ``genreLists`` per title.
    let genreIndexes: [UInt16]
    /// The distinct genre lists ("Comedy,Drama"), in order of first appearance.
    let genreLists: [String]
    /// Index into ``mpaaValues`` per title; 0 is "no rating".
    let mpaaIndexes: [UInt16]
    /// The distinct MPAA ratings; the first is "" (none).
    let mpaaValues: [String]

    /// The movie of rank `rank` (1-based).
    func movie(rank: Int) -> Movie {
        let index = rank - 1
        let title = String(decoding: titleBytes[Int(titleStarts[index])..<Int(titleStarts[index + 1])], as: UTF8.self)
        let genres = genreLists[Int(genreIndexes[index])]
        let mpaa = mpaaValues[Int(mpaaIndexes[index])]
        return Movie(id: Int(ids[index]), title: title, year: Int(years[index]), runtime: Int(runtimes[index]),
                     rating: ratings[index], votes: Int(votes[index]),
                     genres: genres.split(separator: ",").map(String.init), mpaa: mpaa.isEmpty ? nil : mpaa)
    }
}

/// Collects ``MovieRows`` title by title, in rank order.
struct MovieRowsBuilder {
    private var titleBytes: [UInt8] = [], titleStarts: [UInt32] = [0], ids: [UInt32] = []
    private var years: [UInt16] = [], runtimes: [UInt16] = [], ratings: [Double] = [], votes: [UInt32] = []
    private var genreIndexes: [UInt16] = [], genreLists: [String] = [], genreIndex: [String: UInt16] = [:]
    private var mpaaIndexes: [UInt16] = [], mpaaValues: [String] = [""], mpaaIndex: [String: UInt16] = ["": 0]

    /// Appends the next title (its display title and its row).
    mutating func append(_ row: CatalogRow, display: String) throws(MovieError) {
        titleBytes.append(contentsOf: display.utf8)
        titleStarts.append(UInt32(titleBytes.count))
        ids.append(UInt32(clamping: row.id))
        years.append(UInt16(clamping: row.year))
        runtimes.append(UInt16(clamping: row.runtime))
        ratings.append(row.rating)
        votes.append(UInt32(clamping: row.votes))
        genreIndexes.append(try Self.index(of: row.genres.joined(separator: ","), in: &genreLists, &genreIndex))
        mpaaIndexes.append(try Self.index(of: row.mpaa ?? "", in: &mpaaValues, &mpaaIndex))
    }

    private static func index(of value: String, in values: inout [String], _ index: inout [String: UInt16]) throws(MovieError) -> UInt16 {
        if let known = index[value] { return known }
        guard values.count < Int(UInt16.max) else { throw .storage("catalog: too many distinct genre lists or ratings") }
        let new = UInt16(values.count)
        values.append(value)
        index[value] = new
        return new
    }

    /// The rows collected.
    func rows() -> MovieRows {
        MovieRows(titleBytes: titleBytes, titleStarts: titleStarts, ids: ids, years: years, runtimes: runtimes,
                  ratings: ratings, votes: votes, genreIndexes: genreIndexes, genreLists: genreLists,
                  mpaaIndexes: mpaaIndexes, mpaaValues: mpaaValues)
    }
}
