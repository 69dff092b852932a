import CinematicDomain

/// The films an index is built from, handed out one at a time in rank order (most votes
/// first, then smaller id: the `movies.rank` of ``CatalogSchema``). From a movie file they are
/// kept as its text and each film's line, 8 bytes a film, and parsed again when handed out
/// (``CatalogRow/parse(_:line:)``), so a build never holds every row as Swift values.
/// ``release()`` gives the text back once the builder has read every film.
package final class CatalogFilms {
    /// The number of films.
    let count: Int
    private var rows: [CatalogRow]
    private var text: [UInt8]
    /// Per rank: the film's line in `text`, start << 32 | end.
    private var lines: [UInt64]

    /// Films held as rows (any order: ranked here).
    package init(rows: [CatalogRow]) {
        self.rows = rows.sorted { ($0.votes, $1.id) > ($1.votes, $0.id) }
        count = rows.count
        text = []
        lines = []
    }

    /// The films of a movie file's text, every line validated first (``CatalogRow/scanKeys(_:_:)``:
    /// its errors name the line). Ids are unique, so the rank order is total.
    init(movieText text: [UInt8]) throws(MovieError) {
        var keys: [UInt64] = [], ranges: [UInt64] = []
        try CatalogRow.scanKeys(text) { row, range throws(MovieError) in
            // Most votes first, then smaller id: ascending (UInt32.max - votes, id).
            keys.append(UInt64(UInt32.max - UInt32(row.votes)) << 32 | UInt64(row.id))
            ranges.append(UInt64(range.lowerBound) << 32 | UInt64(range.upperBound))
        }
        var order = Array(0..<UInt32(keys.count))
        order.sort { keys[Int($0)] < keys[Int($1)] }
        keys = []
        lines = order.map { ranges[Int($0)] }
        count = lines.count
        rows = []
        self.text = text
    }

    /// The film of rank `offset + 1`.
    func row(_ offset: Int) throws(MovieError) -> CatalogRow {
        guard lines.isEmpty else {
            let line = lines[offset]
            return try CatalogRow.parse(text, line: Int(line >> 32)..<Int(line & 0xFFFF_FFFF))
        }
        return rows[offset]
    }

    /// Frees what the films were read from (no film is read after this).
    func release() {
        rows = []
        text = []
        lines = []
    }
}
