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
        var text = "{"
        for (index, (key, value)) in members.enumerated() {
            if index > 0 { text += "," }
            text += "\"\(key)\":"
            text += value.text
        }
        text += "}"
        return JSONFragment(text: text)
    }

    /// An array of already-serialized fragments.
    static func array(_ elements: [JSONFragment]) -> JSONFragment {
        JSONFragment(text: "[" + elements.map(\.text).joined(separator: ",") + "]")
    }

    /// A malloc'd copy for the caller to own (hosts free it with `cinematic_free`).
    func mallocCopy() -> UnsafeMutablePointer<CChar> { strdup(text)! }
}
