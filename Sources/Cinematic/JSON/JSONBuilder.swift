import CJansson
#if canImport(Glibc)
import Glibc
#endif

/// A jansson value under construction: every `make` function returns a *new reference*
/// that the caller owns, and every `set`/`append` *steals* the reference it is given
/// (jansson's `_new` calls), so a tree is freed by one `json_decref` of its root.
enum JSONBuilder {
    /// Dump flags: compact, keys in insertion order, reals with 15 significant digits
    /// (JSON_REAL_PRECISION(15)), so 6.3 encodes as 6.3.
    static let dumpFlags = Int(JSON_COMPACT) | ((15 & 0x1F) << 11)

    static func object() -> UnsafeMutablePointer<json_t> { json_object() }
    static func array() -> UnsafeMutablePointer<json_t> { json_array() }
    static func string(_ text: String) -> UnsafeMutablePointer<json_t> {
        var text = text
        return text.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { chars in
                withUnsafePointer(to: CChar(0)) { empty in json_stringn_nocheck(chars.baseAddress ?? empty, chars.count) }
            }
        }
    }
    static func int(_ value: Int) -> UnsafeMutablePointer<json_t> { json_integer(json_int_t(value)) }
    /// A real; `null` for a value JSON cannot hold (NaN, ±infinity: jansson refuses them).
    /// Values are validated where they enter (index files, host answers), so this is the
    /// last guard: an encoder never traps on a number.
    static func real(_ value: Double) -> UnsafeMutablePointer<json_t> { value.isFinite ? json_real(value) : json_null() }
    static func bool(_ value: Bool) -> UnsafeMutablePointer<json_t> { value ? json_true() : json_false() }
    static func null() -> UnsafeMutablePointer<json_t> { json_null() }

    /// Sets `object[key]`, stealing `value`.
    static func set(_ object: UnsafeMutablePointer<json_t>, _ key: String, _ value: UnsafeMutablePointer<json_t>) {
        json_object_set_new_nocheck(object, key, value)
    }

    /// Appends to `array`, stealing `value`.
    static func append(_ array: UnsafeMutablePointer<json_t>, _ value: UnsafeMutablePointer<json_t>) {
        json_array_append_new(array, value)
    }

    /// An object from key/value pairs (values stolen).
    static func object(_ pairs: KeyValuePairs<String, UnsafeMutablePointer<json_t>>) -> UnsafeMutablePointer<json_t> {
        let object = json_object()!
        for (key, value) in pairs { set(object, key, value) }
        return object
    }

    /// An array of `elements`, each encoded by `encode`.
    static func array<T>(_ elements: some Sequence<T>, _ encode: (T) -> UnsafeMutablePointer<json_t>) -> UnsafeMutablePointer<json_t> {
        let array = json_array()!
        for element in elements { append(array, encode(element)) }
        return array
    }

    /// Serializes `root` and releases it. The text is malloc'd: the caller owns it
    /// (hosts free it with `cinematic_free`).
    static func dump(consuming root: UnsafeMutablePointer<json_t>, flags: Int = dumpFlags) -> UnsafeMutablePointer<CChar> {
        defer { json_decref(root) }
        // jansson returns NULL only when it cannot allocate (or for a value it cannot encode).
        return json_dumps(root, flags) ?? strdup("null")!
    }

    /// Serializes `root` into a Swift string and releases it.
    static func dumpString(consuming root: UnsafeMutablePointer<json_t>, flags: Int = dumpFlags) -> String {
        let text = dump(consuming: root, flags: flags)
        defer { free(text) }
        return String(cString: text)
    }
}
