#if canImport(Glibc)
import Glibc
#endif

/// JSON text laid out from parts that are already serialized: the one place that writes
/// `{"key":value,…}` and `[value,…]` around them (``JSONFragment/object(_:)``,
/// ``StateNode/write(into:)``). It owns a growable byte buffer that can be reused from one
/// text to the next (a delivered state: no allocation once the buffer has grown).
///
/// ```swift
/// var writer = JSONTextWriter()
/// writer.object([("query", JSONFragment.string("dune"))], key: \.0) { $1.append($0.1) }
/// ```
struct JSONTextWriter: ~Copyable {
    private var start: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// How many bytes were written.
    private(set) var count = 0

    /// An empty writer with room for `capacity` bytes.
    init(capacity: Int = 256) {
        self.capacity = max(capacity, 16)
        start = .allocate(capacity: self.capacity)
    }

    deinit { start.deallocate() }

    /// Forgets the text, keeping the buffer.
    mutating func removeAll() { count = 0 }

    /// The text written (borrowed: valid until the writer changes).
    var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: start, count: count) }

    /// True when both writers hold the same bytes.
    func hasSameText(as other: borrowing JSONTextWriter) -> Bool {
        count == other.count && memcmp(start, other.start, count) == 0
    }

    /// Makes room for `more` bytes.
    private mutating func reserve(_ more: Int) {
        guard count + more > capacity else { return }
        let grown = max(capacity * 2, count + more)
        let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
        larger.moveInitialize(from: start, count: count)
        start.deallocate()
        start = larger
        capacity = grown
    }

    private mutating func append(_ byte: UInt8) {
        reserve(1)
        start[count] = byte
        count += 1
    }

    private mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        reserve(bytes.count)
        (start + count).initialize(from: source, count: bytes.count)
        count += bytes.count
    }

    /// Appends constant text (punctuation, a key: already JSON).
    mutating func append(raw text: StaticString) {
        append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Appends already-serialized JSON.
    mutating func append(_ fragment: JSONFragment) {
        if fragment.text.utf8.withContiguousStorageIfAvailable({ append($0) }) == nil {
            for byte in fragment.text.utf8 { append(byte) }
        }
    }

    /// `{"key":value,…}`: each member's `key` (a plain identifier: a constant of the wire
    /// format), then its value written by `value` (inlined: no closure is made per call).
    @inline(__always)
    mutating func object<Members: Collection>(_ members: Members, key: (Members.Element) -> StaticString,
                                              value: (Members.Element, inout JSONTextWriter) -> Void) {
        append(UInt8(ascii: "{"))
        var first = true
        for member in members {
            if !first { append(UInt8(ascii: ",")) }
            first = false
            append(UInt8(ascii: "\""))
            key(member).withUTF8Buffer { append($0) }
            append(UInt8(ascii: "\""))
            append(UInt8(ascii: ":"))
            value(member, &self)
        }
        append(UInt8(ascii: "}"))
    }

    /// `[value,…]`, each element written by `element` (inlined: no closure is made per call).
    @inline(__always)
    mutating func array<Elements: Collection>(_ elements: Elements, element: (Elements.Element, inout JSONTextWriter) -> Void) {
        append(UInt8(ascii: "["))
        var first = true
        for value in elements {
            if !first { append(UInt8(ascii: ",")) }
            first = false
            element(value, &self)
        }
        append(UInt8(ascii: "]"))
    }

    /// Ends the text with a NUL, for C (the NUL then counts as written).
    mutating func terminate() { append(0) }

    /// The text as a fragment (not terminated).
    var fragment: JSONFragment { JSONFragment(writtenText: String(decoding: bytes, as: UTF8.self)) }
}
