import CJansson
#if canImport(Glibc)
import Glibc
#endif

/// A complete JSON value already serialized by jansson, so a large part of a state that did
/// not change (a list of 20 movies while the user types) is encoded once, not on every
/// keystroke. Fragments compose into objects; every value inside was encoded by jansson
/// (integers: their decimal digits, as jansson writes them).
struct JSONFragment: Sendable, Equatable {
    /// The serialized value.
    let text: String

    /// Serializes and releases `node` (any JSON value, not only objects).
    init(consuming node: UnsafeMutablePointer<json_t>) {
        let flags = JSONBuilder.dumpFlags | Int(JSON_ENCODE_ANY)
        // Most fragments (a query, a film) fit on the stack: encoded there, with no buffer
        // allocated, grown and copied.
        let small = withUnsafeTemporaryAllocation(of: CChar.self, capacity: Self.stackBytes) { buffer -> String? in
            let count = json_dumpb(node, buffer.baseAddress, buffer.count, flags)
            guard count > 0, count <= buffer.count else { return nil }
            return String(decoding: UnsafeRawBufferPointer(start: buffer.baseAddress, count: count), as: UTF8.self)
        }
        if let small {
            json_decref(node)
            text = small
        } else {
            text = JSONBuilder.dumpString(consuming: node, flags: flags)
        }
    }

    /// The longest text ``init(consuming:)`` encodes on the stack.
    private static let stackBytes = 1024

    /// Text a ``JSONTextWriter`` laid out from fragments (every value inside encoded by jansson).
    init(writtenText text: String) { self.text = text }

    /// Serializes a borrowed `node` (it stays owned by its document).
    init(copying node: UnsafeMutablePointer<json_t>) {
        self.init(consuming: json_incref(node)!)
    }

    /// A JSON string. Text with nothing to escape (no `"`, `\` or control character: what
    /// jansson escapes at our flags) is quoted as it is, the bytes jansson writes for it,
    /// without a jansson value; anything else is encoded by jansson.
    static func string(_ value: String) -> JSONFragment {
        var value = value
        let quoted: String? = value.withUTF8 { bytes in
            guard needsNoEscape(bytes) else { return nil }
            return String(unsafeUninitializedCapacity: bytes.count + 2) { buffer in
                buffer[0] = UInt8(ascii: "\"")
                if let source = bytes.baseAddress { (buffer.baseAddress! + 1).initialize(from: source, count: bytes.count) }
                buffer[bytes.count + 1] = UInt8(ascii: "\"")
                return bytes.count + 2
            }
        }
        return quoted.map(JSONFragment.init(writtenText:)) ?? JSONFragment(consuming: JSONBuilder.string(value))
    }

    /// True when the UTF-8 `bytes` hold no `"`, `\` or control character: what jansson escapes
    /// in a string at our flags (so quoting them as they are is the text jansson writes).
    private static func needsNoEscape(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.allSatisfy { $0 >= 0x20 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }
    }

    /// `true` / `false`, encoded by jansson once.
    static func bool(_ value: Bool) -> JSONFragment { value ? trueValue : falseValue }
    private static let trueValue = JSONFragment(consuming: JSONBuilder.bool(true))
    private static let falseValue = JSONFragment(consuming: JSONBuilder.bool(false))

    /// `null`, encoded by jansson once.
    static let null = JSONFragment(consuming: JSONBuilder.null())

    /// An integer: its decimal digits, the text jansson writes for one (`"%lld"`), without a
    /// jansson value (a table of 256 encoded once cost a host's first state 380,000
    /// instructions).
    static func int(_ value: Int) -> JSONFragment { JSONFragment(writtenText: String(value)) }

    /// An object whose members are already-serialized fragments, in the given order.
    /// Keys must be plain identifiers (they are constants of the wire format).
    static func object(_ members: KeyValuePairs<StaticString, JSONFragment>) -> JSONFragment {
        object(members.map { (key: $0.key, value: $0.value) })
    }

    /// ``object(_:)`` from a list of members.
    static func object(_ members: [(key: StaticString, value: JSONFragment)]) -> JSONFragment {
        // The bytes are counted first: the text is written into a buffer of that size.
        var count = 1 + max(members.count, 1)
        for (key, value) in members { count += key.utf8CodeUnitCount + 3 + value.text.utf8.count }
        var writer = JSONTextWriter(capacity: count)
        writer.object(members, key: \.key) { $1.append($0.value) }
        return writer.fragment
    }

    /// An array of already-serialized fragments.
    static func array(_ elements: [JSONFragment]) -> JSONFragment {
        var count = 1 + max(elements.count, 1)
        for element in elements { count += element.text.utf8.count }
        var writer = JSONTextWriter(capacity: count)
        writer.array(elements) { $1.append($0) }
        return writer.fragment
    }

    /// A malloc'd copy for the caller to own (hosts free it with `cinematic_free`).
    func mallocCopy() -> UnsafeMutablePointer<CChar> { strdup(text)! }
}
