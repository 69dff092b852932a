/// The life of one asynchronous load, so a view switches once and renders each case one way.
///
/// `LoadingPhase<[Movie], Never>` is a compiler-checked claim that the load cannot fail.
///
/// ```swift
/// var results: LoadingPhase<[Movie], MovieError> = .idle
/// ```
public enum LoadingPhase<Value, Failure: Error> {
    /// Nothing requested.
    case idle
    /// A request is in flight.
    case loading
    /// The load succeeded.
    case loaded(Value)
    /// The load failed with a typed error.
    case failed(Failure)

    /// The loaded value, or nil in every other phase.
    public var value: Value? {
        if case let .loaded(value) = self { return value }
        return nil
    }

    /// The failure, or nil in every other phase.
    public var failure: Failure? {
        if case let .failed(failure) = self { return failure }
        return nil
    }

    /// True while loading.
    public var isLoading: Bool {
        if case .loading = self { return true }
        return false
    }
}

extension LoadingPhase: Equatable where Value: Equatable, Failure: Equatable {
    /// The same phase with equal payloads. Inlinable, so a caller that knows the payload
    /// types (a codec's cache of the results it encoded) compares without generic dispatch.
    @inlinable public static func == (lhs: Self, rhs: Self) -> Bool {
        switch (lhs, rhs) {
        case (.idle, .idle), (.loading, .loading): true
        case let (.loaded(a), .loaded(b)): a == b
        case let (.failed(a), .failed(b)): a == b
        default: false
        }
    }
}
extension LoadingPhase: Sendable where Value: Sendable, Failure: Sendable {}
