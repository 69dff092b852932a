import CinematicDomain

/// The names people use for a catalog's films besides their stored titles (data/alternate-
/// titles.tsv: the English titles of foreign-language films, common short names), which the
/// index searches as other forms of the film's title (``TitleWordLists``): "seven samurai"
/// finds "Shichinin no samurai", shown as "Shichinin no samurai (Seven Samurai)".
///
/// The file is a TSV, a header line first, with at least the columns `id` (the catalog row)
/// and `alternate` (the name); with `catalog_title`, `year` and `length` too, each line must
/// name its row exactly (so no alias lands on the wrong film); `kind` says whether the name
/// is shown beside the stored title (`title`: the English release title of a film stored
/// under another language's; the default) or only found (`alias`: "Dr. Strangelove"); other
/// columns (`source`) are provenance, not read. Hostile like any input: lines, names and names per film bounded, an
/// unknown id or a row that differs is `.storage` naming the line.
///
/// ```text
/// id      catalog_title           year  length  alternate      kind   source
/// 46408   Shichinin no samurai    1954  206     Seven Samurai  title  Wikipedia: Seven Samurai
/// ```
package enum AlternateTitles {
    /// At most this many names per film (a movie file's, a host's), of at most 200 UTF-8 bytes
    /// each, and 1 MiB of file.
    package static let perFilm = 8, nameBytes = 200
    static let maximumBytes = 1 << 20

    /// `title` as shown with the name `shown` beside it: "Shichinin no samurai (Seven Samurai)".
    package static func display(_ title: String, shown: String?) -> String {
        shown.map { "\(title) (\($0))" } ?? title
    }

    /// True for a name within the bounds: 1 to ``nameBytes`` UTF-8 bytes, no control character.
    private static func isName(_ name: some StringProtocol) -> Bool {
        !name.isEmpty && name.utf8.count <= nameBytes && !name.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
    }

    /// The rows with their alternate titles from `tsv` attached (in file order per film).
    static func attach(_ tsv: UnsafeRawBufferPointer, to rows: [CatalogRow]) throws(MovieError) -> [CatalogRow] {
        var byID: [Int: Int] = [:]
        for (index, row) in rows.enumerated() { byID[row.id] = index }
        var rows = rows
        for (line, index, name, shown) in try read(tsv, rows: rows, byID: byID) {
            guard rows[index].alternateTitles.count < perFilm else {
                throw fail(line, "film \(rows[index].id) has more than \(perFilm) alternate titles")
            }
            if !rows[index].alternateTitles.contains(name) { rows[index].alternateTitles.append(name) }
            if shown && rows[index].shownTitle == nil { rows[index].shownTitle = name }
        }
        return rows
    }

    /// The optional last column of a movie file (docs/catalog-index.md), after `genres`: a
    /// film's other names separated by "|" ("Seven Samurai|The Magnificent Seven Samurai"),
    /// the first shown beside its title unless the field begins with "|" (then each name is
    /// only found: "|Dr. Strangelove").
    static let column = "alternate_titles"

    /// The names of a movie file's `alternate_titles` field, and the one shown (if any);
    /// `.storage` naming line `line` for a name past the bounds.
    static func names(_ field: UnsafeBufferPointer<UInt8>, line: Int) throws(MovieError) -> (names: [String], shown: String?) {
        guard !field.isEmpty else { return ([], nil) }
        guard field.count <= perFilm * (nameBytes + 1), let text = String(validating: field, as: UTF8.self) else {
            throw .storage("line \(line): \(column) must be valid UTF-8 of at most \(perFilm) names of \(nameBytes) bytes")
        }
        let names = text.split(separator: "|").map { $0.trimmingSpaces }.filter { !$0.isEmpty }
        guard names.count <= perFilm else { throw .storage("line \(line): \(column) holds more than \(perFilm) names") }
        for name in names where !isName(name) {
            throw .storage("line \(line): \(column): each name must be 1 to \(nameBytes) UTF-8 bytes of text")
        }
        return (names, text.first == "|" ? nil : names.first)
    }

    /// Attaches the names of a movie file's `alternate_titles` field to `row`.
    static func attach(_ field: UnsafeBufferPointer<UInt8>, to row: inout CatalogRow, line: Int) throws(MovieError) {
        let (names, shown) = try names(field, line: line)
        row.alternateTitles = names
        row.shownTitle = shown
    }

    /// The lines of `tsv`: (line number, the row's index in `rows`, name, shown), each checked
    /// against its row (found by id in `byID`).
    private static func read(_ tsv: UnsafeRawBufferPointer, rows: [CatalogRow], byID: [Int: Int]) throws(MovieError) -> [(Int, Int, String, Bool)] {
        guard tsv.count <= maximumBytes else { throw .storage("alternate titles: the file is over \(maximumBytes) bytes") }
        guard let text = String(validating: tsv, as: UTF8.self) else { throw .storage("alternate titles: not valid UTF-8") }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard let header = lines.first?.split(separator: "\t", omittingEmptySubsequences: false).map(String.init),
              let idColumn = header.firstIndex(of: "id"), let nameColumn = header.firstIndex(of: "alternate") else {
            throw .storage("alternate titles: line 1: the header must name the columns id and alternate")
        }
        let title = header.firstIndex(of: "catalog_title"), year = header.firstIndex(of: "year"), length = header.firstIndex(of: "length")
        let kind = header.firstIndex(of: "kind")
        var found: [(Int, Int, String, Bool)] = []
        for (offset, line) in lines.enumerated().dropFirst() where !line.isEmpty {
            let number = offset + 1
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == header.count else { throw fail(number, "expected \(header.count) tab-separated columns, found \(fields.count)") }
            guard let id = Int(fields[idColumn]) else { throw fail(number, "id \"\(fields[idColumn].prefix(20))\" is not a number") }
            let name = fields[nameColumn]
            guard isName(name) else { throw fail(number, "the alternate title must be 1 to \(nameBytes) UTF-8 bytes of text") }
            guard let index = byID[id] else { throw fail(number, "id \(id) is no film of the catalog") }
            let film = rows[index]
            if let title, fields[title] != film.catalogTitle { throw fail(number, mismatch(id, film, "title", fields[title])) }
            if let year, Int(fields[year]) != film.year { throw fail(number, mismatch(id, film, "year", fields[year])) }
            if let length, Int(fields[length]) != film.runtime { throw fail(number, mismatch(id, film, "length", fields[length])) }
            let shown = kind.map { fields[$0] } ?? "title"
            guard shown == "title" || shown == "alias" else { throw fail(number, "kind \"\(shown.prefix(20))\" is neither title nor alias") }
            found.append((number, index, name, shown == "title"))
        }
        return found
    }

    private static func mismatch(_ id: Int, _ film: CatalogRow, _ column: String, _ value: String) -> String {
        "film \(id) is \"\(film.catalogTitle)\" (\(film.year), \(film.runtime) min), not \(column) \"\(value.prefix(60))\""
    }

    private static func fail(_ line: Int, _ what: String) -> MovieError { .storage("alternate titles: line \(line): \(what)") }
}

private extension Substring {
    /// Without leading and trailing spaces.
    var trimmingSpaces: String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
