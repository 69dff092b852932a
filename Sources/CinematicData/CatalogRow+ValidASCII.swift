#if canImport(Glibc)
import Glibc
#endif

extension CatalogRow {
    /// The row of an ASCII line that holds no fault, read in one pass over its bytes with no
    /// string but the title's; nil at the first byte over 0x7F or fault of any kind, for
    /// ``init(checking:number:)`` to read again and name. Accepts exactly the ASCII lines the
    /// checking reading accepts, with the same values (`CatalogRowReadingTests` holds them equal).
    init?(validASCII line: UnsafeBufferPointer<UInt8>) {
        guard let row = Self.readValidASCII(line, building: true)?.row else { return nil }
        self = row
    }

    /// The id and votes of an ASCII line that holds no fault (checked as ``init(validASCII:)``
    /// checks it, without building the row); nil otherwise.
    static func validASCIIKey(_ line: UnsafeBufferPointer<UInt8>) -> (id: Int, votes: Int)? {
        readValidASCII(line, building: false).map { ($0.id, $0.votes) }
    }

    private static func readValidASCII(_ line: UnsafeBufferPointer<UInt8>, building: Bool) -> (id: Int, votes: Int, row: CatalogRow?)? {
        var cursor = ValidASCIIFields(line: line)
        guard let id = cursor.integer(in: 0...Int(UInt32.max)),
              let title = cursor.next(), !title.isEmpty, title.count <= Bounds.titleCharacters,
              let year = cursor.integer(in: 0...9999), let runtime = cursor.integer(in: 0...65535),
              let rawBudget = cursor.next() else { return nil }
        var budget: Int?
        if !rawBudget.isEmpty && !rawBudget.elementsEqual("NA".utf8) {
            guard let value = DecimalText.integer(rawBudget), value >= 0 else { return nil }
            budget = value
        }
        guard let rating = cursor.number(in: 0...10), let votes = cursor.integer(in: 0...Int(UInt32.max)) else { return nil }
        var distribution: [Double] = []
        if building { distribution.reserveCapacity(10) }
        for _ in 0..<10 {
            guard let share = cursor.number(in: 0...100) else { return nil }
            if building { distribution.append(share) }
        }
        guard let mpaa = cursor.next(), mpaa.count <= Bounds.mpaaBytes, let rawGenres = cursor.next(), cursor.isAtEnd else { return nil }
        var genres: [String] = [], genreCount = 0
        for genre in rawGenres.split(separator: UInt8(ascii: ",")) {
            guard genreCount < Bounds.genres, genre.count <= Bounds.genreBytes else { return nil }
            genreCount += 1
            if building { genres.append(String(decoding: genre, as: UTF8.self)) }
        }
        guard building else { return (id, votes, nil) }
        return (id, votes, CatalogRow(id: id, catalogTitle: String(decoding: title, as: UTF8.self), year: year, runtime: runtime,
                                      budget: budget, rating: rating, votes: votes, distribution: distribution,
                                      mpaa: mpaa.isEmpty ? nil : String(decoding: mpaa, as: UTF8.self), genres: genres))
    }
}

/// The fields of an ASCII line one after another, each within ``CatalogRow/Bounds/fieldBytes``,
/// or nil.
private struct ValidASCIIFields {
    let line: UnsafeBufferPointer<UInt8>
    /// Whether every byte of the line is ASCII.
    let isASCII: Bool
    /// Where the next field starts; past the end once the last is read.
    private var start = 0

    init(line: UnsafeBufferPointer<UInt8>) {
        self.line = line
        isASCII = line.isASCII
    }

    /// Whether every field has been read.
    var isAtEnd: Bool { start > line.count }

    /// The next field; nil when there is none, the line is not ASCII or the field is over its
    /// bound.
    mutating func next() -> UnsafeBufferPointer<UInt8>? {
        guard isASCII, start <= line.count, let base = line.baseAddress else { return nil }
        let rest = line.count - start
        let tab = memchr(base + start, Int32(UInt8(ascii: "\t")), rest)
        let end = tab.map { UnsafeRawPointer($0) - UnsafeRawPointer(base) } ?? line.count
        defer { start = end + 1 }
        guard end - start <= CatalogRow.Bounds.fieldBytes else { return nil }
        return UnsafeBufferPointer(rebasing: line[start..<end])
    }

    /// The next field as an integer in `range`.
    mutating func integer(in range: ClosedRange<Int>) -> Int? {
        guard let field = next(), let value = DecimalText.integer(field), range.contains(value) else { return nil }
        return value
    }

    /// The next field as a finite number in `range`.
    mutating func number(in range: ClosedRange<Double>) -> Double? {
        guard let field = next(), let value = DecimalText.number(field), value.isFinite, range.contains(value) else { return nil }
        return value
    }
}
