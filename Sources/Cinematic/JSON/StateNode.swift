import Synchronization

/// A state, or a part of one, as its codec describes it: leaves already encoded, objects and
/// lists kept apart (not `indirect`: the arrays already live on the heap, so a leaf costs no
/// allocation), so the whole state serializes by joining cached fragments and a patch
/// can say which part changed (``StatePatch``) without encoding or parsing anything again.
///
/// ```swift
/// func stateMembers(_ state: WatchlistState) -> [StateMember] {
///     [("movieIds", .list(state.movieIDs.map { .int($0) }))]
/// }
/// ```
enum StateNode: Sendable, Equatable {
    /// A value encoded as a whole (a string, a number, an error object, a movie detail).
    case fragment(JSONFragment)
    /// An object whose members a patch may address one by one, in wire order.
    case object([StateMember])
    /// An array whose elements a patch may append, insert, remove or patch one by one.
    case list([StateNode])
    /// A part that a cache built once per distinct value (``NodeCache``): the same box while
    /// the value stays the same, so a patch skips it in constant time, and serialized at most
    /// once, when first needed.
    case cached(SerializedNode)
    /// A part that compares itself with the part it follows (``TypedStatePart``): described
    /// only when read whole, patched member by member from its typed value.
    case typed(TypedStatePart)

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
        case let .fragment(fragment): return fragment
        case let .cached(box): return box.json
        case let .typed(part): return part.node.json
        case .object, .list:
            var writer = JSONTextWriter()
            write(into: &writer)
            return writer.fragment
        }
    }

    /// Writes the node's JSON text: its fragments joined (a cached part serialized at most
    /// once), with no text made for the parts in between.
    func write(into writer: inout JSONTextWriter) {
        switch self {
        case let .fragment(fragment): writer.append(fragment)
        case let .object(members): writer.object(members, key: \.key) { member, writer in member.value.write(into: &writer) }
        case let .list(elements): writer.array(elements) { element, writer in element.write(into: &writer) }
        case let .cached(box): writer.append(box.json)
        case let .typed(part): part.node.write(into: &writer)
        }
    }

    /// The node without its cache box.
    var uncached: StateNode {
        switch self {
        case let .cached(box): return box.node.uncached
        case let .typed(part): return part.node.uncached
        default: return self
        }
    }

    static func == (lhs: StateNode, rhs: StateNode) -> Bool {
        switch (lhs, rhs) {
        case let (.cached(a), .cached(b)) where a === b: true
        case let (.typed(a), .typed(b)) where a === b: true
        case let (.typed(a), _): a.node == rhs
        case let (_, .typed(b)): lhs == b.node
        case let (.cached(a), _): a.node == rhs
        case let (_, .cached(b)): lhs == b.node
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

/// The serialization of a cached node, made on first use and kept (a node's JSON never
/// changes: a new value gets a new box).
final class SerializedNode: Sendable {
    /// The node itself.
    let node: StateNode
    /// When the node is a list made by appending to another cached list: that list's box and
    /// where the appended elements start (a patch then adds them without comparing the rest).
    let appended: (to: SerializedNode, from: Int)?
    private let serialized = Mutex<JSONFragment?>(nil)

    init(_ node: StateNode, appendedTo base: SerializedNode? = nil, from index: Int = 0) {
        self.node = node
        self.appended = base.map { ($0, index) }
    }

    /// The node's JSON.
    var json: JSONFragment {
        if let done = serialized.withLock({ $0 }) { return done }
        let json = node.json
        serialized.withLock { $0 = json }
        return json
    }
}

/// Remembers the node of the last value it described and reuses it (the same box) while the
/// value is equal: a part of a state is described, and serialized, once per distinct value.
final class NodeCache<Value: Equatable & Sendable>: Sendable {
    private let last = Mutex<(value: Value, node: StateNode)?>(nil)

    /// The node for `value`, described with `describe` only when the value changed.
    func node(for value: Value, _ describe: (Value) -> StateNode) -> StateNode {
        // Compared in place: only the node is copied out.
        if let node = last.withLock({ last in last.flatMap { $0.value == value ? $0.node : nil } }) { return node }
        let node = StateNode.cached(SerializedNode(describe(value)))
        last.withLock { $0 = (value, node) }
        return node
    }
}
