/// Names a cancellable effect. Starting a `.run(id:)` cancels the effect holding the same id
/// (switch-latest); `.cancel(id)` stops it.
///
/// ```swift
/// static let searchEffect: EffectID = "search"
/// let perSection = EffectID("discover.\(section)")
/// ```
public struct EffectID: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The name that identifies the effect within one store.
    public let name: String

    /// Creates an id from a name.
    public init(_ name: String) { self.name = name }

    /// Creates an id from a string literal.
    public init(stringLiteral value: String) { self.name = value }

    public var description: String { name }
}
