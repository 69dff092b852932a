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
