/// The statuses of the C API, as in include/cinematic.h. Values never change (the ABI only grows).
enum Status: Int32, Sendable {
    case ok = 0
    case json = 1
    case invalid = 2
    case unknownFeature = 3
    case io = 4
    case closed = 5
    case misuse = 6
    case timeout = 7
    case tooLarge = 8

    /// The static name `cinematic_status_name` returns.
    var name: StaticString {
        switch self {
        case .ok: "ok"
        case .json: "json"
        case .invalid: "invalid"
        case .unknownFeature: "unknown_feature"
        case .io: "io"
        case .closed: "closed"
        case .misuse: "misuse"
        case .timeout: "timeout"
        case .tooLarge: "too_large"
        }
    }
}

/// A failed C API call: a status and the detail that goes into the last-error envelope.
struct APIError: Error {
    let status: Status
    let message: String
    /// Where in the input document the problem is, as a JSONPath ("$.query").
    var path: String?
    /// For malformed JSON: 1-based line and column.
    var line: Int?
    var column: Int?

    init(_ status: Status, _ message: String, path: String? = nil, line: Int? = nil, column: Int? = nil) {
        self.status = status
        self.message = message
        self.path = path
        self.line = line
        self.column = column
    }

    static func invalid(_ message: String, at path: String) -> APIError { APIError(.invalid, message, path: path) }
    static func misuse(_ message: String) -> APIError { APIError(.misuse, message) }
    static func closed(_ what: String) -> APIError { APIError(.closed, "\(what) is closed") }
}
