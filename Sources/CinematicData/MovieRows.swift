import CinematicDomain

/// The result rows of a catalog in popularity order, read where the index lies, so that a page
/// of search results is built without SQL: titles as one UTF-8 buffer, figures as arrays,
/// genre lists and MPAA ratings as indexes into their few distinct values (decoded when the
/// corpus is opened). A row's strings are decoded only when it is shown.
struct MovieRows: @unchecked Sendable {
    /// Every display title's bytes, one after another; title `r` (1-based rank) is
    /// `titleBytes[titleStarts[r - 1]..<titleStarts[r]]`.
    let titleBytes: UnsafeBufferPointer<UInt8>
    let titleStarts: UnsafeBufferPointer<UInt32>
    let ids: UnsafeBufferPointer<UInt32>
    let years: UnsafeBufferPointer<UInt16>
    let runtimes: UnsafeBufferPointer<UInt16>
    let ratings: UnsafeBufferPointer<Double>
    let votes: UnsafeBufferPointer<UInt32>
    /// Index into ``genreLists`` per title.
    let genreIndexes: UnsafeBufferPointer<UInt16>
    /// The distinct genre lists ("Comedy,Drama"), in order of first appearance.
    let genreLists: [String]
    /// Index into ``mpaaValues`` per title; 0 is "no rating".
    let mpaaIndexes: UnsafeBufferPointer<UInt16>
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

    /// Strings stored each ended by a newline (genre lists, ratings); `.storage` naming `name`
    /// when the last one is not ended.
    static func strings(_ bytes: UnsafeRawBufferPointer, _ name: String) throws(MovieError) -> [String] {
        guard bytes.isEmpty || bytes.last == UInt8(ascii: "\n") else { throw .storage("the index is damaged: its \(name) is not newline-ended") }
        var strings: [String] = [], start = 0
        for index in bytes.indices where bytes[index] == UInt8(ascii: "\n") {
            strings.append(String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self))
            start = index + 1
        }
        return strings
    }

    /// Strings as ``strings(_:_:)`` reads them.
    static func joined(_ strings: [String]) -> [UInt8] {
        var bytes: [UInt8] = []
        for string in strings { bytes += string.utf8; bytes.append(UInt8(ascii: "\n")) }
        return bytes
    }
}

/// Collects the result rows title by title, in rank order, as the search section's parts.
struct MovieRowsBuilder {
    private var titleBytes: [UInt8] = [], titleStarts: [UInt32] = [0], ids: [UInt32] = []
    /// Per title, where the name shown beside the stored title begins (``TitleSegments``), or 0.
    private var shownFrom: [UInt32] = []
    private var runtimes: [UInt16] = [], ratings: [Double] = []
    private var genreIndexes: [UInt16] = [], genreLists: [String] = [], genreIndex: [String: UInt16] = [:]
    private var mpaaIndexes: [UInt16] = [], mpaaValues: [String] = [""], mpaaIndex: [String: UInt16] = ["": 0]

    /// Appends the next title (its display title and its row), and the name `shown` beside
    /// it, if any: "Shichinin no samurai (Seven Samurai)", a part of the title of its own.
    mutating func append(_ row: CatalogRow, display: String, shown: String? = nil) throws(MovieError) {
        shownFrom.append(shown == nil ? 0 : UInt32(display.utf8.count))
        titleBytes.append(contentsOf: AlternateTitles.display(display, shown: shown).utf8)
        titleStarts.append(UInt32(titleBytes.count))
        ids.append(UInt32(clamping: row.id))
        runtimes.append(UInt16(clamping: row.runtime))
        ratings.append(row.rating)
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

    /// The rows' parts of the search section (years and votes are the corpus's own).
    func parts() -> [CorpusLayout.Part: [UInt8]] {
        // The ranks by movie id (then rank), for a Detail's lookup.
        let idRanks = ids.indices.sorted { (ids[$0], $0) < (ids[$1], $1) }.map { UInt32($0 + 1) }
        return [
            .displayTitles: titleBytes, .displayStarts: CorpusLayout.bytes(titleStarts), .ids: CorpusLayout.bytes(ids),
            .idRanks: CorpusLayout.bytes(idRanks), .runtimes: CorpusLayout.bytes(runtimes), .ratings: CorpusLayout.bytes(ratings),
            .genreIndexes: CorpusLayout.bytes(genreIndexes), .genreLists: MovieRows.joined(genreLists),
            .mpaaIndexes: CorpusLayout.bytes(mpaaIndexes), .mpaaValues: MovieRows.joined(mpaaValues),
            .titleParts: CorpusLayout.bytes(TitleSegments.starts(titleBytes: titleBytes, titleStarts: titleStarts, shownFrom: shownFrom)),
        ]
    }
}
