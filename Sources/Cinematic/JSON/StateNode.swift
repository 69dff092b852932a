/// A state, or a part of one, as its codec describes it: leaves already encoded, objects and
/// lists kept apart, so the whole state serializes by joining cached fragments and a patch
/// can say which part changed (``StatePatch``) without encoding or parsing anything again.
///
/// ```swift
/// func stateMembers(_ state: WatchlistState) -> [StateMember] {
///     [("movieIds", .list(state.movieIDs.map { .int($0) }))]
/// }
/// ```
indirect enum StateNode: Sendable, Equatable {
    /// A value encoded as a whole (a string, a number, an error object, a movie detail).
    case fragment(JSONFragment)
    /// An object whose members a patch may address one by one, in wire order.
    case object([StateMember])
    /// An array whose elements a patch may append, insert, remove or patch one by one.
    case list([StateNode])

    /// A JSON string.
    static func string(_ value: String) -> StateNode { .fragment(.string(value)) }
    /// A JSON integer.
    static func int(_ value: Int) -> StateNode { .fragment(.int(value)) }
    /// `true` or `false`.
    static func bool(_ value: Bool) -> StateNode { .fragment(.bool(value)) }
    /// `null`.
    static let null = StateNode.fragment(.null)

    /// The node serialized: fragments joined, nothing encoded again.
    var json: JSONFragment {
        switch self {
        case let .fragment(fragment): fragment
        case let .object(members): .object(members.map { (key: $0.key, value: $0.value.json) })
        case let .list(elements): .array(elements.map(\.json))
        }
    }

    static func == (lhs: StateNode, rhs: StateNode) -> Bool {
        switch (lhs, rhs) {
        case let (.fragment(a), .fragment(b)): a == b
        case let (.list(a), .list(b)): a == b
        case let (.object(a), .object(b)):
            a.count == b.count && zip(a, b).allSatisfy { $0.key.description == $1.key.description && $0.value == $1.value }
        default: false
        }
    }
}

/// One top-level member of a state (or of an object inside it), in wire order.
typealias StateMember = (key: StaticString, value: StateNode)
