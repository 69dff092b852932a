import CJansson
#if canImport(Glibc)
import Glibc
#endif

/// A parsed JSON document. Owns its root (released on deinit); readers borrow from it.
///
/// Parsing enforces the C API's input rules: at most ``maximumBytes`` of input, strict UTF-8,
/// no duplicate keys, no NUL in strings, nesting bounded by jansson's parser depth.
final class JSONDocument {
    /// The largest input accepted: 1 MiB.
    static let maximumBytes = 1 << 20

    let root: UnsafeMutablePointer<json_t>

    /// Parses NUL-terminated `text` (borrowed for the call), of at most `limit` bytes: the
    /// general ``maximumBytes`` unless the input has a documented limit of its own (a
    /// runtime snapshot: ``Snapshots/maximumRuntimeBytes``), which `what` names in the error.
    init(parsing text: UnsafePointer<CChar>, limit: Int = maximumBytes, what: String = "input") throws(APIError) {
        let length = strnlen(text, limit + 1)
        guard length <= limit else {
            throw APIError(.tooLarge, "\(what) is larger than \(limit) bytes")
        }
        var error = json_error_t()
        guard let root = json_loadb(text, length, Int(JSON_REJECT_DUPLICATES | JSON_DECODE_ANY), &error) else {
            let message = withUnsafeBytes(of: &error.text) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            // 1-based, as documented (jansson says column 0 for an empty document).
            let (line, column) = (max(1, Int(error.line)), max(1, Int(error.column)))
            // Well-formed JSON whose integer does not fit 64 bits is not a valid value, not
            // malformed text: `invalid`, naming where the number is.
            if json_error_code(&error) == json_error_numeric_overflow {
                throw APIError(.invalid, "a number out of range (integers are 64-bit signed, reals finite doubles): \(message)",
                               path: JSONChildren.overflowPath(text, length), line: line, column: column)
            }
            throw APIError(.json, "malformed JSON: \(message)", line: line, column: column)
        }
        self.root = root
    }

    deinit { json_decref(root) }

    /// The root as an object, or an `invalid` error naming what it is instead.
    func object(_ what: String) throws(APIError) -> JSONObjectReader {
        try JSONValueReader(root, path: "$").object(what)
    }
}

/// The kind of a JSON value.
enum JSONType {
    case object, array, string, integer, real, bool, null

    init(_ type: json_type) {
        switch type {
        case JSON_OBJECT: self = .object
        case JSON_ARRAY: self = .array
        case JSON_STRING: self = .string
        case JSON_INTEGER: self = .integer
        case JSON_REAL: self = .real
        case JSON_TRUE, JSON_FALSE: self = .bool
        default: self = .null
        }
    }
}

/// Where a value sits in its document (`$.query`, `$.stores[2]`), spelled out only when an
/// error names it: reading a valid intent builds no path text.
enum JSONPath: Sendable {
    case text(String)
    indirect case member(JSONPath, String)
    indirect case element(JSONPath, Int)

    var text: String {
        switch self {
        case let .text(text): text
        case let .member(parent, key): "\(parent.text).\(key)"
        case let .element(parent, index): "\(parent.text)[\(index)]"
        }
    }
}

/// A reader's ``JSONPath``, kept as its container's path and the last step, so a member or
/// element of the document's root (an intent's `query`) is read with no allocation; the two
/// are joined only when a value deeper down is read, or an error names the path.
struct JSONLocation {
    /// The last step: none (the container's path is the whole path), a member or an element.
    enum Step {
        case none
        case member(String)
        case element(Int)
    }

    let container: JSONPath
    let step: Step

    init(_ path: JSONPath) {
        container = path
        step = .none
    }

    private init(container: JSONPath, step: Step) {
        self.container = container
        self.step = step
    }

    /// The whole path.
    var path: JSONPath {
        switch step {
        case .none: container
        case let .member(key): .member(container, key)
        case let .element(index): .element(container, index)
        }
    }

    /// The location of member `key` of the value here.
    func member(_ key: String) -> JSONLocation { JSONLocation(container: path, step: .member(key)) }

    /// The location of element `index` of the value here.
    func element(_ index: Int) -> JSONLocation { JSONLocation(container: path, step: .element(index)) }
}

/// A borrowed JSON value and where it sits in its document, with typed accessors whose
/// errors name the path.
struct JSONValueReader {
    let value: UnsafeMutablePointer<json_t>
    let location: JSONLocation

    /// Where the value sits (`$.query`).
    var path: String { location.path.text }

    init(_ value: UnsafeMutablePointer<json_t>, path: String) {
        self.init(value, location: JSONLocation(.text(path)))
    }

