/// An intent type that keeps what the user may send apart from what effects report back.
///
/// A feature's intent enum has one case, `host(Host)`, for everything a user (through a
/// host's UI) may send, and internal cases for effect results. An edge that accepts intents
/// from outside (the C API, a test driver) decodes a `Host` and wraps it, so it can never
/// produce an internal intent, and the compiler sees every `Host` case it must handle.
///
/// ```swift
/// enum SearchIntent: HostIntents {
///     case host(Host)
///     case resultsLoaded([Movie])            // internal
///     enum Host: Equatable, Sendable { case queryChanged(String), submitted }
/// }
/// ```
public protocol HostIntents: Sendable {
    /// The intents a host may send.
    associatedtype Host: Sendable
    /// Wraps a host intent (an enum case `host(Host)` satisfies this).
    static func host(_ host: Host) -> Self
}
