/// A description of asynchronous work that reports back with intents. Returned by a
/// ``Reducer`` and run by a ``Store``; building one performs nothing.
///
/// ```swift
/// return .run(id: "search") { send in
///     try? await clock.sleep(for: .milliseconds(250))
///     await send(.searchNow)
/// }
/// ```
public struct Effect<Intent: Sendable>: Sendable {
    /// The async body of a `.run` effect.
    public typealias Operation = @Sendable (Send<Intent>) async -> Void

    @usableFromInline
    enum Kind: Sendable {
        case run(id: EffectID?, operation: Operation)
        case cancel(EffectID)
        case merge([Effect<Intent>])
    }

    @usableFromInline
    let kinds: [Kind]

    @usableFromInline
    init(kinds: [Kind]) { self.kinds = kinds }

    /// No work.
    @inlinable
    public static var none: Effect { Effect(kinds: []) }

    /// Runs `operation` as a task. With an `id`, the effect that held the id is cancelled first
    /// and any intent it sends later is dropped (switch-latest).
    @inlinable
    public static func run(id: EffectID? = nil, operation: @escaping Operation) -> Effect {
        Effect(kinds: [.run(id: id, operation: operation)])
    }

    /// Cancels the effect holding `id`, if any. Intents it sends afterwards are dropped.
    @inlinable
    public static func cancel(_ id: EffectID) -> Effect { Effect(kinds: [.cancel(id)]) }

    /// Runs every effect, in order (cancellations before later runs).
    @inlinable
    public static func merge(_ effects: Effect...) -> Effect { merge(effects) }

    /// Runs every effect of the array, in order.
    @inlinable
    public static func merge(_ effects: [Effect]) -> Effect {
        // One or no effect (the common case of a composed reducer): nothing to join.
        if effects.count <= 1 { return effects.first ?? Effect(kinds: []) }
        var kinds: [Kind] = []
        for effect in effects { kinds.append(contentsOf: effect.kinds) }
        return Effect(kinds: kinds)
    }

    /// Lifts the effect into a larger intent type, for composing a child feature's reducer
    /// into a parent's.
    ///
    /// ```swift
    /// return child.reduce(&state.child, intent).map(ParentIntent.child)
    /// ```
    @inlinable
    public func map<Other: Sendable>(_ transform: @escaping @Sendable (Intent) -> Other) -> Effect<Other> {
        Effect<Other>(kinds: kinds.map { kind in
            switch kind {
            case let .run(id, operation):
                return .run(id: id) { send in await operation(Send<Intent> { intent in
                    // Synchronous hand-over: the parent's send reduces before returning.
                    send.deliver(transform(intent))
                }) }
            case let .cancel(id):
                return .cancel(id)
            case let .merge(children):
                return .merge(children.map { $0.map(transform) })
            }
        })
    }

    /// True when the effect describes no work at all.
    @inlinable
    public var isNone: Bool { kinds.isEmpty }
}