    init(_ value: UnsafeMutablePointer<json_t>, location: JSONLocation) {
        self.value = value
        self.location = location
    }

    var type: JSONType { JSONType(value.pointee.type) }

    var typeName: String {
        switch type {
        case .object: "an object"
        case .array: "an array"
        case .string: "a string"
        case .integer: "an integer"
        case .real: "a number"
        case .bool: "a boolean"
        case .null: "null"
        }
    }

    private func mismatch(_ expected: String) -> APIError {
        .invalid("expected \(expected), found \(typeName)", at: path)
    }

    func object(_ what: String = "an object") throws(APIError) -> JSONObjectReader {
        guard type == .object else { throw mismatch(what) }
        return JSONObjectReader(value, location: location)
    }

    func string() throws(APIError) -> String {
        guard type == .string else { throw mismatch("a string") }
        let bytes = UnsafeRawBufferPointer(start: json_string_value(value), count: json_string_length(value))
        return String(decoding: bytes, as: UTF8.self)
    }

    func int() throws(APIError) -> Int {
        guard type == .integer else { throw mismatch("an integer") }
        return Int(json_integer_value(value))
    }

    func double() throws(APIError) -> Double {
        guard type == .integer || type == .real else { throw mismatch("a number") }
        return json_number_value(value)
    }

    func bool() throws(APIError) -> Bool {
        guard type == .bool else { throw mismatch("a boolean") }
        return value.pointee.type == JSON_TRUE
    }

    var isNull: Bool { type == .null }

    func array() throws(APIError) -> [JSONValueReader] {
        guard type == .array else { throw mismatch("an array") }
        return (0..<json_array_size(value)).map { index in
            JSONValueReader(json_array_get(value, index), location: location.element(index))
        }
    }
}

/// A borrowed JSON object. Accessors record the keys they read so ``rejectUnknownKeys()``
/// can name a typo (unknown keys in config and intents are errors).
struct JSONObjectReader {
    let object: UnsafeMutablePointer<json_t>
    let location: JSONLocation

    /// Where the object sits (`$.catalog`).
    var path: String { location.path.text }

    init(_ object: UnsafeMutablePointer<json_t>, path: String) {
        self.init(object, location: JSONLocation(.text(path)))
    }

    init(_ object: UnsafeMutablePointer<json_t>, location: JSONLocation) {
        self.object = object
        self.location = location
    }

    private func childPath(_ key: String) -> String { location.member(key).path.text }

    /// The member `key`, or nil when absent (null counts as present).
    func optional(_ key: String) -> JSONValueReader? {
        guard let value = key.withCString({ json_object_get(object, $0) }) else { return nil }
        return JSONValueReader(value, location: location.member(key))
    }

    /// The member `key`, or an `invalid` error saying it is missing.
    func required(_ key: String) throws(APIError) -> JSONValueReader {
        guard let value = optional(key) else { throw .invalid("missing required member \"\(key)\"", at: childPath(key)) }
        return value
    }

    /// Every key of the object, in document order.
    var keys: [String] {
        var keys: [String] = []
        var iterator = json_object_iter(object)
        while let current = iterator {
            keys.append(String(cString: json_object_iter_key(current)))
            iterator = json_object_iter_next(object, current)
        }
        return keys
    }

    /// Throws `invalid` naming the first key not in `allowed` (an intent's few names as an
    /// array literal: compared, not hashed).
    func rejectUnknownKeys(allowing allowed: some Collection<String>) throws(APIError) {
        var iterator = json_object_iter(object)
        while let current = iterator {
            let name = json_object_iter_key(current)!
            if !Self.isPlainName(name, in: allowed) {
                // Not a plain ASCII name of the list: compared as a string, as it always was.
                let key = String(cString: name)
                if !allowed.contains(key) { throw .invalid("unknown member \"\(key)\"", at: childPath(key)) }
            }
            iterator = json_object_iter_next(object, current)
        }
    }

    /// True when `key` is ASCII and byte for byte one of `names` (for ASCII text the same
    /// answer as comparing strings, without making one).
    private static func isPlainName(_ key: UnsafePointer<CChar>, in names: some Collection<String>) -> Bool {
        let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(key).assumingMemoryBound(to: UInt8.self), count: strlen(key))
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return false }
        return names.contains { name in
            guard name.utf8.count == bytes.count else { return false }
            guard !bytes.isEmpty else { return true }
            return name.utf8.withContiguousStorageIfAvailable { memcmp($0.baseAddress!, bytes.baseAddress!, bytes.count) == 0 }
                ?? name.utf8.elementsEqual(bytes)
        }
    }
}
