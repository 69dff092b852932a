@testable import CinematicData
import CinematicDomain
import CinematicTestSupport
import Testing

/// An index build reads a valid ASCII line in one pass (``CatalogRow/init(validASCII:)``,
/// numbers by ``DecimalText``): it accepts exactly the ASCII lines the checking reading
/// accepts, with the same values, bit for bit.
@Suite("Catalog rows read in one pass", .offThePool)
struct CatalogRowReadingTests {
    /// What both readings make of `line`: the one-pass row (or nil) and the checking reading's.
    private static func bothWays(_ line: String) -> (fast: CatalogRow?, checked: Result<CatalogRow, MovieError>) {
        Array(line.utf8).withUnsafeBufferPointer { bytes in
            (CatalogRow(validASCII: bytes), Result { () throws(MovieError) in try CatalogRow(checking: bytes, number: 1) })
        }
    }

    private static func same(_ a: CatalogRow, _ b: CatalogRow) -> Bool {
        a.id == b.id && a.catalogTitle == b.catalogTitle && a.year == b.year && a.runtime == b.runtime && a.budget == b.budget
            && a.rating.bitPattern == b.rating.bitPattern && a.votes == b.votes && a.mpaa == b.mpaa && a.genres == b.genres
            && a.distribution.map(\.bitPattern) == b.distribution.map(\.bitPattern)
    }

    private static func expectAgreement(_ line: String) {
        let (fast, checked) = bothWays(line)
        switch checked {
        case let .success(row):
            if line.utf8.allSatisfy({ $0 < 0x80 }) {
                #expect(fast.map { same($0, row) } == true, "\(line.debugDescription)")
            } else {
                #expect(fast == nil)
            }
        case .failure:
            #expect(fast == nil, "\(line.debugDescription)")
        }
    }

    @Test func everyShippedLineReadsTheSameBothWays() throws {
        let text = try GzipData.inflate(EmbeddedCatalog.movieFile, maximumBytes: MovieFile.maximumBytes, what: "the embedded movie file")
        let lines = String(decoding: text, as: UTF8.self).split(separator: "\n").dropFirst()
        #expect(lines.count > 58_000)
        for line in lines { Self.expectAgreement(String(line)) }
    }

    /// Each field of a valid line replaced by values at and past its bounds, malformed
    /// numbers, other scripts, and too many or too few columns.
    @Test func everyFieldAtAndPastItsBoundsIsAcceptedOrRefusedAlike() {
        let fields = ["12", "Matrix, The", "1999", "136", "NA", "8.7", "1000", "4.5", "4.5", "4.5", "4.5", "14.5", "14.5", "14.5",
                      "14.5", "14.5", "14.5", "R", "Action,Sci-Fi"]
        let numbers = ["", "0", "-0", "+0", "-1", "+7", "7.", ".5", "1e1", "1E+1", "0x10", "nan", "inf", "-inf", "10", "10.0",
                       "10.000000000000001", "100", "100.05", "99.99999999999999", "0.1", "00000000000000000000001", "65535",
                       "65536", "9999", "10000", "4294967295", "4294967296", "9223372036854775807", "9223372036854775808",
                       "-9223372036854775808", "1 ", " 1", "１", "7.5\u{301}", "NA", "na", "1,5"]
        let texts = ["", "x", String(repeating: "t", count: 1024), String(repeating: "t", count: 1025), String(repeating: "é", count: 1024),
                     String(repeating: "é", count: 1025), String(repeating: "g", count: 4097), "Amélie", "a\rb", String(repeating: "R", count: 32),
                     String(repeating: "R", count: 33), ",,Drama,", String(repeating: "G,", count: 32), String(repeating: "G,", count: 33),
                     String(repeating: "g", count: 64), String(repeating: "g", count: 65), "Drama,\u{301}Comedy", "\u{FF}"]
        for column in fields.indices {
            for value in numbers + texts {
                var line = fields
                line[column] = value
                Self.expectAgreement(line.joined(separator: "\t"))
            }
        }
        for columns in [18, 20] {
            Self.expectAgreement((fields + ["x"]).prefix(columns).joined(separator: "\t"))
        }
        Self.expectAgreement(fields.joined(separator: "\t") + "\t")
    }

    /// ``DecimalText`` reads what `Int(_:)` and `Double(_:)` read, bit for bit: made-up
    /// decimals of up to 20 digits with signs, dots and exponents, and text that is no number.
    @Test func decimalsReadAsSwiftReadsThem() {
        var state: UInt64 = 0xDEC
        func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int(state >> 33) % bound
        }
        let alphabet = Array("0123456789012345678901234567890123456789.+-eE x")
        var texts = ["", "+", "-", ".", "-.", "0", "-0", "-0.0", "5.", ".5", "0.1", "0.3", "1.7976931348623157e308", "1e309", "nan",
                     "inf", "0x1p3", "123456789012345", "1234567890123456", "0.000000000000001", "9007199254740993",
                     "999999999999999.9", "4.35", "2.675", "14.499999999999998"]
        for _ in 0..<50_000 { texts.append(String((0..<(1 + next(20))).map { _ in alphabet[next(alphabet.count)] })) }
        for text in texts {
            Array(text.utf8).withUnsafeBufferPointer { bytes in
                #expect(DecimalText.integer(bytes) == Int(text), "\(text)")
                #expect(DecimalText.number(bytes)?.bitPattern == Double(text)?.bitPattern, "\(text)")
            }
        }
    }
}
