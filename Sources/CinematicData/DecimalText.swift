/// Decimal numbers read from bytes where they lie (a movie file's fields: ``CatalogRow``),
/// giving exactly what Swift's `Int(_:)` and `Double(_:)` give for the same text, without
/// making a string of it.
enum DecimalText {
    /// `Int(text)`: an optional sign, then one or more decimal digits; nil for anything else
    /// or a value outside `Int`.
    static func integer(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        let (negative, firstDigit) = sign(of: bytes)
        var index = firstDigit
        guard index < bytes.count else { return nil }
        var value = 0
        while index < bytes.count {
            let digit = bytes[index] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            let (times, overflowed) = value.multipliedReportingOverflow(by: 10)
            // Accumulated negative when negative, so Int.min is read too.
            let (next, overflowedAgain) = negative ? times.subtractingReportingOverflow(Int(digit)) : times.addingReportingOverflow(Int(digit))
            guard !overflowed, !overflowedAgain else { return nil }
            value = next
            index += 1
        }
        return value
    }

    /// `Double(text)`. A plain decimal of at most 15 digits ("7.25", "-3", "14.5") is computed
    /// here: its digits as a whole number (below 2^53, so exact) divided by a power of ten (at
    /// most 10^15, exact), one correctly rounded division, which is the correctly rounded value
    /// `Double(_:)` gives. Anything else (exponents, more digits, "nan", "5.") is `Double(_:)`'s.
    static func number(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        let (negative, firstDigit) = sign(of: bytes)
        var index = firstDigit
        var whole: UInt64 = 0, digits = 0, integerDigits = 0, fractionDigits = 0, dot = false
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if byte == UInt8(ascii: "."), !dot {
                dot = true
                continue
            }
            let digit = byte &- UInt8(ascii: "0")
            guard digit < 10, digits < 15 else { return Double(String(decoding: bytes, as: UTF8.self)) }
            whole = whole * 10 + UInt64(digit)
            digits += 1
            if dot { fractionDigits += 1 } else { integerDigits += 1 }
        }
        guard integerDigits > 0, !dot || fractionDigits > 0 else { return Double(String(decoding: bytes, as: UTF8.self)) }
        let value = Double(whole) / powersOfTen[fractionDigits]
        return negative ? -value : value
    }

    /// Whether `bytes` start with "-", and where their digits start (after a "+" or "-").
    private static func sign(of bytes: UnsafeBufferPointer<UInt8>) -> (negative: Bool, digits: Int) {
        guard let first = bytes.first, first == UInt8(ascii: "+") || first == UInt8(ascii: "-") else { return (false, 0) }
        return (first == UInt8(ascii: "-"), 1)
    }

    private static let powersOfTen: [Double] = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15]
}
