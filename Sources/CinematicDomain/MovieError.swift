/// Every way a movie operation can fail: a closed set, so states stay Equatable and hosts
/// can switch over the codes.
public enum MovieError: Error, Equatable, Hashable, Sendable {
    /// The catalog could not be reached (a host provider's transport failed).
    case network(String)
    /// The requested movie does not exist.
    case notFound
    /// An answer could not be understood.
    case invalidResponse(String)
    /// Reading or writing local storage failed.
    case storage(String)

    /// The stable wire code: "network", "notFound", "invalidResponse" or "storage".
    public var code: String {
        switch self {
        case .network: "network"
        case .notFound: "notFound"
        case .invalidResponse: "invalidResponse"
        case .storage: "storage"
        }
    }

    /// A human-readable explanation.
    public var message: String {
        switch self {
        case let .network(message), let .invalidResponse(message), let .storage(message): message
        case .notFound: "movie not found"
        }
    }

    /// Rebuilds an error from a wire code. A code outside the closed set maps to
    /// `.invalidResponse`, carrying the unknown code in its message.
    public init(code: String, message: String) {
        switch code {
        case "network": self = .network(message)
        case "notFound": self = .notFound
        case "storage": self = .storage(message)
        case "invalidResponse": self = .invalidResponse(message)
        default: self = .invalidResponse("unknown error code \"\(code)\": \(message)")
        }
    }
}
