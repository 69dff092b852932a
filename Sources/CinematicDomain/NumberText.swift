/// Numbers as the app's sentences write them, the same in every host.
public enum NumberText {
    /// `value` with a comma between thousands: 63400 → "63,400", 999 → "999".
    public static func grouped(_ value: Int) -> String {
        if (0..<1000).contains(value) { return String(value) }
        let digits = String(value.magnitude)
        var text = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { text.append(",") }
            text.append(digit)
        }
        return value < 0 ? "-" + text : text
    }
}
