extension Effect {
    /// The same work with every effect id it names moved under `scope` ("detail#3" turns
    /// "detail.load" into "detail#3/detail.load"): for a parent that runs several instances
    /// of one child reducer (a stack of Detail screens), so one instance's switch-latest and
    /// cancellations never touch another's. Effects without an id stay without one.
    ///
    /// ```swift
    /// return detail.reduce(&state.details[index], intent)
    ///     .map { AppIntent.detail(key: key, $0) }
    ///     .scoped("detail#\(key)")
    /// ```
    public func scoped(_ scope: String) -> Effect {
        Effect(kinds: kinds.map { $0.scoped(scope) })
    }
}

extension EffectID {
    /// This id under `scope` (see ``Effect/scoped(_:)``).
    ///
    /// ```swift
    /// EffectID("detail.load").scoped("detail#3")   // "detail#3/detail.load"
    /// ```
    public func scoped(_ scope: String) -> EffectID { EffectID("\(scope)/\(name)") }
}

extension Effect.Kind {
    fileprivate func scoped(_ scope: String) -> Effect.Kind {
        switch self {
        case let .run(id, operation): .run(id: id?.scoped(scope), operation: operation)
        case let .cancel(id): .cancel(id.scoped(scope))
        case let .merge(children): .merge(children.map { $0.scoped(scope) })
        }
    }
}
