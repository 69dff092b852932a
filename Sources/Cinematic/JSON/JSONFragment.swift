import CJansson
#if canImport(Glibc)
import Glibc
#endif

/// A complete JSON value already serialized by jansson, so a large part of a state that did
/// not change (a list of 20 movies while the user types) is encoded once, not on every
/// keystroke. Fragments compose into objects; every value inside was encoded by jansson.
struct JSONFragment: Sendable, Equatable {
    /// The serialized value.
    let text: String

    /// Serializes and releases `node` (any JSON value, not only objects).
    init(consuming node: UnsafeMutablePointer<json_t>) {
        text = JSONBuilder.dumpString(consuming: node, flags: JSONBuilder.dumpFlags | Int(JSON_ENCODE_ANY))
    }

    private init(text: String) { self.text = text }

    /// Serializes a borrowed `node` (it stays owned by its document).
    init(copying node: UnsafeMutablePointer<json_t>) {
        self.init(consuming: json_incref(node)!)
    }

    /// A JSON string.
    static func string(_ value: String) -> JSONFragment { JSONFragment(consuming: JSONBuilder.string(value)) }

    /// `true` / `false`, encoded by jansson once.
    static func bool(_ value: Bool) -> JSONFragment { value ? trueValue : falseValue }
    private static let trueValue = JSONFragment(consuming: JSONBuilder.bool(true))
    private static let falseValue = JSONFragment(consuming: JSONBuilder.bool(false))

    /// `null`, encoded by jansson once.
    static let null = JSONFragment(consuming: JSONBuilder.null())

    /// An integer; 0...255 come from a table encoded by jansson once.
    static func int(_ value: Int) -> JSONFragment {
        (0..<smallInts.count).contains(value) ? smallInts[value] : JSONFragment(consuming: JSONBuilder.int(value))
    }
    private static let smallInts = (0..<256).map { JSONFragment(consuming: JSONBuilder.int($0)) }

    /// An object whose members are already-serialized fragments, in the given order.
    /// Keys must be plain identifiers (they are constants of the wire format).
    static func object(_ members: KeyValuePairs<StaticString, JSONFragment>) -> JSONFragment {
        object(members.map { (key: $0.key, value: $0.value) })
    }

    /// ``object(_:)`` from a list of members.
    static func object(_ members: [(key: StaticString, value: JSONFragment)]) -> JSONFragment {
        // `{"key":value,...}`: the bytes are counted, then copied once into a string of that
        // size (no interpolation, no regrowth: this runs for every state a host receives).
        var count = 1 + max(members.count, 1)
        for (key, value) in members { count += key.utf8CodeUnitCount + 3 + value.text.utf8.count }
        return JSONFragment(text: String(unsafeUninitializedCapacity: count) { buffer in
            var at = 0
            buffer[at] = UInt8(ascii: "{"); at += 1
            for (index, (key, value)) in members.enumerated() {
                if index > 0 { buffer[at] = UInt8(ascii: ","); at += 1 }
                buffer[at] = UInt8(ascii: "\""); at += 1
                key.withUTF8Buffer { at = copy($0, into: buffer, at: at) }
                buffer[at] = UInt8(ascii: "\""); at += 1
                buffer[at] = UInt8(ascii: ":"); at += 1
                at = copy(value.text, into: buffer, at: at)
            }
            buffer[at] = UInt8(ascii: "}"); at += 1
            return at
        })
    }

    /// An array of already-serialized fragments.
    static func array(_ elements: [JSONFragment]) -> JSONFragment {
        var count = 1 + max(elements.count, 1)
        for element in elements { count += element.text.utf8.count }
        return JSONFragment(text: String(unsafeUninitializedCapacity: count) { buffer in
            var at = 0
            buffer[at] = UInt8(ascii: "["); at += 1
            for (index, element) in elements.enumerated() {
                if index > 0 { buffer[at] = UInt8(ascii: ","); at += 1 }
                at = copy(element.text, into: buffer, at: at)
            }
            buffer[at] = UInt8(ascii: "]"); at += 1
            return at
        })
    }

    /// Copies `bytes` into `buffer` at `at`; returns the index after them.
    private static func copy(_ bytes: UnsafeBufferPointer<UInt8>, into buffer: UnsafeMutableBufferPointer<UInt8>, at: Int) -> Int {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return at }
        (buffer.baseAddress! + at).update(from: source, count: bytes.count)
        return at + bytes.count
    }

    /// Copies the UTF-8 of `text` into `buffer` at `at`; returns the index after it.
    private static func copy(_ text: String, into buffer: UnsafeMutableBufferPointer<UInt8>, at: Int) -> Int {
        if let end = text.utf8.withContiguousStorageIfAvailable({ copy($0, into: buffer, at: at) }) { return end }
        var at = at
        for byte in text.utf8 { buffer[at] = byte; at += 1 }
        return at
    }

    /// A malloc'd copy for the caller to own (hosts free it with `cinematic_free`).
    func mallocCopy() -> UnsafeMutablePointer<CChar> { strdup(text)! }
}
