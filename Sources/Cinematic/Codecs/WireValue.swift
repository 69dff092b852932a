import CJansson
import CinematicDomain

/// A Swift value that is one member of a host intent on the wire: how it is read (with its
/// checks) and how it is written. The generated intent decoders and encoders
/// (Generated/FeatureWire.swift) call these for every member the schema declares; a member
/// whose schema is a `$ref` names its Swift type with `"x-swift-type"`.
///
/// ```swift
/// extension DiscoverSection: WireValue {
///     static func read(_ member: JSONValueReader) throws(APIError) -> Self { … }
///     var wireNode: UnsafeMutablePointer<json_t> { JSONBuilder.string(WireNames.id(of: self)) }
/// }
/// ```
protocol WireValue {
    /// Reads the value from a member, or throws `invalid` naming the member's path.
    static func read(_ member: JSONValueReader) throws(APIError) -> Self
    /// The value as JSON (a new reference).
    var wireNode: UnsafeMutablePointer<json_t> { get }
}

extension String: WireValue {
    static func read(_ member: JSONValueReader) throws(APIError) -> String { try member.string() }
    var wireNode: UnsafeMutablePointer<json_t> { JSONBuilder.string(self) }
}

extension Int: WireValue {
    static func read(_ member: JSONValueReader) throws(APIError) -> Int { try member.int() }
    var wireNode: UnsafeMutablePointer<json_t> { JSONBuilder.int(self) }
}

extension Bool: WireValue {
    static func read(_ member: JSONValueReader) throws(APIError) -> Bool { try member.bool() }
    var wireNode: UnsafeMutablePointer<json_t> { JSONBuilder.bool(self) }
}

extension JSONValueReader {
    /// A string of at most `maxCharacters` characters and `maxBytes` UTF-8 bytes (a schema
    /// `maxLength` and `x-maxBytes`), counting no further than the limits: a megabyte of
    /// combining marks costs no more than a short string.
    func text(maxCharacters: Int, maxBytes: Int) throws(APIError) -> String {
        guard type == .string else { return try string() }
        guard json_string_length(value) <= maxBytes, case let text = try string(), text.dropFirst(maxCharacters).first == nil else {
            let name = path.split(separator: ".").last.map(String.init) ?? "text"
            throw .invalid("\(name) longer than \(maxCharacters) characters or \(maxBytes) bytes", at: path)
        }
        return text
    }
}
