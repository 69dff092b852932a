import CJansson
#if canImport(Glibc)
import Glibc
#endif

/// The thread-local error envelope behind `cinematic_last_error()`:
/// `{"status":"invalid","message":"…","path":"$.query"}` (+ `line`, `column` for malformed
/// JSON). Cleared at the start of every status-returning call, so it always describes the
/// last call made on this thread.
enum LastError {
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { free($0) }
        return key
    }()

    /// The current envelope (borrowed: valid until the next call on this thread), or NULL.
    static var current: UnsafePointer<CChar>? {
        pthread_getspecific(key).map { UnsafePointer($0.assumingMemoryBound(to: CChar.self)) }
    }

    static func clear() {
        guard let old = pthread_getspecific(key) else { return }
        pthread_setspecific(key, nil)
        free(old)
    }

    static func set(_ error: APIError) {
        let envelope = JSONBuilder.object([
            "status": JSONBuilder.string(String(describing: error.status.name)),
            "message": JSONBuilder.string(error.message),
        ])
        if let path = error.path { JSONBuilder.set(envelope, "path", JSONBuilder.string(path)) }
        if let line = error.line { JSONBuilder.set(envelope, "line", JSONBuilder.int(line)) }
        if let column = error.column { JSONBuilder.set(envelope, "column", JSONBuilder.int(column)) }
        let text = JSONBuilder.dump(consuming: envelope)
        clear()
        pthread_setspecific(key, text)
    }
}

/// Runs a C API call body: clears the last error, maps a thrown ``APIError`` to its status
/// and envelope.
func apiCall(_ body: () throws(APIError) -> Void) -> Int32 {
    LastError.clear()
    do {
        try body()
        // A callback run inside this call may have failed a call of its own: after a
        // success the envelope is always empty.
        LastError.clear()
        return Status.ok.rawValue
    } catch {
        LastError.set(error)
        return error.status.rawValue
    }
}
