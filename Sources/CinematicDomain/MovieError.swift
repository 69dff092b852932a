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
    /// A remote catalog did not answer within the request deadline.
    case timeout(String)

    /// A human-readable explanation.
    public var message: String {
        switch self {
        case let .network(message), let .invalidResponse(message), let .storage(message), let .timeout(message): message
        case .notFound: "movie not found"
        }
    }

    /// The failure's code, as every host reads it: "network", "notFound", "invalidResponse",
    /// "storage" or "timeout".
    public var code: String {
        switch self {
        case .network: "network"
        case .notFound: "notFound"
        case .invalidResponse: "invalidResponse"
        case .storage: "storage"
        case .timeout: "timeout"
        }
    }

    /// True for the failures an offline copy may stand in for: the catalog could not be
    /// reached (`network`) or did not answer in time (`timeout`).
    public var isUnreachable: Bool {
        switch self {
        case .network, .timeout: true
        case .notFound, .invalidResponse, .storage: false
        }
    }
}
