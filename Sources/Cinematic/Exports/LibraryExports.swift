#if canImport(Glibc)
import Glibc
#endif

/// Static text as a C string (StaticString literals are NUL-terminated).
func cString(_ text: StaticString) -> UnsafePointer<CChar> {
    UnsafeRawPointer(text.utf8Start).assumingMemoryBound(to: CChar.self)
}

/// `cinematic_version`: documented in include/cinematic.h (ownership, threads, every status).
@_cdecl("cinematic_version")
public func cinematic_version() -> UnsafePointer<CChar> {
    cString(libraryVersion)
}

/// `cinematic_status_name`: documented in include/cinematic.h (ownership, threads, every status).
@_cdecl("cinematic_status_name")
public func cinematic_status_name(_ status: Int32) -> UnsafePointer<CChar> {
    cString(Status(rawValue: status)?.name ?? "unknown")
}

/// `cinematic_last_error`: documented in include/cinematic.h (ownership, threads, every status).
@_cdecl("cinematic_last_error")
public func cinematic_last_error() -> UnsafePointer<CChar>? {
    LastError.current
}

/// `cinematic_free`: documented in include/cinematic.h (ownership, threads, every status).
@_cdecl("cinematic_free")
public func cinematic_free(_ pointer: UnsafeMutableRawPointer?) {
    free(pointer)
}

/// Parses an optional NUL-terminated JSON argument (NULL stays nil).
func parseOptional(_ text: UnsafePointer<CChar>?) throws(APIError) -> JSONDocument? {
    guard let text else { return nil }
    return try JSONDocument(parsing: text)
}

/// Parses a required NUL-terminated JSON argument (NULL is misuse) of at most `limit` bytes
/// (the general input limit unless the argument has a documented one of its own).
func parseRequired(_ text: UnsafePointer<CChar>?, _ what: String, limit: Int = JSONDocument.maximumBytes) throws(APIError) -> JSONDocument {
    guard let text else { throw .misuse("NULL \(what)") }
    return try JSONDocument(parsing: text, limit: limit, what: limit == JSONDocument.maximumBytes ? "input" : what)
}

/// Checks an out-pointer and clears what it points at.
func requireOut<T>(_ out: UnsafeMutablePointer<T?>?, _ what: String) throws(APIError) -> UnsafeMutablePointer<T?> {
    guard let out else { throw .misuse("NULL \(what)") }
    out.pointee = nil
    return out
}

/// A path argument (`name`, e.g. "index_path") as the String the file calls take. Paths are
/// bytes and are never re-encoded: a String would repair bytes that are not UTF-8 into another
/// path (U+FFFD), so such a path is `.invalid` instead (the JSON config cannot name one
/// either). A valid UTF-8 path reaches the system byte for byte.
func pathArgument(_ path: UnsafePointer<CChar>, _ name: String) throws(APIError) -> String {
    guard let text = String(validatingCString: path) else {
        throw .invalid("\(name) is not valid UTF-8 (paths are passed to the system byte for byte, never repaired)", at: name)
    }
    return text
}
