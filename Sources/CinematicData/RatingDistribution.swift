import CinematicDomain

/// A film's rating distribution (10 percentages) as stored: 10 little-endian 16-bit tenths
/// when every value is a whole number of tenths in 0...100 (the shipped data's are: 20
/// bytes), else text ("4.5,14.5,...").
enum RatingDistribution {
    static func encode(_ values: [Double]) -> SQLiteStatement.Value {
        var blob: [UInt8] = []
        blob.reserveCapacity(2 * values.count)
        for value in values {
            let tenths = (value * 10).rounded()
            guard (0...1000).contains(tenths), tenths / 10 == value else { return .text(values.map { "\($0)" }.joined(separator: ",")) }
            let n = UInt16(tenths)
            blob.append(UInt8(n & 0xFF))
            blob.append(UInt8(n >> 8))
        }
        return .blob(blob)
    }

    /// The stored distribution of `row`'s `column`: exactly 10 finite numbers in 0...100,
    /// else `.storage` (a damaged or crafted index; never a value an encoder cannot hold).
    static func decode(_ row: SQLiteStatement, column: Int32) throws(MovieError) -> [Double] {
        let values: [Double]
        if row.isBlob(column) {
            values = try row.withBlob(column) { raw throws(MovieError) in
                stride(from: 0, to: raw.count - 1, by: 2).map { Double(UInt16(raw[$0]) | UInt16(raw[$0 + 1]) << 8) / 10 }
            }
        } else {
            let text = row.text(column) ?? ""
            values = text.utf8.count > 1_000 ? [] : text.split(separator: ",").map { Double(String($0)) ?? .nan }
        }
        guard values.count == 10, values.allSatisfy({ $0.isFinite && (0...100).contains($0) }) else {
            throw .storage("the index is damaged: a film's distribution is not 10 numbers in 0...100")
        }
        return values
    }
}
